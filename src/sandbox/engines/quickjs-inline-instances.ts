import { newInlineInstance, type InlineInstance } from "./quickjs-inline-adapter.js";
import type { InlineAssets } from "./quickjs-inline-assets.js";
import { prepareInlineSandbox, releaseInlineSandbox, type InlineSandbox } from "./quickjs-inline-sandbox.js";
import { compileQuickJsPiece, type SandboxSources } from "./quickjs-sandbox.js";
import { snapshotQuickJsSandbox, type SandboxSnapshot } from "./quickjs-snapshot.js";

/**
 * An asyncify instance; when idle, the sandbox its next run will use (built ahead) and the last run's,
 * not yet freed. Once the instance has an image (see quickjs-snapshot.ts), its sandbox is the image's,
 * restored after each run instead of freed and built again.
 */
export interface InlineSlot {
  readonly instance: InlineInstance;
  next: InlineSandbox | undefined;
  stale: InlineSandbox | undefined;
  image?: SandboxSnapshot<InlineSandbox> | undefined;
  /** The image's sandbox served a run since its last restore. */
  dirty?: boolean;
  /** Taking an image failed on this instance: it builds its sandboxes. */
  imageRefused?: boolean;
}

/**
 * What the pool calls at run time, passed in because the worker engine starts this class from its
 * source text inside its threads (quickjs-shared-worker.ts), where nothing can be imported.
 */
export interface InlinePoolParts {
  readonly newInstance: (assets: InlineAssets, maxWasmMemoryBytes: number) => Promise<InlineInstance>;
  readonly prepare: typeof prepareInlineSandbox;
  readonly release: typeof releaseInlineSandbox;
  readonly compilePiece: typeof compileQuickJsPiece;
  readonly snapshot: typeof snapshotQuickJsSandbox;
}

/** The pool's parts on this thread. */
export const INLINE_POOL_PARTS: InlinePoolParts = {
  newInstance: newInlineInstance,
  prepare: prepareInlineSandbox,
  release: releaseInlineSandbox,
  compilePiece: compileQuickJsPiece,
  snapshot: snapshotQuickJsSandbox,
};

/**
 * The asyncify instances of the process with one memory cap, shared by every quickjs-inline engine
 * (a new engine takes an idle instance instead of instantiating wasm). Asyncify keeps one suspended
 * stack per instance, so each run in progress holds its own instance; an idle one has its next run's
 * sandbox (runtime, context, compiled bootstrap) built while the thread had nothing else to do. Each
 * run still gets a fresh runtime: nothing of one run is visible to the next, in any engine.
 * Instances share the compiled wasm module; what each holds is the linear memory pages it touched.
 * The worker engine keeps one such pool in each of its threads. Self-contained (see InlinePoolParts).
 */
export class InlineInstancePool {
  private readonly idleSlots: InlineSlot[] = [];
  private refill: NodeJS.Immediate | undefined;
  /** Idle instances kept: the most any engine using this pool asked for. */
  idleCap = 0;
  /** Instances instantiated so far (for tests and diagnostics). */
  created = 0;

  constructor(
    private readonly parts: InlinePoolParts,
    private readonly assets: InlineAssets,
    private readonly sources: SandboxSources,
    private readonly piecesAhead: readonly string[],
    private readonly maxWasmMemoryBytes: number,
    /** Keep an image of each idle instance's sandbox and restore it after runs (QuickJsInlineEngineOptions.sandboxSnapshots). */
    private readonly images: boolean = true,
  ) {}

  get idle(): number {
    return this.idleSlots.length;
  }

  /** Idle instances that restore their sandbox from an image (for tests and diagnostics). */
  get imaged(): number {
    return this.idleSlots.filter((slot) => slot.image !== undefined).length;
  }

  /** An idle slot, or a new instance; the sandbox is built now if none was built ahead. */
  async acquire(): Promise<{ readonly slot: InlineSlot; readonly sandbox: InlineSandbox }> {
    // An idle slot whose next sandbox is already built, else any idle slot, else a new instance.
    const ready = this.idleSlots.findLastIndex((idle) => idle.next !== undefined || (idle.image !== undefined && idle.dirty !== true));
    const slot =
      (ready === -1 ? this.idleSlots.pop() : this.idleSlots.splice(ready, 1)[0]) ??
      { instance: await this.instantiate(), next: undefined, stale: undefined };
    if (slot.image !== undefined) {
      if (slot.dirty === true) slot.image.restore();
      slot.dirty = true;
      return { slot, sandbox: slot.image.sandbox };
    }
    if (slot.stale !== undefined) {
      const stale = slot.stale;
      slot.stale = undefined;
      // An instance that cannot free its own memory is dropped; take another.
      if (!this.free(stale)) return this.acquire();
      // Runs back to back (each starting in the continuation of the one before) never give the
      // idle immediate its turn, so the image would never be taken and every run would build its
      // sandbox: take it now, once per instance. A lone run (`mcpvm run`) never gets here.
      if (this.images && this.assets.memoryLayout !== undefined && slot.imageRefused !== true) {
        if (!this.buildNext(slot)) return this.acquire();
        const image = this.takeImage(slot);
        if (image !== undefined) {
          slot.dirty = true;
          return { slot, sandbox: image.sandbox };
        }
        if (slot.next === undefined) return this.acquire();
      }
    }
    const sandbox = slot.next ?? this.parts.prepare(slot.instance, this.sources);
    slot.next = undefined;
    return { slot, sandbox };
  }

