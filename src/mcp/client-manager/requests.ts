import type {
  Client,
  CompleteRequest,
  CompleteResult,
  EmptyResult,
  GetPromptRequest,
  GetPromptResult,
  ListPromptsRequest,
  ListPromptsResult,
  ListResourcesRequest,
  ListResourcesResult,
  ListResourceTemplatesRequest,
  ListResourceTemplatesResult,
  LoggingLevel,
  ReadResourceRequest,
  ReadResourceResult,
  RequestOptions,
  ServerCapabilities,
  SubscribeRequest,
  UnsubscribeRequest,
} from "@modelcontextprotocol/client";

/**
 * Every client→server request besides tools/call and tools/list, typed by method. The list verbs
 * walk all pages when no cursor is given (the SDK's aggregate path, capped by maxToolPages) and
 * return one page when a cursor is given.
 */
export interface ServerRequestMap {
  "resources/list": { params: ListResourcesRequest["params"]; result: ListResourcesResult };
  "resources/templates/list": { params: ListResourceTemplatesRequest["params"]; result: ListResourceTemplatesResult };
  "resources/read": { params: ReadResourceRequest["params"]; result: ReadResourceResult };
  "resources/subscribe": { params: SubscribeRequest["params"]; result: EmptyResult };
  "resources/unsubscribe": { params: UnsubscribeRequest["params"]; result: EmptyResult };
  "prompts/list": { params: ListPromptsRequest["params"]; result: ListPromptsResult };
  "prompts/get": { params: GetPromptRequest["params"]; result: GetPromptResult };
  "completion/complete": { params: CompleteRequest["params"]; result: CompleteResult };
  "logging/setLevel": { params: { level: LoggingLevel }; result: EmptyResult };
}

export type ServerRequestMethod = keyof ServerRequestMap;
export type ServerRequestParams<M extends ServerRequestMethod> = ServerRequestMap[M]["params"];
export type ServerRequestResult<M extends ServerRequestMethod> = ServerRequestMap[M]["result"];

export const SERVER_REQUEST_METHODS: readonly ServerRequestMethod[] = [
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "resources/subscribe",
  "resources/unsubscribe",
  "prompts/list",
  "prompts/get",
  "completion/complete",
  "logging/setLevel",
];

/** The list verbs: a server without the capability has an empty list rather than an error. */
const EMPTY_LISTS: Partial<{ [M in ServerRequestMethod]: () => ServerRequestResult<M> }> = {
  "resources/list": () => ({ resources: [] }),
  "resources/templates/list": () => ({ resourceTemplates: [] }),
  "prompts/list": () => ({ prompts: [] }),
};

/**
 * Whether the server declared what `method` needs; undefined capabilities (not connected) count as no.
 * On a 2026-07-28 session logging/setLevel does not exist (SEP-2577: a level travels with each
 * request), whatever the server declared: the SDK would refuse it without sending it.
 */
export function supportsRequest(method: ServerRequestMethod, capabilities: ServerCapabilities | undefined, era: "legacy" | "modern" = "legacy"): boolean {
  if (method === "logging/setLevel" && era === "modern") return false;
  switch (method) {
    case "resources/list":
    case "resources/templates/list":
    case "resources/read":
      return capabilities?.resources !== undefined;
    case "resources/subscribe":
    case "resources/unsubscribe":
      return capabilities?.resources?.subscribe === true;
    case "prompts/list":
    case "prompts/get":
      return capabilities?.prompts !== undefined;
    case "completion/complete":
      return capabilities?.completions !== undefined;
    case "logging/setLevel":
      return capabilities?.logging !== undefined;
  }
}

/** The result a list verb has on a server without the capability, or undefined for the other methods. */
export function emptyListFor<M extends ServerRequestMethod>(method: M): ServerRequestResult<M> | undefined {
  const empty = EMPTY_LISTS[method] as (() => ServerRequestResult<M>) | undefined;
  return empty?.();
}

/** What a request is about, for error messages (a URI, a prompt name). */
export function requestTarget(method: ServerRequestMethod, params: unknown): string | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const record = params as Record<string, unknown>;
  if (method.startsWith("resources/") && typeof record["uri"] === "string") return record["uri"];
  if (method === "prompts/get" && typeof record["name"] === "string") return record["name"];
  if (method === "logging/setLevel" && typeof record["level"] === "string") return record["level"];
  return undefined;
}

/** Sends one request through the SDK client's typed method for it. */
export async function sendServerRequest<M extends ServerRequestMethod>(
  client: Client,
  method: M,
  params: ServerRequestParams<M>,
  options: RequestOptions,
): Promise<ServerRequestResult<M>> {
  // Results are never served from the SDK's response cache: the gateway and the guest want what
  // the server says now, and a cache would outlive the trust layer's view.
  const cached = { ...options, cacheMode: "bypass" as const };
  const send = async (): Promise<unknown> => {
    switch (method) {
      case "resources/list":
        return client.listResources(params as ServerRequestParams<"resources/list">, cached);
      case "resources/templates/list":
        return client.listResourceTemplates(params as ServerRequestParams<"resources/templates/list">, cached);
      case "resources/read":
        return client.readResource(params as ServerRequestParams<"resources/read">, cached);
      case "resources/subscribe":
        return client.subscribeResource(params as ServerRequestParams<"resources/subscribe">, options);
      case "resources/unsubscribe":
        return client.unsubscribeResource(params as ServerRequestParams<"resources/unsubscribe">, options);
      case "prompts/list":
        return client.listPrompts(params as ServerRequestParams<"prompts/list">, cached);
      case "prompts/get":
        return client.getPrompt(params as ServerRequestParams<"prompts/get">, options);
      case "completion/complete":
        return client.complete(params as ServerRequestParams<"completion/complete">, options);
      case "logging/setLevel":
        return client.setLoggingLevel((params as ServerRequestParams<"logging/setLevel">).level, options);
      default:
        throw new TypeError(`not a server request method: ${String(method)}`);
    }
  };
  return (await send()) as ServerRequestResult<M>;
}
