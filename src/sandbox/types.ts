import { McpvmError } from "../util/errors.js";

/**
 * The engine contract. Modelled on Cloudflare codemode's executor types: an engine never throws
 * from `run`; it returns a tagged result. QuickJS (on worker threads or in-thread) and Hyperlight implement it.
 */

export type EngineKind = "quickjs" | "quickjs-inline" | "hyperlight";
export type EngineChoice = EngineKind | "auto";

/** Every value `--engine` and config.json `engine` take. */
export const ENGINE_CHOICES: readonly EngineChoice[] = ["auto", "quickjs", "quickjs-inline", "hyperlight"];

export function isEngineChoice(value: unknown): value is EngineChoice {
  return typeof value === "string" && (ENGINE_CHOICES as readonly string[]).includes(value);
}

/** Per-run limits. `wallMs` is one budget for the whole run, host calls included. */
export interface RunLimits {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly memoryBytes: number;
  /** Result + captured logs, measured as UTF-8 JSON. */
  readonly outputBytes: number;
  /**
   * MCP tool calls one run may make (each `$batch` item counts). A runaway loop ends in a
   * TOOL_CALL_LIMIT error naming this budget instead of hammering a server; unset means
   * DEFAULT_TOOL_CALLS. Enforced by the host (RunModules), not the engine.
   */
  readonly toolCalls?: number;
}

/**
 * 1,000 calls: a loop over a few hundred items fits with room to spare (the 300-item loop
 * three times over), while a loop that never ends stops after about half a second of server work
 * (~0.5 ms per call) rather than at the 30 s wall limit (~60,000 calls). Raise it with
 * `mcpvm run --tool-calls <n>` or config.json `limits.toolCalls`.
 */
export const DEFAULT_TOOL_CALLS = 1000;

/** The limits an engine itself enforces (toolCalls is counted on the host side). */
export type EngineLimit = Exclude<keyof RunLimits, "toolCalls">;

export const DEFAULT_LIMITS: RunLimits = Object.freeze({
  cpuMs: 10_000,
  wallMs: 30_000,
  memoryBytes: 64 * 1024 * 1024,
  outputBytes: 1024 * 1024,
  toolCalls: DEFAULT_TOOL_CALLS,
});

/** What a host function learns about the call it is serving. */
export interface HostCallContext {
  readonly module: string;
  readonly fn: string;
  /** Aborted when the run ends (limit hit, cancel, completion) so in-flight host work can stop. */
  readonly signal: AbortSignal;
  /** Epoch ms at which the run's wall budget runs out; host calls must not outlive it. */
  readonly deadline: number;
  /**
   * The run's budget for host reply bytes held at once (its memoryBytes). A host function that
   * accumulates results (`$batch`) holds their size here and stops collecting when `hold` says no.
   * Absent outside a sandbox run.
   */
  readonly replies?: ReplyBudget;
  /** The run's MCP tool-call budget (limits.toolCalls), shared by all its calls. Absent outside a sandbox run. */
  readonly toolCalls?: CallBudget;
  /**
   * State that lives exactly as long as one run, shared by every host call of it (the MCP
   * information-flow guard keeps the run's data labels here). Absent outside a sandbox run.
   */
  readonly scope?: RunScope;
  /**
   * Present only when the guest passed an `onProgress` callback with this call (see
   * HostModuleLabel.progress): sends one event (a JSON value) to it. Events sent after the host
   * function has returned are dropped. On QuickJS the callback runs as each event arrives, while
   * the guest waits; on Hyperlight the events travel with the reply and the callback runs for each,
   * in order, just before the call returns.
   */
  readonly notify?: (event: unknown) => void;
}

/** See HostCallContext.toolCalls and RunCallBudget (src/sandbox/host/call-budget.ts). */
export interface CallBudget {
  readonly limit: number;
  readonly used: number;
  /** Takes `count` calls; false (taking nothing) when that would go over the limit. */
  take(count: number): boolean;
}

/** One run's host-side scratch space and the script it runs. */
export interface RunScope {
  /** The guest's own source text (what the person or model wrote), not what host calls returned. */
  readonly code: string;
  /** The value under `key`, created on first use; gone when the run ends. */
  get<T>(key: symbol, create: () => T): T;
}

/** A fresh RunScope for one run. */
export function createRunScope(code: string): RunScope {
  const values = new Map<symbol, unknown>();
  return {
    code,
    get<T>(key: symbol, create: () => T): T {
      if (!values.has(key)) values.set(key, create());
      return values.get(key) as T;
    },
  };
}

/** See HostCallContext.replies and HostReplyBudget (src/sandbox/host/reply-budget.ts). */
export interface ReplyBudget {
  readonly limitBytes: number;
  /** Holds `bytes`; false (holding nothing) when that would go over the budget. */
  hold(bytes: number): boolean;
  release(bytes: number): void;
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
  /** How guest error messages name the module and its functions; defaults to `host:<name>` and "function". */
  readonly label?: HostModuleLabel;
  /**
   * Set on a module the guest may name but cannot load (a disabled MCP server, the modules of a
   * plugin that is off or failed to load; see unavailableHostModule): the guest's `require` throws
   * this at once, without a host call, and `load` rejects with the same.
   */
  readonly unavailable?: ModuleUnavailability;
}

