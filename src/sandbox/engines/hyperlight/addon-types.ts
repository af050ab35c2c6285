/**
 * The surface of the hyperlight-js NAPI host bindings (js-host-api 0.3.3, as shipped in
 * @hyperlight-dev/hyperagent@0.7.0), written down from its JavaScript wrapper and native exports
 * because the package ships no declarations. Only what mcpvm uses is typed.
 *
 * Lifecycle: SandboxBuilder -build-> ProtoJSSandbox (register host functions) -loadRuntime->
 * JSSandbox (add handlers) -getLoadedSandbox-> LoadedJSSandbox (callHandler, snapshot/restore).
 * Methods that touch the hypervisor are async and run off the main thread; host callbacks run on
 * the main thread while the guest is blocked, so a callback may return a promise.
 * Errors carry `code` (`ERR_INVALID_ARG`, `ERR_CONSUMED`, `ERR_POISONED`, `ERR_CANCELLED`,
 * `ERR_GUEST_ABORT`, `ERR_INTERNAL`).
 */

export interface HyperlightCallOptions {
  /** Kills the call after this much elapsed time (u32, >= 1). */
  readonly wallClockTimeoutMs?: number;
  /** Kills the call after this much guest CPU time (u32, >= 1). */
  readonly cpuTimeoutMs?: number;
  /** Run the guest GC after the call (default true). */
  readonly gc?: boolean;
}

export interface HyperlightCallStats {
  readonly wallClockMs: number;
  readonly cpuTimeMs?: number | null;
  /** "wall-clock" | "cpu-time" when a monitor ended the call; null otherwise. */
  readonly terminatedBy?: string | null;
}

export interface HyperlightInterruptHandle {
  kill(): void;
}

/** Opaque point-in-time copy of the guest's memory. */
export type HyperlightSnapshot = object;

export interface HyperlightLoadedSandbox {
  /** `event` crosses as JSON; the handler's return value comes back parsed. */
  callHandler(handlerName: string, event: unknown, options?: HyperlightCallOptions): Promise<unknown>;
  unload(): Promise<HyperlightJsSandbox>;
  snapshot(): Promise<HyperlightSnapshot>;
  restore(snapshot: HyperlightSnapshot): Promise<void>;
  dispose(): Promise<void>;
  readonly poisoned: boolean;
  readonly interruptHandle: HyperlightInterruptHandle;
  readonly lastCallStats: HyperlightCallStats | null | undefined;
}

export interface HyperlightJsSandbox {
  /** `code` is an ES module defining (or exporting) a function named `handler`. */
  addHandler(name: string, code: string): void;
  removeHandler(name: string): void;
  clearHandlers(): void;
  getLoadedSandbox(): Promise<HyperlightLoadedSandbox>;
  dispose(): void;
  readonly poisoned: boolean;
}

export interface HyperlightHostModule {
  /** Guest arguments are JSON-parsed and spread; the (awaited) return value is JSON-stringified. */
  register(name: string, callback: (...args: unknown[]) => unknown): HyperlightHostModule;
}

export interface HyperlightProtoSandbox {
  /** Guest code reaches it as `import * as m from "host:<name>"` or `require("host:<name>")`. */
  hostModule(name: string): HyperlightHostModule;
  register(moduleName: string, functionName: string, callback: (...args: unknown[]) => unknown): void;
  loadRuntime(): Promise<HyperlightJsSandbox>;
}

export interface HyperlightSandboxBuilder {
  setHeapSize(bytes: number): HyperlightSandboxBuilder;
  setScratchSize(bytes: number): HyperlightSandboxBuilder;
  setInputBufferSize(bytes: number): HyperlightSandboxBuilder;
  setOutputBufferSize(bytes: number): HyperlightSandboxBuilder;
  /** Receives the guest's print/console.log output. */
  setHostPrintFn(callback: (message: string) => void): HyperlightSandboxBuilder;
  build(): Promise<HyperlightProtoSandbox>;
}

/** The loaded addon. */
export interface HyperlightApi {
  readonly SandboxBuilder: new () => HyperlightSandboxBuilder;
}
