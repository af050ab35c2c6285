import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { extname, join } from "node:path";
import { packageRoot } from "../util/package-root.js";
import { UiError } from "./errors.js";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
};

/** Every asset comes from the package (built by `npm run build`): no CDN, works offline. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // CodeMirror writes its theme as style elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export function defaultAssetsDir(): string {
  return join(packageRoot(), "dist", "ui");
}

/** Fails at start, with what to run, rather than serving a blank page. */
export function checkAssets(dir: string): void {
  if (!existsSync(join(dir, "index.html")) || !existsSync(join(dir, "app.js"))) {
    throw new UiError("UI_ASSETS_MISSING", `The dashboard's files are not built (${dir} has no index.html/app.js). Run \`npm run build\` in the mcpvm folder, then \`mcpvm ui\` again.`, { data: { dir } });
  }
}

export function securityHeaders(): Record<string, string> {
  return {
    "content-security-policy": CONTENT_SECURITY_POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "cache-control": "no-store",
  };
}

/** `/` is index.html; `/assets/<file>` a file of the bundle (flat names only: nothing outside the folder). */
export async function serveAsset(res: ServerResponse, dir: string, path: string): Promise<boolean> {
  const file = path === "/" ? "index.html" : path.startsWith("/assets/") ? path.slice("/assets/".length) : undefined;
  if (file === undefined || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(file)) return false;
  let bytes: Buffer;
  try {
    bytes = await readFile(join(dir, file));
  } catch {
    return false;
  }
  res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", ...securityHeaders() });
  res.end(bytes);
  return true;
}
