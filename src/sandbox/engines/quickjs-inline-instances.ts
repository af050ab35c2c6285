import { newInlineInstance, type InlineAssets, type InlineInstance } from "./quickjs-inline-adapter.js";
import { prepareQuickJsSandbox, releaseQuickJsSandbox, type PreparedSandbox } from "./quickjs-sandbox.js";

/** An asyncify instance and, when it is idle, the sandbox its next run will use (built ahead). */
export interface InlineSlot {
  readonly instance: InlineInstance;
  next: PreparedSandbox | undefined;
}

export interface InlineInstanceOptions {
  readonly maxWasmMemoryBytes: number;
  /** Idle instances kept (each with its next sandbox built); more are dropped when their run ends. */
  readonly idle: number;
  /** An instance whose memory grew beyond this is dropped after its run (wasm memory never shrinks). */
  readonly retireAboveBytes: number;
}

/**
 * The asyncify instances of one engine. Asyncify keeps one suspended stack per instance, so each
 * run in progress holds its own instance; an idle one has its next run's sandbox (runtime, context,
 * compiled bootstrap) built while the thread had nothing else to do. Instances share the compiled
 * wasm module; what each holds is its own linear memory (pages it touched).
 */
export class InlineInstancePool {
  private readonly idleSlots: InlineSlot[] = [];
  private disposed = false;

  constructor(
    private readonly assets: InlineAssets,
    private readonly bootstrapSource: string,
    private readonly options: InlineInstanceOptions,
  ) {}

  /** An idle slot, or a new instance; the sandbox is built now if none was built ahead. */
  async acquire(): Promise<{ readonly slot: InlineSlot; readonly sandbox: PreparedSandbox }> {
    const slot = this.idleSlots.pop() ?? { instance: await newInlineInstance(this.assets, this.options.maxWasmMemoryBytes), next: undefined };
    const sandbox = slot.next ?? prepareQuickJsSandbox(slot.instance, this.bootstrapSource);
    slot.next = undefined;
    return { slot, sandbox };
  }

  /**
   * The run on `slot` ended. Its sandbox is freed and the next one built after the caller has had its
   * result (off the run's critical path); a poisoned or grown instance, or one beyond the idle count,
   * is dropped (its memory goes with it).
   */
  release(slot: InlineSlot, sandbox: PreparedSandbox, poisoned: boolean): void {
    if (poisoned) return;
    setImmediate(() => {
      try {
        releaseQuickJsSandbox(sandbox);
      } catch {
        return;
      }
      if (this.disposed || this.idleSlots.length >= this.options.idle || slot.instance.wasmMemoryBytes() > this.options.retireAboveBytes) return;
      try {
        slot.next = prepareQuickJsSandbox(slot.instance, this.bootstrapSource);
      } catch {
        return;
      }
      this.idleSlots.push(slot);
    }).unref();
  }

  /** Makes one idle slot with its sandbox ready, so the first run pays only for its own code. */
  async warm(): Promise<void> {
    if (this.idleSlots.length > 0 || this.options.idle === 0) return;
    const { slot, sandbox } = await this.acquire();
    slot.next = sandbox;
    this.idleSlots.push(slot);
  }

  dispose(): void {
    this.disposed = true;
    for (const slot of this.idleSlots.splice(0)) {
      if (slot.next !== undefined) {
        try {
          releaseQuickJsSandbox(slot.next);
        } catch {
          // The instance is dropped either way.
        }
      }
    }
  }
}