/**
 * Why a module cannot load. `message` is host text shown to guest code (the guest prefixes the
 * module name): it must name the fix and must never contain guest-supplied text. `code` becomes the
 * thrown error's `code` (exit codes follow it).
 */
export interface ModuleUnavailability {
  readonly message: string;
  readonly code: string;
}

/**
 * How the guest names a module in its own error messages, e.g. `server "memory" has no tool "x"`
 * instead of `host:mcp-memory has no function "x"`.
 */
export interface HostModuleLabel {
  /** e.g. `server "memory"`. */
  readonly title: string;
  /** What one of its functions is called, e.g. "tool". */
  readonly member: string;
  /**
   * Functions whose first argument names another function of the module (`$batch("tool", …)`):
   * the guest checks that name itself before the call, so an unknown one is reported like any
   * other missing function and the host never has to echo it.
   */
  readonly byName?: readonly string[];
  /**
   * Every function of the module takes a trailing `{ onProgress }` option (in its last argument;
   * the option is removed before the arguments cross): the callback runs in the guest with each
   * event the host function passes to HostCallContext.notify while the call is in flight.
   */
  readonly progress?: boolean;
}

/**
 * module name (without "host:") -> module. A key ending in `*` may only hold an unavailable module:
 * it stands for every module name with that prefix (module names cannot contain `*`), for plugins
 * whose module names are only known once they load.
 */
export type HostModules = Readonly<Record<string, HostModule | LazyHostModule>>;

export function isLazyHostModule(module: HostModule | LazyHostModule): module is LazyHostModule {
  return (module as LazyHostModule).lazy === true && typeof (module as LazyHostModule).load === "function";
}

/** The unavailability of a module that can never load, or undefined for every other module. */
export function moduleUnavailability(module: HostModule | LazyHostModule): ModuleUnavailability | undefined {
  if (!isLazyHostModule(module)) return undefined;
  const unavailable = module.unavailable;
  return unavailable !== undefined && typeof unavailable.message === "string" && typeof unavailable.code === "string" ? unavailable : undefined;
}

/** The error an unavailable module's `load` rejects with. */
export class ModuleUnavailableError extends McpvmError {}

/**
 * The same modules with every unavailability message passed through `reword` (e.g. the secret
 * redactor: these messages are host text the guest reads).
 */
export function rewordUnavailable(modules: HostModules, reword: (text: string) => string): Record<string, HostModule | LazyHostModule> {
  const out: Record<string, HostModule | LazyHostModule> = {};
  for (const [name, module] of Object.entries(modules)) {
    const unavailable = moduleUnavailability(module);
    out[name] = unavailable === undefined ? module : unavailableHostModule({ message: reword(unavailable.message), code: unavailable.code });
  }
  return out;
}

/** A module that cannot load, saying why (see LazyHostModule.unavailable). */
export function unavailableHostModule(unavailable: ModuleUnavailability): LazyHostModule {
  return {
    lazy: true,
    unavailable,
    load: () => Promise.reject(new ModuleUnavailableError(unavailable.code, unavailable.message)),
  };
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
  /**
   * The guest's `tools` global: key -> host module. `tools.<key>.<fn>(args, options?)` calls `fn`
   * of that module like `__mcpvm.callAsync`; see guest/guest-tools.ts. Installed by the bootstrap from
   * code compiled into the sandbox ahead where the engine can, so a run pays for what it uses of it.
   */
  readonly toolsGlobal?: Readonly<Record<string, string>>;
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
  /**
   * Shared mode: the guest computed this long (CPU ms, counted in `cpuMs`) with no host call and no log,
   * then ran again from the start on a worker thread of its own, where QuickJS's synchronous build
   * computes about twice as fast (quickjs-shared-engine.ts). Absent when the run was not moved.
   */
  readonly movedAfterCpuMs?: number;
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
  /** The script's file name (RunRequest.filename), for syntax errors. */
  readonly file?: string;
  /** For syntax errors: the offending line and a caret under the column ("  3 | a +* b\n    |    ^"). */
  readonly snippet?: string;
  /** The limit that was hit, for *_LIMIT codes. */
  readonly limit?: keyof RunLimits;
  /**
   * The `code` property of the error the guest threw, where it had one: a host function's
   * McpvmError code (e.g. "MCP_TOOL_ERROR") or "MODULE_NOT_FOUND" from require.
   */
  readonly errorCode?: string;
}

export type RunResult =
  | {
      readonly ok: true;
      readonly value: unknown;
      readonly logs: readonly LogEntry[];
      readonly stats: RunStats;
      /**
       * What the guest changed or left out to return its result as data, one sentence each, naming
       * where (`result.items[2] was a Map: returned as an object of its entries`); absent when nothing was.
       */
      readonly notes?: readonly string[];
    }
  | { readonly ok: false; readonly error: GuestErrorInfo; readonly logs: readonly LogEntry[]; readonly stats: RunStats };

export interface SandboxEngine {
  readonly kind: EngineKind;
  /**
   * A synchronous host call's progress events reach the guest's listener while the guest still waits
   * inside the call (the sync build blocking a thread). Otherwise they are delivered with the reply,
   * since a suspended guest cannot run code; an async call's events are live on every QuickJS engine.
   */
  readonly liveSyncProgress?: boolean;
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
