import { setMaxListeners } from "node:events";
import type { CallToolResult, Progress } from "@modelcontextprotocol/client";
import type { HostCallContext, HostFunction, HostModule, HostModules } from "../../sandbox/types.js";
import { mcpModuleTable } from "./module-table.js";
import { isMcpvmError } from "../../util/errors.js";
import type { McpService } from "./service.js";
import { confirmModeOf } from "../config/index.js";
import { callRefusal, needsConfirmation, refusedCallMessage, type ConfirmCall } from "./confirm.js";
import { McpCallError } from "./errors.js";
import { describeHeld, type HeldTool } from "./trust.js";
import { sanitizeToolName } from "../sanitise/index.js";
import { closestMatches } from "../../util/suggest.js";
// Guest lengths and counts in host errors: a large one could be masked as a digits-only secret.
import { guestNumberText } from "../../logging/redact.js";
import type { CatalogTool, ServerCatalog } from "./catalog.js";
import { toolDefinitionHash } from "../pins/index.js";
import { encodeForGuest } from "../../sandbox/guest/codec.js";
import { overBudgetText, ReplyOverBudgetError } from "../../sandbox/host/reply-budget.js";
import { DEFAULT_FLOW_POLICY, guardFlow, runFlows, type AskFlow, type FlowGuardOptions, type FlowPolicy } from "../flow/index.js";
import { DEFAULT_SERVER_LIMITS } from "../types.js";
import { protocolFunctions } from "./protocol-module.js";
import { callBudgetText, ToolCallLimitError } from "../../sandbox/host/call-budget.js";

export interface McpModuleOptions {
  /** Asks the person before calls that need it; without it no call is confirmed (gateway, scripts with --yes). */
  readonly confirmCall?: ConfirmCall;
  /** Applied to every error message the guest sees (secrets are already masked by the service). */
  readonly scrubError?: (text: string) => string;
  readonly redactValue?: <T>(value: T) => T;
  /** config.json `flows` (read at each call, so a reload applies); the default policy when absent. */
  readonly flowPolicy?: () => FlowPolicy;
  /** Who can be asked about a flow right now; undefined when nobody can (then the policy decides). */
  readonly askFlow?: () => AskFlow | undefined;
  /** The caller the current run's calls are made for (CallerOptions.origin; a gateway client request), read per call. */
  readonly origin?: () => unknown;
}

/**
 * Kept back from the run's wall budget whenever guest code waits for an MCP server (start or call):
 * a hung server then ends in an McpTimeoutError that names it and that the guest can still catch,
 * instead of the run's anonymous WALL_LIMIT firing at the same instant.
 */
export const WALL_RESERVE_MS = 100;

/**
 * A `$batch`'s concurrency when the server sets no `maxConcurrentCalls`: servers answer calls
 * concurrently (JSON-RPC ids), so 32 keeps a slow tool's batch near one call's latency per 32 items.
 */
export const DEFAULT_BATCH_CONCURRENCY = 32;
export const MAX_BATCH_ITEMS = 1000;

/**
 * Lazy `host:mcp-<name>` modules for every enabled server: nothing starts until the guest requires
 * one. A disabled server's module cannot load, and its require says how to enable it.
 */
export function mcpHostModules(service: McpService, options: McpModuleOptions = {}): HostModules {
  const servers = Object.fromEntries(service.serverNames().map((name) => [name, { enabled: service.entry(name).enabled }]));
  return mcpModuleTable(servers, (server, context) => loadMcpModule(service, server, context, options), options.scrubError);
}

/** The module of one enabled server, built from its current catalog (connecting and listing it first if need be). */
export async function loadMcpModule(service: McpService, server: string, context: { readonly signal: AbortSignal; readonly deadline: number }, options: McpModuleOptions = {}): Promise<HostModule> {
  return buildModule(service, await service.catalog(server, withinBudget(context)), options);
}

