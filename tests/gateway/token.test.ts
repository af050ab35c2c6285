import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolveGatewayAuth, startGateway, type RunningGateway } from "../../src/gateway/index.js";
import { tokenFileReadableBy } from "../../src/gateway/gateway-token.js";
import { fixtureServer, makeHome, SERVE_ENTRY, VITE_NODE, type TestHome } from "./helpers.js";

/**
 * Item 8 of the attack review: loopback is not "only this person" on a machine with several
 * accounts, and `--token` shows in `ps`. The HTTP gateway now requires a token by default (made
 * 0600 in the home, printed once), taken from a file or the environment; `--no-auth` is explicit.
 */
const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

let running: RunningGateway | undefined;
let home: TestHome | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await running?.close();
  await home?.cleanup();
  running = undefined;
  home = undefined;
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-token-"));
  dirs.push(dir);
  return dir;
}

describe("the HTTP gateway requires a token by default", () => {
  it("with no token given, another local account's request without one is refused (401); the home token (0600) works", { timeout: 60_000 }, async () => {
    home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") } });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, logLevel: "error", pretty: false });
    const url = running.url as string;
    expect((await fetch(url, { method: "POST", headers: JSON_HEADERS, body: INIT })).status).toBe(401);
    const file = join(home.dir, "gateway-token");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const token = (await readFile(file, "utf8")).trim();
    expect(token).toBe(running.token);
    expect(token.length).toBeGreaterThanOrEqual(40);
    expect((await fetch(url, { method: "POST", headers: { ...JSON_HEADERS, authorization: `Bearer ${token}` }, body: INIT })).status).toBe(200);
  });

  it("--no-auth (noAuth) is loopback only: requests without a token are served there, and refused off loopback", { timeout: 60_000 }, async () => {
    home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") } });
    await expect(startGateway({ env: home.env, http: { host: "0.0.0.0", port: 0 }, noAuth: true, logLevel: "error", pretty: false })).rejects.toMatchObject({ code: "GATEWAY_TOKEN_REQUIRED" });
    running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, noAuth: true, logLevel: "error", pretty: false });
    expect(running.token).toBeUndefined();
    expect((await fetch(running.url as string, { method: "POST", headers: JSON_HEADERS, body: INIT })).status).toBe(200);
  });
});

describe("where the token comes from", () => {
  it("the home token is made once and then reused", async () => {
    const dir = await tempDir();
    const first = await resolveGatewayAuth({ home: dir });
    const second = await resolveGatewayAuth({ home: dir });
    expect(first).toMatchObject({ source: "home", created: true, file: join(dir, "gateway-token") });
    expect(second).toMatchObject({ source: "home", created: false, token: first.token });
  });

  it("--token-file and MCPVM_GATEWAY_TOKEN are taken without a warning; --token on argv warns that ps shows it", async () => {
    const dir = await tempDir();
    const file = join(dir, "token");
    await writeFile(file, "file-token-0123456789abcdef\n", { mode: 0o600 });
    expect(await resolveGatewayAuth({ home: dir, tokenFile: file, envToken: "env-token-0123456789abcdef" })).toMatchObject({ token: "file-token-0123456789abcdef", source: "token-file", warnings: [] });
    expect(await resolveGatewayAuth({ home: dir, envToken: "env-token-0123456789abcdef" })).toMatchObject({ token: "env-token-0123456789abcdef", source: "env", warnings: [] });
    const argv = await resolveGatewayAuth({ home: dir, argvToken: "argv-token-0123456789abcdef" });
    expect(argv.source).toBe("argv");
    expect(argv.warnings.join("\n")).toContain("(ps)");
  });

  it("refuses a token file others can write (they could set a token they know), a short token, and contradicting flags", async () => {
    const dir = await tempDir();
    const file = join(dir, "token");
    await writeFile(file, "file-token-0123456789abcdef\n");
    await chmod(file, 0o666);
    await expect(resolveGatewayAuth({ home: dir, tokenFile: file })).rejects.toMatchObject({ code: "GATEWAY_TOKEN_INVALID", message: expect.stringContaining("writable by other users") });
    await expect(resolveGatewayAuth({ home: dir, argvToken: "short" })).rejects.toMatchObject({ code: "GATEWAY_TOKEN_INVALID" });
    await expect(resolveGatewayAuth({ home: dir, argvToken: "argv-token-0123456789abcdef", noAuth: true })).rejects.toMatchObject({ code: "GATEWAY_TOKEN_CONFLICT" });
  });
});

/** `mcpvm serve --http 127.0.0.1:0` as a real process: its stderr up to the token lines, then SIGTERM. */
function serveOnce(env: Record<string, string>, extra: readonly string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VITE_NODE, SERVE_ENTRY, "--", "--http", "127.0.0.1:0", "--log-level", "error", ...extra], { env, stdio: ["ignore", "ignore", "pipe"] });
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve did not start: ${err}`));
    }, 90_000);
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString("utf8");
      // The last token line names the file to `cat`; then the gateway can stop.
      if (/cat [^\n]+\n/.test(err)) child.kill("SIGTERM");
    });
    child.on("exit", () => {
      clearTimeout(timer);
      resolve(err);
    });
  });
}

describe("who else may read a token file", () => {
  it("warns for every user, and for a group that is not the gateway's own; a Kubernetes Secret (root:<pod group> 0440) is quiet", async () => {
    expect(tokenFileReadableBy(0o600, 1000, 1000)).toBeUndefined();
    expect(tokenFileReadableBy(0o440, 10001, 10001)).toBeUndefined();
    expect(tokenFileReadableBy(0o640, 50, 1000)).toBe("other users (its group)");
    expect(tokenFileReadableBy(0o604, 1000, 1000)).toBe("every user");
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-token-mode-"));
    try {
      const file = join(dir, "token");
      await writeFile(file, "file-token-0123456789abcdef\n");
      await chmod(file, 0o644);
      const auth = await resolveGatewayAuth({ home: dir, tokenFile: file });
      expect(auth.warnings.join("\n")).toContain("readable by every user (mode 644); fix: chmod 600");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("mcpvm serve --http prints the token once, when it is made", () => {
  it("first start: the token and how to read it again; second start: only where it is", { timeout: 240_000 }, async () => {
    home = await makeHome({ servers: { fixture: fixtureServer("/dev/null") } });
    const first = await serveOnce(home.env);
    const token = (await readFile(join(home.dir, "gateway-token"), "utf8")).trim();
    expect(first).toContain(`  ${token}\n`);
    expect(first).toContain(`read it again with: cat ${join(home.dir, "gateway-token")}`);
    const second = await serveOnce(home.env);
    expect(second).not.toContain(token);
    expect(second).toContain(`read it with: cat ${join(home.dir, "gateway-token")}`);
  });
});
