import { spawn, type ChildProcess } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SERVE_ENTRY, VITE_NODE } from "./helpers.js";

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** http://127.0.0.1:<port>/mcp */
  readonly url: URL;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string>;
}

/** `mcpvm serve --http 127.0.0.1:<port>` as a real process (from the sources, via vite-node), once it listens. */
export function startServeProcess(env: Record<string, string>, extra: readonly string[] = [], port = 0): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITE_NODE, SERVE_ENTRY, "--", "--http", `127.0.0.1:${port}`, "--log-level", "warn", ...extra], { env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    const exited = new Promise<number | string>((done) => child.on("exit", (code, signal) => done(code ?? signal ?? "unknown")));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve did not start: ${err}`));
    }, 120_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8");
      const match = /listening on (http:\/\/\S+\/mcp)/.exec(err);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({ child, pid: child.pid as number, url: new URL(match[1]), stderr: () => err, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${code}) before listening: ${err}`));
    });
  });
}

/** Writes `token` to a 0600 file in `dir` and returns the `--token-file` flags that name it. */
export async function tokenFileFlags(dir: string, token: string): Promise<string[]> {
  const file = join(dir, "token");
  await writeFile(file, `${token}\n`, { mode: 0o600 });
  return ["--token-file", file];
}

/** A streamable-HTTP client transport to `url` that sends `token` as its bearer. */
export function bearerTransport(url: URL, token: string): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${token}` } } });
}