function buildModule(service: McpService, catalog: ServerCatalog, options: McpModuleOptions): HostModule {
  const functions: Record<string, HostFunction> = {};
  for (const tool of catalog.tools) {
    functions[tool.jsName] = (args, context) => guarded(options, () => callTool(service, catalog, tool.jsName, args[0] ?? {}, context, options));
  }
  // A held tool is left out of the types and the model's listing, but code written against an earlier
  // listing that calls it gets McpToolHeldError saying how to review it, not "not a function".
  for (const held of catalog.held) {
    const jsName = sanitizeToolName(held.name);
    if (!Object.hasOwn(functions, jsName)) functions[jsName] = () => guarded(options, () => Promise.reject(heldError(catalog, held)));
  }
  functions.$batch = (args, context) => guarded(options, () => batch(service, catalog, args, context, options));
  const maxBytes = service.entry(catalog.server).maxResponseBytes ?? DEFAULT_SERVER_LIMITS.maxResponseBytes;
  // A resource URI or a prompt's arguments reach the server as a tool's arguments do: guarded the same way.
  const guardRequest = async (context: HostCallContext, request: string, args: unknown): Promise<void> => {
    const flows = runFlows(context);
    if (flows !== undefined) await guardFlow(flows, { server: catalog.server, tool: request, annotations: undefined, args }, flowOptions(service, options));
  };
  const takeCall = (context: HostCallContext): void => takeToolCalls(context, 1, catalog.server, context.fn);
  const protocol = protocolFunctions(service, catalog, { budget: withinBudget, maxBytes, guardFlow: guardRequest, takeCall, ...(options.redactValue === undefined ? {} : { redactValue: options.redactValue }) });
  for (const [name, fn] of Object.entries(protocol)) functions[name] = (args, context) => guarded(options, () => fn(args, context) as Promise<unknown>);
  return functions;
}

/**
 * A tool name the server does not have. The guest checks names itself before calling (with
 * suggestions), so this is reached only when a tool went away during the run, or the guest worked
 * around its own check. The name is not quoted: it may be guest text, and host error text passes
 * the secret redactor, whose masking of an echoed guest string would tell the guest which strings
 * are secrets. Suggestions come from the server's own tool names only.
 */
function unknownTool(catalog: ServerCatalog, name: string): McpCallError {
  const known = catalog.tools.map((t) => t.jsName);
  const suggestion = closestMatches(name, known);
  const hint = suggestion.length > 0 ? `did you mean ${suggestion.join(" or ")}?` : `its tools: ${known.join(", ") || "none"}`;
  return new McpCallError("MCP_UNKNOWN_TOOL", `server "${catalog.server}" has no tool by the ${guestNumberText(name.length)}-character name given (${hint}).`, { data: { server: catalog.server, tool: name } });
}

function heldError(catalog: ServerCatalog, held: HeldTool): McpCallError {
  return new McpCallError("MCP_TOOL_HELD", describeHeld(catalog.server, held), { data: { server: catalog.server, tool: held.name, reason: held.reason } });
}

/**
 * One tool call on a person's behalf (`mcpvm mcp call`), through every check a guest call passes:
 * the current catalog (held and unknown tools), argument validation, per-call confirmation, the
 * approval re-check and the rate limit. Returns the CallToolResult as the server sent it (an
 * `isError` result included, not thrown), masked like a guest result.
 */
export async function callToolOnce(
  service: McpService,
  server: string,
  name: string,
  args: unknown,
  budget: { readonly signal: AbortSignal; readonly deadline: number },
  options: McpModuleOptions,
): Promise<CallToolResult> {
  const catalog = await service.catalog(server, budget);
  const context: HostCallContext = { module: catalog.module, fn: name, signal: budget.signal, deadline: budget.deadline + WALL_RESERVE_MS };
  return (await callTool(service, catalog, name, args, context, options, "raw")) as CallToolResult;
}

