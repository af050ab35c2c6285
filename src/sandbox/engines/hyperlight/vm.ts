import type { HyperlightApi, HyperlightCallOptions, HyperlightCallStats, HyperlightLoadedSandbox, HyperlightSnapshot } from "./addon-types.js";

/** The one host function every VM registers; the per-run dispatcher behind it is swapped per run. */
export const BRIDGE_MODULE = "__mcpvm";
export const BRIDGE_FUNCTION = "dispatch";
export const RUN_HANDLER = "run";

/** Called with the guest's JSON request string; resolves with the JSON reply string. */
export type BridgeDispatcher = (request: string) => Promise<string>;

export interface VmSizes {
  readonly heapBytes: number;
  readonly scratchBytes: number;
  readonly inputBufferBytes: number;
  readonly outputBufferBytes: number;
}

export type VmCallOutcome =
  | { readonly ok: true; readonly value: unknown; readonly stats: HyperlightCallStats | undefined }
  | { readonly ok: false; readonly error: unknown; readonly stats: HyperlightCallStats | undefined };

/**
 * One booted micro-VM with the mcpvm guest handler compiled in and a snapshot of that clean state.
 * Every run ends with a restore to the snapshot, so nothing a guest did survives into the next run.
 * Runs on one VM are serialised by the pool; concurrency comes from several VMs.
 */
export class HyperlightVm {
  private dispatcher: BridgeDispatcher | undefined;
  private printer: ((message: string) => void) | undefined;

  private constructor(
    readonly sizes: VmSizes,
    private readonly loaded: HyperlightLoadedSandbox,
    private readonly clean: HyperlightSnapshot,
  ) {}

  static async boot(api: HyperlightApi, sizes: VmSizes, handlerSource: string): Promise<HyperlightVm> {
    // The VM object does not exist yet when callbacks are registered, so they reach it through a box.
    const box: { vm?: HyperlightVm } = {};
    const builder = new api.SandboxBuilder()
      .setHeapSize(sizes.heapBytes)
      .setScratchSize(sizes.scratchBytes)
      .setInputBufferSize(sizes.inputBufferBytes)
      .setOutputBufferSize(sizes.outputBufferBytes)
      .setHostPrintFn((message) => box.vm?.printer?.(message));
    const proto = await builder.build();
    proto.hostModule(BRIDGE_MODULE).register(BRIDGE_FUNCTION, (request: unknown) => {
      const dispatch = box.vm?.dispatcher;
      if (dispatch === undefined || typeof request !== "string") {
        return JSON.stringify({ ok: false, error: { name: "Error", message: "no run is active on this sandbox" } });
      }
      return dispatch(request);
    });
    const runtime = await proto.loadRuntime();
    runtime.addHandler(RUN_HANDLER, handlerSource);
    const loaded = await runtime.getLoadedSandbox();
    const clean = await loaded.snapshot();
    const vm = new HyperlightVm(sizes, loaded, clean);
    box.vm = vm;
    return vm;
  }

  get interrupt(): () => void {
    const handle = this.loaded.interruptHandle;
    return () => handle.kill();
  }

  /** Runs the handler once with this run's dispatcher and print sink attached. */
  async call(event: unknown, options: HyperlightCallOptions, dispatcher: BridgeDispatcher, printer: (message: string) => void): Promise<VmCallOutcome> {
    this.dispatcher = dispatcher;
    this.printer = printer;
    try {
      const value = await this.loaded.callHandler(RUN_HANDLER, event, options);
      return { ok: true, value, stats: this.stats() };
    } catch (error) {
      return { ok: false, error, stats: this.stats() };
    } finally {
      this.dispatcher = undefined;
      this.printer = undefined;
    }
  }

  /** Back to the state right after boot (also clears a poisoned VM). False if the VM is unusable. */
  async reset(): Promise<boolean> {
    try {
      await this.loaded.restore(this.clean);
      return !this.loaded.poisoned;
    } catch {
      return false;
    }
  }

  async dispose(): Promise<void> {
    try {
      await this.loaded.dispose();
    } catch {
      // Already consumed or poisoned beyond use: nothing left to release.
    }
  }

  private stats(): HyperlightCallStats | undefined {
    try {
      return this.loaded.lastCallStats ?? undefined;
    } catch {
      return undefined;
    }
  }
}
