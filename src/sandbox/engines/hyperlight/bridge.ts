import { z } from "zod";
import { LOAD_MODULE_FUNCTION, type HostErrorInfo } from "../../guest/native.js";
import { describeHostError } from "../../host/host-call.js";
import { logEntryBytes } from "../../host/output-budget.js";
import { RunModules } from "../../host/run-modules.js";
import type { HostModules, LogEntry } from "../../types.js";
import type { BridgeDispatcher } from "./vm.js";

/**
 * The host side of the one bridge function a Hyperlight guest can call. The guest's GuestNative
 * (callSync, log) sends a JSON request string through it; call replies are the shared HostReply
 * envelope as JSON text, and the dispatcher never rejects, so a host failure always reaches the
 * guest as an ordinary Error (name, message, code) it can catch.
 */
const RequestSchema = z.discriminatedUnion("op", [
  z.object({ op: z.literal("call"), module: z.string(), fn: z.string(), args: z.string(), listen: z.boolean().optional() }),
  z.object({ op: z.literal("log"), level: z.enum(["log", "info", "warn", "error", "debug"]), message: z.string() }),
]);

export interface RunBridgeOptions {
  readonly modules: HostModules;
  /** Aborted when the run ends for any reason. */
  readonly signal: AbortSignal;
  readonly deadline: number;
  /** Bytes of the output budget logs may use. */
  readonly outputBytes: number;
  /** The run's memory budget, which also bounds the host reply bytes its calls hold at once. */
  readonly memoryBytes?: number;
  /** The run's MCP tool-call budget (limits.toolCalls). */
  readonly toolCalls?: number;
  /** The guest's source (HostCallContext.scope.code). */
  readonly code?: string;
}

export interface RunBridge {
  readonly dispatch: BridgeDispatcher;
  readonly logs: LogEntry[];
  hostCalls(): number;
  droppedLogs(): number;
  logBytes(): number;
  /** Also takes raw `print()` output from the VM's print hook. */
  addLog(level: LogEntry["level"], message: string): void;
}

const OK_EMPTY = '{"ok":true}';

function failure(error: HostErrorInfo): string {
  return JSON.stringify({ ok: false, error });
}

export function createRunBridge(options: RunBridgeOptions): RunBridge {
  // Lazy modules are loaded on the guest's first require in a run, then served like static ones.
  const modules = new RunModules(options.modules, {
    ...(options.memoryBytes === undefined ? {} : { memoryBytes: options.memoryBytes }),
    ...(options.toolCalls === undefined ? {} : { toolCalls: options.toolCalls }),
    ...(options.code === undefined ? {} : { code: options.code }),
  });
  const logs: LogEntry[] = [];
  let calls = 0;
  let dropped = 0;
  let bytes = 0;

  // Metered like the quickjs engine: each entry's JSON framing, and once one line is dropped all later ones are.
  const addLog = (level: LogEntry["level"], message: string): void => {
    const size = logEntryBytes(level, message);
    if (dropped > 0 || bytes + size > options.outputBytes) {
      dropped += 1;
      return;
    }
    bytes += size;
    logs.push({ level, message });
  };

  // No live delivery: the VM is blocked in this call, so a call's events travel with its reply.
  const call = (module: string, fn: string, argsText: string, listen: boolean): Promise<string> => {
    if (fn !== LOAD_MODULE_FUNCTION) calls += 1;
    return modules.call({ module, fn, argsText, listen }, { signal: options.signal, deadline: options.deadline });
  };

  const handle = async (raw: string): Promise<string> => {
    const parsed = RequestSchema.safeParse(safeJson(raw));
    if (!parsed.success) return failure({ name: "TypeError", message: "malformed host request" });
    const request = parsed.data;
    if (request.op === "log") {
      addLog(request.level, request.message);
      return OK_EMPTY;
    }
    return call(request.module, request.fn, request.args, request.listen === true);
  };

  const dispatch: BridgeDispatcher = (raw) =>
    untilAborted(
      handle(raw).catch((error: unknown) => failure(describeHostError(error))),
      options.signal,
    );

  return { dispatch, logs, addLog, hostCalls: () => calls, droppedLogs: () => dropped, logBytes: () => bytes };
}

function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/**
 * Hands control back to the guest as soon as the run is aborted: the VM is blocked inside this
 * call, and only returning lets the hypervisor act on the kill that ended the run.
 */
function untilAborted(work: Promise<string>, signal: AbortSignal): Promise<string> {
  const aborted = failure({ name: "AbortError", message: "the run ended while this host call was in flight" });
  if (signal.aborted) return Promise.resolve(aborted);
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(aborted);
    signal.addEventListener("abort", onAbort, { once: true });
    void work.then((result) => {
      signal.removeEventListener("abort", onAbort);
      resolve(result);
    });
  });
}