async function callTool(
  service: McpService,
  loadedCatalog: ServerCatalog,
  name: string,
  args: unknown,
  context: HostCallContext,
  options: McpModuleOptions,
  result: "guest-value" | "raw" = "guest-value",
): Promise<unknown> {
  // The module was built when the run first required it; a definition that changed since (list_changed
  // mid-script) must be held from the very next call, so every call checks the current catalog (cached;
  // read without waiting when it is built, as on every call after the first).
  const catalog = service.currentCatalog(loadedCatalog.server) ?? (await service.catalog(loadedCatalog.server, withinBudget(context)));
  const tool = catalog.find(name);
  if (tool === undefined) {
    const held = catalog.heldTool(name);
    if (held !== undefined) throw heldError(catalog, held);
    throw unknownTool(catalog, name);
  }
  tool.validator.assertValid(catalog.server, tool.originalName, args);
  // Before asking anyone to confirm: a call past the budget would be refused anyway.
  takeToolCalls(context, 1, catalog.server, tool.originalName);
  // Data other servers returned earlier in this run, on its way to a tool that may write or send it.
  const flows = runFlows(context);
  if (flows !== undefined) {
    await guardFlow(
      flows,
      { server: catalog.server, tool: tool.originalName, annotations: tool.definition.annotations, args, signal: context.signal },
      flowOptions(service, options),
    );
  }
  const policy = confirmModeOf(service.entry(catalog.server));
  if (policy !== "never" && options.confirmCall !== undefined && needsConfirmation(policy, tool.definition.annotations)) {
    const answer = await options.confirmCall({
      server: catalog.server,
      tool: tool.originalName,
      jsName: tool.jsName,
      args,
      annotations: tool.definition.annotations,
      policy,
      signal: context.signal,
    });
    // The run can end while the person reads (its wall budget runs on): a yes given after that
    // allows nothing, and the audit log must not record a call "allowed" that was never made.
    const allowed = context.signal.aborted && callRefusal(answer) === undefined ? "cancelled" : answer;
    const refusal = callRefusal(allowed);
    await service.recordAudit({ event: "mcp.call.confirm", subject: catalog.server, decision: refusal ?? "allowed", details: { tool: tool.originalName, policy, ...(allowed === "yes-flag" ? { by: "--yes" } : {}) } });
    if (refusal !== undefined) {
      throw new McpCallError("MCP_CALL_DECLINED", refusedCallMessage(catalog.server, tool.originalName, refusal), {
        data: { server: catalog.server, tool: tool.originalName, reason: refusal },
      });
    }
  }
  // The questions above can stay open for minutes; a definition that changed meanwhile (list_changed
  // while the person read the prompt) is held now, not sent with the answer given for the old one.
  const current = service.currentCatalog(catalog.server);
  if (current !== catalog) await requireUnchanged(service, catalog, tool, name, context, current);
  const origin = options.origin?.();
  // No object spread on this path of every call (V8 takes a slow path for it); the origin is added only when there is one.
  const caller: { signal: AbortSignal; deadline: number; origin?: unknown } = withinBudget(context);
  if (origin !== undefined) caller.origin = origin;
  // The approval re-check (a stat of the approvals file) on every call; awaited only when it must read the file or wait for a rate limit.
  if (!service.callSlotFree(catalog.server)) await service.acquireCallSlot(catalog.server, caller);
  const progress = toolProgress(context, options, (message) => flows?.index.label(catalog.server, message));
  let value: unknown;
  try {
    value =
      result === "raw"
        ? await service.clients.callToolRaw(catalog.server, tool.originalName, args as Record<string, unknown>, caller, { keepErrorResults: true, ...progress })
        : await service.clients.callTool(catalog.server, tool.originalName, args as Record<string, unknown>, caller, progress);
  } catch (error) {
    // A tool's error text is the server's words too: labelled like a result.
    if (error instanceof Error) flows?.index.label(catalog.server, error.message);
    throw error;
  }
  const returned = options.redactValue ? options.redactValue(value) : value;
  // Labelled as the guest receives it (secrets already masked).
  flows?.index.label(catalog.server, returned);
  return returned;
}

