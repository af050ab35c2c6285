import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { CodecError, decodeFromGuest, encodeForGuest } from "../guest/codec.js";
import { LOAD_MODULE_FUNCTION, RAW_STRING_REPLY, RAW_VALUE_REPLY, type HostErrorInfo } from "../guest/native.js";
import { overBudgetText } from "./reply-budget.js";
import { isLazyHostModule, type HostCallContext, type HostFunction, type HostModule, type HostModules } from "../types.js";

/** A guest's request to run one host function; `argsText` is guest-produced JSON (untrusted). */
export interface HostCallRequest {
  readonly module: string;
  readonly fn: string;
  readonly argsText: string;
  /** The guest passed an `onProgress` callback: the host function gets HostCallContext.notify. */
  readonly listen?: boolean;
}

/**
 * How an engine delivers a call's events (HostCallContext.notify): `live` sends each one to the
 * guest as it happens (JSON text); without it they are collected and sent with the reply.
 */
export interface HostCallEvents {
  readonly live?: (eventText: string) => void;
}

/**
 * Events a reply carries at most (an engine without live delivery); later ones are dropped. The
 * client manager already caps an upstream's progress at maxNotificationsPerSecond, so this bounds
 * only a long call of a chatty server.
 */
export const MAX_BUFFERED_EVENTS = 1000;

/**
 * Runs one host function for the guest and returns the reply envelope as JSON text (see
 * HostReply). Engine-neutral and never throws: every failure becomes an error reply, which the
 * guest bootstrap turns into a guest Error keeping `name` and `code` — never the host's stack,
 * cause or other properties.
 *
 * `modules` must already hold the requested module resolved (a LazyHostModule entry counts as
 * missing; RunModules loads lazy modules first). The reserved LOAD_MODULE_FUNCTION of a resolved
 * module replies with its function names.
 */
export function dispatchHostCall(modules: HostModules, request: HostCallRequest, context: HostCallContext, events: HostCallEvents = {}): Promise<string> {
  return dispatchToModule(resolvedModule(modules, request.module), request, context, events);
}

/** dispatchHostCall with the requested module already resolved (undefined: the run has none by that name). */
export async function dispatchToModule(module: HostModule | undefined, request: HostCallRequest, context: HostCallContext, events: HostCallEvents = {}): Promise<string> {
  if (module !== undefined && request.fn === LOAD_MODULE_FUNCTION) {
    return `{"ok":true,"value":${JSON.stringify(Object.keys(module))}}`;
  }
  const implementation = module === undefined ? undefined : lookup(module, request.fn);
  if (implementation === undefined) {
    // The guest checks names before it calls (and says which, with suggestions); getting here means
    // a guest went around that check. The names it sent are not quoted back: host error text passes
    // the secret redactor, and masked echoes of guest text would be an oracle for the secrets.
    return errorReply({
      name: "TypeError",
      message: module === undefined ? "No such host module in this run" : "The host module has no function by that name",
      code: "HOST_FUNCTION_NOT_FOUND",
    });
  }

  let args: unknown;
  try {
    args = decodeFromGuest(request.argsText);
  } catch (error) {
    return errorReply(describeHostError(error));
  }
  if (!Array.isArray(args)) {
    return errorReply({ name: "TypeError", message: "Host call arguments must be an array", code: "INVALID_ARGUMENTS" });
  }
  if (context.signal.aborted) {
    return errorReply({ name: "AbortError", message: "The run has ended", code: "RUN_ENDED" });
  }

  const channel = request.listen === true ? eventChannel(events) : undefined;
  let value: unknown;
  try {
    value = await implementation(args, channel === undefined ? context : { ...context, notify: channel.notify });
  } catch (error) {
    return withEvents(errorReply(describeHostError(error)), channel?.close());
  } finally {
    channel?.close();
  }
  const buffered = channel?.close();

  if (typeof value === "string" && buffered === undefined && rawSafe(value)) {
    // The commonest reply (an MCP tool's text) crosses unescaped and is read in the guest by one slice.
    return overBudget(context, request, value.length) ?? RAW_STRING_REPLY + value;
  }
  try {
    const text = encodeForGuest(value);
    if (text === undefined) return buffered === undefined ? RAW_VALUE_REPLY : withEvents('{"ok":true}', buffered);
    const refused = overBudget(context, request, text.length);
    if (refused !== undefined) return refused;
    // Without events the value goes alone: the guest parses no envelope around it.
    return buffered === undefined ? RAW_VALUE_REPLY + text : withEvents(`{"ok":true,"value":${text}}`, buffered);
  } catch (error) {
    return errorReply({
      name: "TypeError",
      message: `host:${request.module}.${request.fn} returned a value that cannot enter the sandbox (${errorMessage(error)})`,
      code: error instanceof CodecError ? error.code : "VALUE_NOT_SERIALIZABLE",
    });
  }
}