  private instantiate(): Promise<InlineInstance> {
    this.created++;
    return this.parts.newInstance(this.assets, this.maxWasmMemoryBytes);
  }

  /**
   * The run on `slot` ended. A poisoned instance, one whose memory grew beyond `retireAboveBytes`
   * (wasm memory never shrinks) or one beyond the idle cap is dropped, its memory with it. Otherwise
   * it is idle at once (a run arriving now takes it and frees the old sandbox itself); freeing the
   * old sandbox and building the next happen after the caller has its result.
   */
  release(slot: InlineSlot, sandbox: InlineSandbox, poisoned: boolean, retireAboveBytes: number): void {
    if (poisoned || slot.instance.faulted) return;
    if (this.idleSlots.length >= this.idleCap || slot.instance.wasmMemoryBytes() > retireAboveBytes) {
      // An instance with an image is dropped whole (its memory with it): nothing to free.
      if (slot.image === undefined) setImmediate(() => this.free(sandbox)).unref();
      return;
    }
    if (slot.image === undefined) slot.stale = sandbox;
    this.idleSlots.push(slot);
    this.refill ??= setImmediate(() => this.prepareIdle()).unref();
  }

  /** Makes one idle slot with its sandbox ready, so the first run pays only for its own code. */
  async warm(): Promise<void> {
    if (this.idleSlots.length > 0 || this.idleCap === 0) return;
    const { slot, sandbox } = await this.acquire();
    if (slot.image === undefined) slot.next = sandbox;
    this.idleSlots.push(slot);
  }

  private prepareIdle(): void {
    this.refill = undefined;
    for (const slot of [...this.idleSlots]) {
      if (slot.image !== undefined) {
        if (slot.dirty === true) {
          slot.image.restore();
          slot.dirty = false;
        }
        continue;
      }
      if (slot.stale !== undefined) {
        const stale = slot.stale;
        slot.stale = undefined;
        if (!this.free(stale)) {
          this.drop(slot);
          continue;
        }
      }
      if (slot.next === undefined && !this.buildNext(slot)) continue;
      this.takeImage(slot);
    }
  }

  /**
   * Turns an idle slot's sandbox built ahead into the instance's image: the other pieces compiled
   * too, then the memory copied. Runs in an immediate like the build before it, or in acquire for
   * runs back to back. Returns the image; if it cannot be taken here (undefined), the slot's sandbox
   * is built again and the instance keeps building (taking the image may have changed that sandbox,
   * e.g. its Math.random state).
   */
  private takeImage(slot: InlineSlot): SandboxSnapshot<InlineSandbox> | undefined {
    const layout = this.assets.memoryLayout;
    const sandbox = slot.next;
    if (!this.images || layout === undefined || sandbox === undefined || slot.imageRefused === true || slot.image !== undefined) return slot.image;
    try {
      for (const name of Object.keys(this.sources.pieces)) if (!this.piecesAhead.includes(name)) this.parts.compilePiece(sandbox, this.sources, name);
      slot.image = this.parts.snapshot(sandbox, slot.instance.memory, layout);
    } catch {
      slot.image = undefined;
    }
    if (slot.image !== undefined) {
      slot.next = undefined;
      slot.dirty = false;
      return slot.image;
    }
    slot.imageRefused = true;
    slot.next = undefined;
    if (!this.free(sandbox)) {
      this.drop(slot);
      return undefined;
    }
    this.buildNext(slot);
    return undefined;
  }

  /**
   * Builds the idle slot's next sandbox with the pieces most runs use; this thread had nothing else
   * to do (an immediate after the last run). An instance that fails to build is dropped (false).
   */
  private buildNext(slot: InlineSlot): boolean {
    try {
      const next = this.parts.prepare(slot.instance, this.sources);
      slot.next = next;
      for (const name of this.piecesAhead) this.parts.compilePiece(next, this.sources, name);
      return true;
    } catch {
      this.drop(slot);
      return false;
    }
  }

  private drop(slot: InlineSlot): void {
    const index = this.idleSlots.indexOf(slot);
    if (index !== -1) this.idleSlots.splice(index, 1);
  }

  private free(sandbox: InlineSandbox): boolean {
    try {
      this.parts.release(sandbox);
      return true;
    } catch {
      return false;
    }
  }
}

const pools = new Map<string, InlineInstancePool>();

/** The pool for instances with this memory cap (and images on or off), if an engine has made it. */
export function inlinePoolFor(maxWasmMemoryBytes: number, images = true): InlineInstancePool | undefined {
  return pools.get(`${maxWasmMemoryBytes}/${images}`);
}

/** The process-wide pool for instances with this memory cap and image setting (see InlineInstancePool). */
export function sharedInlinePool(
  assets: InlineAssets,
  sources: SandboxSources,
  piecesAhead: readonly string[],
  maxWasmMemoryBytes: number,
  idle: number,
  images = true,
): InlineInstancePool {
  const key = `${maxWasmMemoryBytes}/${images}`;
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = new InlineInstancePool(INLINE_POOL_PARTS, assets, sources, piecesAhead, maxWasmMemoryBytes, images);
    pools.set(key, pool);
  }
  pool.idleCap = Math.max(pool.idleCap, idle);
  return pool;
}