/** The flow policy, who can be asked and where decisions are recorded, as they are now (a reload applies). */
function flowOptions(service: McpService, options: McpModuleOptions): FlowGuardOptions {
  return { policy: options.flowPolicy?.() ?? DEFAULT_FLOW_POLICY, ask: options.askFlow?.(), record: (event) => service.recordAudit(event) };
}

/**
 * The guest's `onProgress` for this call, when it passed one (HostCallContext.notify): only then is a
 * progressToken sent, so a server that reports progress does so for this call. Each notification
 * (already capped at maxNotificationsPerSecond by the client manager) reaches the guest as
 * `{ progress, total?, message? }`, the message masked and labelled (flow guard) like a result.
 */
function toolProgress(context: HostCallContext, options: McpModuleOptions, label: (message: string) => void): { onProgress?: (progress: Progress) => void } {
  const notify = context.notify;
  if (notify === undefined) return {};
  return {
    onProgress: (progress) => {
      const message = typeof progress.message === "string" ? (options.redactValue?.(progress.message) ?? progress.message) : undefined;
      // The server's words reach the guest here too: labelled like its result, before the guest holds them.
      if (message !== undefined) label(message);
      notify({
        progress: progress.progress,
        ...(typeof progress.total === "number" ? { total: progress.total } : {}),
        ...(message === undefined ? {} : { message }),
      });
    },
  };
}

/** Throws MCP_TOOL_HELD (or MCP_UNKNOWN_TOOL) when the tool's definition is no longer the one checked before asking. */
async function requireUnchanged(service: McpService, checked: ServerCatalog, tool: CatalogTool, name: string, context: HostCallContext, settled?: ServerCatalog): Promise<void> {
  const current = settled ?? (await service.catalog(checked.server, withinBudget(context)));
  if (current === checked) return;
  const now = current.find(name);
  if (now !== undefined && (now.definition === tool.definition || toolDefinitionHash(now.definition) === toolDefinitionHash(tool.definition))) return;
  const held = current.heldTool(name);
  if (held !== undefined) throw heldError(current, held);
  throw unknownTool(current, name);
}

/**
 * `$batch("tool", [args, …], { concurrency })`: several calls of one server at once, on every
 * engine (it is one host call). Results come back in order, each `{ ok, value }` or
 * `{ ok: false, error: { name, message } }`; one failure does not stop the others.
 */