/**
 * Whether a string may cross as a raw reply: engines carry reply text as UTF-8 C strings, where a
 * NUL would end it and a lone surrogate would become U+FFFD. Such a string goes as JSON (escaped).
 * (In a /u pattern, \p{Cs} matches only a surrogate without its pair.)
 */
const LONE_SURROGATE = /\p{Cs}/u;
const rawSafe = (text: string): boolean => !text.includes("\u0000") && !LONE_SURROGATE.test(text);

/**
 * The error reply for a reply of `length` that does not fit, else undefined. Checked against what other
 * calls of the run hold right now (a $batch collecting): together they may not exceed the run's memory
 * budget, which the guest could not take in anyway.
 */
function overBudget(context: HostCallContext, request: HostCallRequest, length: number): string | undefined {
  const replies = context.replies;
  if (replies === undefined) return undefined;
  if (replies.hold(length)) {
    replies.release(length);
    return undefined;
  }
  return errorReply({
    name: "RangeError",
    message: `host:${request.module}.${request.fn} returned ${length} bytes, more than is left of ${overBudgetText(replies.limitBytes)}`,
    code: "HOST_REPLY_OVER_BUDGET",
  });
}

/** What of a host error the guest may see: its name, message and code, nothing else. */
export function describeHostError(error: unknown): HostErrorInfo {
  if (isMcpvmError(error)) return { name: error.name, message: error.message, code: error.code };
  if (error instanceof Error) {
    const code = (error as Error & { code?: unknown }).code;
    return {
      name: error.name,
      message: error.message,
      code: typeof code === "string" ? code : "HOST_FUNCTION_ERROR",
    };
  }
  return { name: "Error", message: errorMessage(error), code: "HOST_FUNCTION_ERROR" };
}

function resolvedModule(modules: HostModules, name: string): HostModule | undefined {
  if (!Object.hasOwn(modules, name)) return undefined;
  const entry = modules[name];
  return entry === undefined || isLazyHostModule(entry) ? undefined : entry;
}

function lookup(module: HostModule, fn: string): HostFunction | undefined {
  if (!Object.hasOwn(module, fn)) return undefined;
  const implementation = module[fn];
  return typeof implementation === "function" ? implementation : undefined;
}

interface EventChannel {
  readonly notify: (event: unknown) => void;
  /** Stops the channel (later events are dropped) and returns the events collected for the reply, if any. */
  close(): string | undefined;
}

/** HostCallContext.notify for one call: live to the guest where the engine can, else collected for the reply. */
function eventChannel(events: HostCallEvents): EventChannel {
  let open = true;
  const collected: string[] = [];
  return {
    notify(event: unknown): void {
      if (!open) return;
      let text: string | undefined;
      try {
        text = encodeForGuest(event);
      } catch {
        return;
      }
      if (text === undefined) return;
      if (events.live !== undefined) events.live(text);
      else if (collected.length < MAX_BUFFERED_EVENTS) collected.push(text);
    },
    close(): string | undefined {
      open = false;
      return collected.length === 0 ? undefined : `[${collected.join(",")}]`;
    },
  };
}

/** A reply envelope with the collected events added (see HostReply.events). */
function withEvents(reply: string, events: string | undefined): string {
  return events === undefined ? reply : `${reply.slice(0, -1)},"events":${events}}`;
}

function errorReply(error: HostErrorInfo): string {
  return JSON.stringify({ ok: false, error: { name: String(error.name), message: String(error.message), code: error.code } });
}
