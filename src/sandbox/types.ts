import type { McpvmError } from "../util/errors.js";

/**
 * The engine contract. Modelled on Cloudflare codemode's executor types: an engine never throws
 * from `run`; it returns a tagged result. QuickJS and Hyperlight are two implementations.
 */

export type EngineKind = "quickjs" | "hyperlight";
export type EngineChoice = EngineKind | "auto";

/** Per-run limits. `wallMs` is one budget for the whole run, host calls included. */
export interface RunLimits {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryBytes: number;
  /** Result + captured logs, measured as UTF-8 JSON. */
  readonly outputBytes: number;
}

export const DEFAULT_LIMITS: RunLimits = Object.freeze({
  cpuMs: 10_000,
  wallMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  outputBytes: 1024 * 1024,
});

/** What a host function learns about the call it is serving. */
export interface HostCallContext {
  readonly module: string;
  readonly fn: string;
  /** Aborted when the run ends (limit hit, cancel, completion) so in-flight host work can stop. */
  readonly signal: AbortSignal;
  /** Epoch ms at which the run's wall budget runs out; host calls must not outlive it. */
  readonly deadline: number;
}

/**
 * A host function receives the guest's arguments already decoded from JSON (with Uint8Array
 * restored) and returns a JSON value, a Uint8Array, or a promise of one. Throwing (or rejecting)
 * becomes a guest Error; an McpvmError's `name`/`code` are preserved for the guest.
 */
export type HostFunction = (args: readonly unknown[], context: HostCallContext) => unknown;

/** function name -> implementation */
export type HostModule = Readonly<Record<string, HostFunction>>;

/**
 * A module whose functions are only known after async work: an MCP server is started on the first
 * `require("host:mcp-x")`, not before. The engine calls `load` (guest suspended, counted against the
 * wall budget) the first time the guest requires the module in a run, then treats the result like a
 * static module for the rest of that run. `load` rejecting becomes a guest Error from `require`.
 */
export interface LazyHostModule {
  readonly lazy: true;
  load(context: { readonly signal: AbortSignal; readonly deadline: number }): Promise<HostModule>;
}

/** module name (without "host:") -> module */
export type HostModules = Readonly<Record<string, HostModule | LazyHostModule>>;

export function isLazyHostModule(module: HostModule | LazyHostModule): module is LazyHostModule {
  return (module as LazyHostModule).lazy === true && typeof (module as LazyHostModule).load === "function";
}

export interface RunRequest {
  /** A script body: top-level `return` gives the result, top-level `await` works. */
  readonly code: string;
  readonly modules?: HostModules;
  readonly limits?: Partial<RunLimits>;
  /**
   * Trusted guest-side JavaScript evaluated before `code` in the same context (e.g. the `tools`
   * global built over `__mcpvm.callAsync`). Its errors are host bugs, reported as `PRELUDE_ERROR`.
   */
  readonly prelude?: string;
  /** Cancels the run (Ctrl-C in the REPL, client cancellation in the gateway). */
  readonly signal?: AbortSignal;
  /** Shown in guest stack traces; defaults to "guest.js". */
  readonly filename?: string;
}

export type LogLevel = "log" | "info" | "warn" | "error" | "debug";

export interface LogEntry {
  readonly level: LogLevel;
  readonly message: string;
}

export interface RunStats {
  readonly engine: EngineKind;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly hostCalls: number;
  /** Peak guest heap where the engine can tell; undefined otherwise. */
  readonly memoryBytes?: number;
  readonly outputBytes: number;
  /** Logs dropped because the output budget was reached. */
  readonly droppedLogs: number;
}

export type SandboxErrorCode =
  | "SYNTAX_ERROR"
  | "GUEST_ERROR"
  | "HOST_FUNCTION_ERROR"
  | "CPU_LIMIT"
  | "WALL_LIMIT"
  | "MEMORY_LIMIT"
  | "OUTPUT_LIMIT"
  | "STACK_OVERFLOW"
  | "RESULT_NOT_SERIALIZABLE"
  | "CANCELLED"
  | "PRELUDE_ERROR"
  | "ENGINE_UNAVAILABLE"
  | "ENGINE_FAILURE"
  /** The request itself is invalid (e.g. limits out of range); nothing ran. */
  | "INVALID_REQUEST";

export interface GuestErrorInfo {
  readonly code: SandboxErrorCode;
  readonly message: string;
  /** The guest-side Error name (TypeError, McpToolError, …) where there was one. */
  readonly name?: string;
  readonly stack?: string;
  /** 1-based position in the guest's code for syntax errors (and runtime errors where known). */
  readonly line?: number;
  readonly column?: number;
  /** The limit that was hit, for *_LIMIT codes. */
  readonly limit?: keyof RunLimits;
  /**
   * The `code` property of the error the guest threw, where it had one: a host function's
   * McpvmError code (e.g. "MCP_TOOL_ERROR") or "MODULE_NOT_FOUND" from require.
   */
  readonly errorCode?: string;
}

export type RunResult =
  | { readonly ok: true; readonly value: unknown; readonly logs: readonly LogEntry[]; readonly stats: RunStats }
  | { readonly ok: false; readonly error: GuestErrorInfo; readonly logs: readonly LogEntry[]; readonly stats: RunStats };

export interface SandboxEngine {
  readonly kind: EngineKind;
  /** Never throws; every failure is a `{ ok: false }` result. Safe to call concurrently. */
  run(request: RunRequest): Promise<RunResult>;
  /** Releases wasm modules, worker threads or VMs. Further runs fail with ENGINE_UNAVAILABLE. */
  dispose(): Promise<void>;
}

/** How `auto` (or an explicit choice) was resolved, for `mcpvm doctor` and logs. */
export interface EngineSelection {
  readonly kind: EngineKind;
  readonly requested: EngineChoice;
  readonly reason: string;
  /** Why each engine that was not chosen could not be used. */
  readonly unavailable: Readonly<Partial<Record<EngineKind, string>>>;
}

export type SandboxError = McpvmError<SandboxErrorCode>;
