import { localRoots } from "./local-roots.js";
import type {
  Client,
  ClientCapabilities,
  CreateMessageRequest,
  CreateMessageResult,
  CreateMessageResultWithTools,
  ElicitRequest,
  ElicitResult,
  ListRootsResult,
  LoggingLevel,
} from "@modelcontextprotocol/client";
import type { ResolvedOrigin } from "./call-origin.js";

/** What a server→client request hook knows besides the request itself. */
export interface ServerRequestContext {
  readonly server: string;
  /** Aborts when the server cancels its request or the connection ends. */
  readonly signal: AbortSignal;
  /** The caller whose call this request serves (CallerOptions.origin), and how sure that is. */
  readonly origin: ResolvedOrigin;
  /** "legacy" (2025-11-25 and before: a server→client request) or "modern" (2026-07-28: an input_required round). */
  readonly era: "legacy" | "modern";
}

/**
 * Answers to the requests a server may send its client. A capability is declared to servers only
 * when its hook is installed; without a hook the SDK answers "Method not found".
 */
export interface ServerRequestHooks {
  /** elicitation/create (form and, when `elicitationModes` says so, URL mode). */
  readonly elicit?: (params: ElicitRequest["params"], ctx: ServerRequestContext) => Promise<ElicitResult>;
  /** Which elicitation modes `elicit` handles; default form only. */
  readonly elicitationModes?: { readonly form?: boolean; readonly url?: boolean };
  /** sampling/createMessage. */
  readonly sample?: (params: CreateMessageRequest["params"], ctx: ServerRequestContext) => Promise<CreateMessageResult | CreateMessageResultWithTools>;
  /** roots/list. */
  readonly listRoots?: (ctx: ServerRequestContext) => Promise<ListRootsResult>;
  /**
   * The roots can change (the gateway's clients send notifications/roots/list_changed): each new
   * connection of a server hands over its way to tell that server, and `roots.listChanged` is declared.
   */
  readonly rootsConnection?: (server: string, sendListChanged: () => Promise<void>) => void;
  /**
   * The log level the caller of a request (CallerOptions.origin) asked for, if any. A 2026-07-28
   * server has no logging/setLevel: it sends log messages only for a request whose `_meta` names a
   * level (SEP-2577), so every request to one carries this level (none: no key, no messages).
   */
  readonly logLevelOf?: (origin: unknown) => LoggingLevel | undefined;
}

/** The capabilities the hooks entitle the client to declare. */
export function clientCapabilities(hooks: ServerRequestHooks | undefined): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  if (hooks?.elicit !== undefined) {
    const modes = hooks.elicitationModes ?? { form: true };
    capabilities.elicitation = {
      ...(modes.form === false ? {} : { form: {} }),
      ...(modes.url === true ? { url: {} } : {}),
    };
  }
  if (hooks?.sample !== undefined) capabilities.sampling = {};
  if (hooks?.listRoots !== undefined) capabilities.roots = hooks.rootsConnection === undefined ? {} : { listChanged: true };
  return capabilities;
}

export interface ServerRequestDeps {
  readonly server: string;
  readonly origin: () => ResolvedOrigin;
  readonly era: () => "legacy" | "modern";
}

/** Registers a handler on `client` for each installed hook. */
export function installServerRequestHandlers(client: Client, hooks: ServerRequestHooks | undefined, deps: ServerRequestDeps): void {
  const context = (signal: AbortSignal): ServerRequestContext => ({ server: deps.server, signal, origin: deps.origin(), era: deps.era() });
  const elicit = hooks?.elicit;
  if (elicit !== undefined) client.setRequestHandler("elicitation/create", (request, ctx) => elicit(request.params, context(ctx.mcpReq.signal)));
  const sample = hooks?.sample;
  if (sample !== undefined) client.setRequestHandler("sampling/createMessage", (request, ctx) => sample(request.params, context(ctx.mcpReq.signal)));
  const listRoots = hooks?.listRoots;
  if (listRoots === undefined) return;
  client.setRequestHandler("roots/list", (_request, ctx) => listRoots(context(ctx.mcpReq.signal)));
  hooks?.rootsConnection?.(deps.server, () => client.sendRootsListChanged());
}

/**
 * The hooks for a server whose entry names its own roots: its roots/list is answered with those,
 * whatever the face offers (a run's folder, a gateway client's roots), and never changes.
 */
export function withOwnRoots(hooks: ServerRequestHooks | undefined, roots: readonly string[] | undefined): ServerRequestHooks | undefined {
  if (roots === undefined) return hooks;
  const { rootsConnection: _facesRoots, ...rest } = hooks ?? {};
  const own = localRoots(roots, "/");
  return { ...rest, listRoots: () => Promise.resolve(own) };
}
