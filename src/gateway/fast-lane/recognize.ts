import type { IncomingHttpHeaders } from "node:http";
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from "@modelcontextprotocol/server";
import { isBuiltinTool } from "../builtin-tools.js";

/**
 * Which HTTP requests the fast lane answers itself: one JSON-RPC `tools/call` of a direct tool,
 * shaped exactly as the SDK's own clients send it, that cannot lead to anything but one JSON
 * answer (no progress token, no input rounds, no log level asked for). Anything else — every
 * other method, batches, odd headers or envelopes, requests the SDK would refuse — is left to the
 * SDK path, which answers (or refuses) it as before. Pure: headers and parsed body in, a decision out.
 */

/** The one modern revision the fast lane speaks (later ones go to the SDK until it is taught them). */
export const FAST_MODERN_VERSION = "2026-07-28";
/** 2025-era revisions whose tools/call result the fast lane encodes as the SDK's 2025 codec does. */
export const FAST_LEGACY_VERSIONS: ReadonlySet<string> = new Set(["2025-06-18", "2025-11-25"]);

export interface FastCall {
  readonly era: "modern" | "legacy";
  readonly id: string | number;
  readonly name: string;
  readonly args: Record<string, unknown> | undefined;
  /** params._meta as sent (trace context, and on 2026-07-28 the envelope). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** 2026-07-28: clientInfo.name from the envelope (2025: from the session's initialize, known to the caller). */
  readonly clientName: string | undefined;
}

/** _meta keys a 2025-era fast call may carry: trace context only (a progressToken or anything else goes to the SDK). */
const LEGACY_META_KEYS: ReadonlySet<string> = new Set(["traceparent", "tracestate", "baggage"]);
/** The 2026-07-28 envelope without a progress token or log level: both ask for notifications on the response. */
const MODERN_META_KEYS: ReadonlySet<string> = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_INFO_META_KEY, CLIENT_CAPABILITIES_META_KEY, ...LEGACY_META_KEYS]);
/** Client capabilities that let an upstream's request reach the client (elicitation, sampling as input rounds). */
const ROUND_CAPABILITIES = ["elicitation", "sampling", "roots", "tasks"] as const;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function onlyKeys(value: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

const ENVELOPE_KEYS: ReadonlySet<string> = new Set(["jsonrpc", "id", "method", "params"]);
const PARAM_KEYS: ReadonlySet<string> = new Set(["name", "arguments", "_meta"]);

function single(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === "string" ? value : undefined;
}

/** application/json bodies, and clients that accept both JSON and SSE answers (what the SDK transports require). */
function plainHttp(headers: IncomingHttpHeaders): boolean {
  const type = single(headers, "content-type");
  const accept = single(headers, "accept");
  return type !== undefined && /^application\/json\s*(;|$)/i.test(type) && accept !== undefined && accept.includes("application/json") && accept.includes("text/event-stream");
}

/** Client capabilities the fast lane can honour: none that invite an upstream request to the client. */
export function declaresNoRounds(capabilities: unknown): boolean {
  if (!isPlainObject(capabilities)) return false;
  return ROUND_CAPABILITIES.every((key) => capabilities[key] === undefined);
}

function clientInfoName(info: unknown): string | undefined | false {
  if (info === undefined) return undefined;
  if (!isPlainObject(info) || typeof info.name !== "string" || typeof info.version !== "string") return false;
  return info.name.slice(0, 100);
}

interface Envelope {
  readonly id: string | number;
  readonly name: string;
  readonly args: Record<string, unknown> | undefined;
  readonly meta: Record<string, unknown> | undefined;
}

/** One JSON-RPC tools/call of a direct tool with nothing but name, arguments and _meta, whatever the transport. */
function plainToolCall(body: unknown): Envelope | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== "2.0" || body.method !== "tools/call" || !onlyKeys(body, ENVELOPE_KEYS)) return undefined;
  const id = body.id;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)))) return undefined;
  const params = body.params;
  if (!isPlainObject(params) || !onlyKeys(params, PARAM_KEYS) || typeof params.name !== "string" || isBuiltinTool(params.name)) return undefined;
  const args = params.arguments;
  if (args !== undefined && !isPlainObject(args)) return undefined;
  const meta = params._meta;
  if (meta !== undefined && !isPlainObject(meta)) return undefined;
  return { id, name: params.name, args, meta };
}

/** A 2025-era call carries at most trace context in _meta (a progressToken or anything else goes to the SDK). */
function legacyCall(call: Envelope): FastCall | undefined {
  if (call.meta !== undefined && !onlyKeys(call.meta, LEGACY_META_KEYS)) return undefined;
  return { era: "legacy", ...call, clientName: undefined };
}

/**
 * The fast call in a POST body, or undefined when the SDK path must answer it. `era` is what the
 * HTTP layer decided (modern: no session, a 2026-07-28 header; legacy: a live 2025 session).
 */
export function recognizeFastCall(era: "modern" | "legacy", headers: IncomingHttpHeaders, body: unknown): FastCall | undefined {
  const call = plainToolCall(body);
  if (call === undefined || !plainHttp(headers)) return undefined;
  const version = single(headers, "mcp-protocol-version");
  if (era === "legacy") return version !== undefined && FAST_LEGACY_VERSIONS.has(version) ? legacyCall(call) : undefined;
  // 2026-07-28: the standard headers must name what the body says, and the envelope must be whole.
  const meta = call.meta;
  if (version !== FAST_MODERN_VERSION || single(headers, "mcp-method") !== "tools/call" || single(headers, "mcp-name") !== call.name) return undefined;
  if (meta === undefined || !onlyKeys(meta, MODERN_META_KEYS) || meta[PROTOCOL_VERSION_META_KEY] !== FAST_MODERN_VERSION) return undefined;
  if (!declaresNoRounds(meta[CLIENT_CAPABILITIES_META_KEY])) return undefined;
  const clientName = clientInfoName(meta[CLIENT_INFO_META_KEY]);
  if (clientName === false) return undefined;
  for (const key of LEGACY_META_KEYS) if (meta[key] !== undefined && typeof meta[key] !== "string") return undefined;
  return { era, ...call, clientName };
}

/**
 * The fast call in one message of a 2025-era stdio connection (the connection's own state, its
 * negotiated version and declared capabilities, is the caller's to check: stdio has no headers).
 */
export function recognizeStdioCall(message: unknown): FastCall | undefined {
  const call = plainToolCall(message);
  return call === undefined ? undefined : legacyCall(call);
}

/** A 2025 session's `notifications/cancelled` for a request id (the fast lane aborts its call if it holds one). */
export function cancelledRequestId(body: unknown): string | number | undefined {
  if (!isPlainObject(body) || body.method !== "notifications/cancelled" || !isPlainObject(body.params)) return undefined;
  const id = body.params.requestId;
  return typeof id === "string" || typeof id === "number" ? id : undefined;
}
