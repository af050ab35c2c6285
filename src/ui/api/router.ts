import type { IncomingMessage, ServerResponse } from "node:http";
import { isMcpvmError, errorMessage } from "../../util/errors.js";
import { exitCodeFor } from "../../terminal/report-error.js";
import { UiError } from "../errors.js";
import { securityHeaders } from "../static-assets.js";

/** A route's answer: any JSON value (sent with 200). */
export type Handler = (request: { readonly params: Readonly<Record<string, string>>; readonly body: unknown; readonly query: URLSearchParams }) => Promise<unknown>;

interface Route {
  readonly method: "GET" | "POST";
  readonly parts: readonly string[];
  readonly handler: Handler;
}

const MAX_BODY_BYTES = 2 * 1024 * 1024;

/** `GET /api/servers/:name` style routes; nothing more is needed for a dozen endpoints. */
export class Router {
  private readonly routes: Route[] = [];

  get(path: string, handler: Handler): this {
    this.routes.push({ method: "GET", parts: path.split("/").filter(Boolean), handler });
    return this;
  }

  post(path: string, handler: Handler): this {
    this.routes.push({ method: "POST", parts: path.split("/").filter(Boolean), handler });
    return this;
  }

  async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    try {
      const segments = url.pathname.split("/").filter(Boolean).map(decodeSegment);
      const found = this.match(req.method ?? "GET", segments);
      if (found === undefined) throw new UiError("UI_NOT_FOUND", `No API route ${req.method ?? ""} ${url.pathname}.`);
      const body = req.method === "POST" ? await readJson(req) : undefined;
      const value = await found.route.handler({ params: found.params, body, query: url.searchParams });
      sendJson(res, 200, value ?? { ok: true });
    } catch (error) {
      const { status, payload } = errorPayload(error);
      sendJson(res, status, payload);
    }
  }

  private match(method: string, segments: readonly string[]): { route: Route; params: Record<string, string> } | undefined {
    for (const route of this.routes) {
      if (route.method !== method || route.parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      route.parts.forEach((part, i) => {
        const segment = segments[i] as string;
        if (part.startsWith(":")) params[part.slice(1)] = segment;
        else if (part !== segment) ok = false;
      });
      if (ok) return { route, params };
    }
    return undefined;
  }
}

/** A path segment as typed; a broken %-escape is the caller's mistake (400), not an internal error. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new UiError("UI_BAD_REQUEST", `The path segment "${segment}" is not valid %-encoding.`);
  }
}

/** The CLI's error, as the CLI would report it: its code, its message, and the exit code it maps to. */
export function errorPayload(error: unknown): { status: number; payload: { error: { code: string; message: string; exitCode: number } } } {
  if (isMcpvmError(error)) {
    const status = error.code === "UI_NOT_FOUND" ? 404 : error.code === "UI_BODY_TOO_LARGE" ? 413 : 400;
    return { status, payload: { error: { code: error.code, message: error.message, exitCode: exitCodeFor(error) } } };
  }
  return { status: 500, payload: { error: { code: "INTERNAL", message: errorMessage(error), exitCode: 1 } } };
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  // The page's headers on every answer too (nosniff above all: JSON is never read as anything else).
  res.writeHead(status, { ...securityHeaders(), "content-type": "application/json; charset=utf-8" });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new UiError("UI_BODY_TOO_LARGE", `The request body is over ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new UiError("UI_BAD_REQUEST", `The request body is not JSON: ${errorMessage(error)}`);
  }
}