async function batch(service: McpService, catalog: ServerCatalog, args: readonly unknown[], context: HostCallContext, options: McpModuleOptions): Promise<unknown[]> {
  const [name, list, settings] = args;
  if (typeof name !== "string" || !Array.isArray(list)) {
    throw new McpCallError("MCP_BATCH_INVALID", `$batch(tool, argsList, options?) needs a tool name and an array of arguments, e.g. $batch("${catalog.tools[0]?.jsName ?? "tool"}", [{…}, {…}]).`);
  }
  if (list.length > MAX_BATCH_ITEMS) throw new McpCallError("MCP_BATCH_INVALID", `$batch takes at most ${MAX_BATCH_ITEMS} calls at once (got ${guestNumberText(list.length)}).`);
  // One unknown name fails the whole batch at once, rather than once per item.
  if (catalog.find(name) === undefined && catalog.heldTool(name) === undefined) throw unknownTool(catalog, name);
  // The whole batch is taken from the run's tool-call budget up front: it runs whole or not at all.
  takeToolCalls(context, list.length, catalog.server, name);
  const concurrency = batchConcurrency(settings, service.entry(catalog.server).maxConcurrentCalls);
  const results: unknown[] = new Array(list.length);
  // The results collected so far are held against the run's reply budget (its memoryBytes): past it
  // the rest are cancelled, so 1,000 results of 1 MB never pile up in the host.
  const stop = new AbortController();
  const signal = AbortSignal.any([context.signal, stop.signal]);
  // Every concurrent call listens on it (client request, rate limiter, deadline).
  setMaxListeners(concurrency * 8, signal);
  const { toolCalls: _taken, ...unbudgeted } = context;
  const calls: HostCallContext = { ...unbudgeted, signal };
  let held = 0;
  let collected = 0;
  let next = 0;
  const worker = async () => {
    while (next < list.length && !calls.signal.aborted) {
      const index = next++;
      let result: unknown;
      try {
        // A $batch's onProgress hears every call's progress, each event naming its item (index in argsList).
        const notify = calls.notify;
        const item: HostCallContext = notify === undefined ? calls : { ...calls, notify: (event) => notify({ item: index, ...(event as object) }) };
        result = { ok: true, value: await callTool(service, catalog, name, list[index], item, options) };
      } catch (error) {
        if (stop.signal.aborted) return;
        result = { ok: false, error: { name: errorName(error), message: scrub(options, error) } };
      }
      const size = encodedSize(result);
      if (context.replies !== undefined && !context.replies.hold(size)) {
        stop.abort();
        return;
      }
      held += size;
      collected++;
      results[index] = result;
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, worker));
  } finally {
    context.replies?.release(held);
  }
  if (stop.signal.aborted && context.replies !== undefined) {
    throw new ReplyOverBudgetError(
      "HOST_REPLY_OVER_BUDGET",
      `$batch stopped after ${guestNumberText(collected)} of ${guestNumberText(list.length)} results: together they would hold more than ${overBudgetText(context.replies.limitBytes)}; the remaining calls were cancelled.`,
      { data: { server: catalog.server, collected, requested: list.length, limitBytes: context.replies.limitBytes } },
    );
  }
  return results;
}

/**
 * The calls a `$batch` runs at once: what the guest asked for, within the server's
 * `maxConcurrentCalls` (which is also the default when the guest asks for nothing).
 */
export function batchConcurrency(settings: unknown, serverLimit: number | undefined): number {
  const limit = serverLimit ?? DEFAULT_BATCH_CONCURRENCY;
  const requested = (settings as { concurrency?: unknown } | undefined)?.concurrency;
  return typeof requested === "number" && Number.isInteger(requested) && requested > 0 ? Math.min(requested, limit) : limit;
}

/** What a result will cost once encoded for the guest (a value that cannot be encoded fails later, when it is). */
function encodedSize(value: unknown): number {
  try {
    return encodeForGuest(value)?.length ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Counts calls against the run's tool-call budget (limits.toolCalls); past it the call fails before
 * reaching the server with TOOL_CALL_LIMIT (exit code 4 from `mcpvm run`). Outside a run (`mcp call`) nothing is counted.
 */
function takeToolCalls(context: HostCallContext, count: number, server: string, tool: string): void {
  const budget = context.toolCalls;
  if (budget === undefined || budget.take(count)) return;
  const asked = count === 1 ? "this call" : `a $batch of ${guestNumberText(count)} calls`;
  throw new ToolCallLimitError(
    "TOOL_CALL_LIMIT",
    `MCP call to ${server}.${tool} refused: ${asked} would go over ${callBudgetText(budget.limit)} (${budget.used} used so far in this run).`,
    { data: { server, tool, limit: budget.limit, used: budget.used, requested: count } },
  );
}

function withinBudget(context: { readonly signal: AbortSignal; readonly deadline: number }): { signal: AbortSignal; deadline: number } {
  return { signal: context.signal, deadline: context.deadline - WALL_RESERVE_MS };
}

async function guarded<T>(options: McpModuleOptions, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof Error) error.message = scrub(options, error);
    throw error;
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : "Error";
}

function scrub(options: McpModuleOptions, error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return options.scrubError ? options.scrubError(text) : isMcpvmError(error) ? text : text;
}
