import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";
import { isAlive, makeHome, ROOT, type TrustHome } from "../trust/helpers.js";
import { builtAssets, removeAssets } from "./support/browser.js";

/**
 * `mcpvm ui` as a person runs it: a real process (the CLI from the sources through vite-node),
 * its printed URL and token, the API over HTTP, an upstream stdio server it started, and a signal
 * to stop it. The process must exit 0 promptly and leave nothing running.
 */

const FIXTURE = join(ROOT, "tests/fixtures/servers/fixture-server.mjs");
/** vite-node transforms the sources at start: slow on a loaded 2-core machine, hence the margins. */
const START_MS = 90_000;
const STOP_MS = 20_000;

interface UiProcess {
  readonly child: ChildProcess;
  readonly url: URL;
  readonly token: string;
  readonly port: number;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const homes: TrustHome[] = [];
const children: ChildProcess[] = [];

afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  for (const home of homes.splice(0)) await home.cleanup().catch(() => new Promise((done) => setTimeout(done, 500)).then(() => home.cleanup()));
});
afterAll(() => removeAssets());

async function startUiProcess(home: TrustHome, args: readonly string[] = []): Promise<UiProcess> {
  const assets = await builtAssets();
  const child = spawn(process.execPath, [join(ROOT, "node_modules/vite-node/vite-node.mjs"), join(ROOT, "tests/ui/fixtures/cli-entry.ts"), "--", "ui", "--no-open", ...args], {
    cwd: home.dir,
    env: { ...process.env, ...home.env, MCPVM_UI_ASSETS: assets },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const printed = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcpvm ui printed no URL within ${START_MS} ms; stderr:\n${stderr}`)), START_MS);
    const check = () => {
      const match = /^mcpvm dashboard: (\S+)$/m.exec(stdout);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    };
    child.stdout?.on("data", check);
    void exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`mcpvm ui exited (${code}) before printing its URL; stderr:\n${stderr}`));
    });
  });
  const url = new URL(printed);
  return { child, url, token: url.searchParams.get("token") ?? "", port: Number(url.port), stderr: () => stderr, exited };
}

/** A raw HTTP request, so Host and Origin can be set to anything (fetch would not let us). */
function call(port: number, method: string, path: string, headers: Record<string, string> = {}, address = "127.0.0.1"): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers }, timeout: 60_000 }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timed out")));
    req.end(method === "POST" ? "{}" : undefined);
  });
}

/** Every live descendant of a process (Linux /proc): what it started, and what those started. */
function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] !== "Z") parents.set(Number(entry), Number(fields[1]));
    } catch {
      // ended while we looked
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

/** The local addresses a listening TCP socket on this port is bound to (Linux /proc/net/tcp{,6}). */
function listeningAddresses(port: number): string[] {
  const found: string[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const [, local, , state] = line.trim().split(/\s+/);
      if (local === undefined || state !== "0A") continue; // 0A: LISTEN
      const [address = "", hexPort = ""] = local.split(":");
      if (Number.parseInt(hexPort, 16) !== port) continue;
      found.push(address.length === 8 ? (address.match(/../g) ?? []).reverse().map((b) => Number.parseInt(b, 16)).join(".") : `v6:${address}`);
    }
  }
  return found;
}

const fxHome = () =>
  makeHome({ servers: (starts) => ({ fx: { command: process.execPath, args: [FIXTURE], env: { MCPVM_FIXTURE_STARTS: starts } } }), approve: ["fx"] }).then((home) => {
    homes.push(home);
    return home;
  });

async function upstreamPid(home: TrustHome): Promise<number> {
  return Number((await readFile(home.starts, "utf8")).trim().split(/\s+/)[0]);
}

describe("mcpvm ui as a real process", { timeout: 240_000 }, () => {
  it("prints its URL, guards its API, starts a server on request; SIGTERM: exit 0, nothing left running", async () => {
    const home = await fxHome();
    const ui = await startUiProcess(home, ["--port", "0"]);
    expect(ui.url.origin).toBe(`http://127.0.0.1:${ui.port}`);
    expect(ui.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    await expect.poll(() => ui.stderr(), { timeout: 10_000 }).toContain("keep it to yourself");
    // Bound to 127.0.0.1 only: no wildcard, no other address, no IPv6 socket.
    expect(listeningAddresses(ui.port)).toEqual(["127.0.0.1"]);
    await expect(call(ui.port, "GET", "/api/state", { "x-mcpvm-token": ui.token }, "127.0.0.2")).rejects.toThrow(/ECONNREFUSED/);

    const token = { "x-mcpvm-token": ui.token };
    const state = await call(ui.port, "GET", "/api/state", token);
    expect(state.status).toBe(200);
    expect((JSON.parse(state.body) as { servers: { name: string; state: string }[] }).servers.map((s) => s.name)).toEqual(["fx"]);
    expect((await call(ui.port, "GET", `/?token=${ui.token}`)).body).toContain("<title>");
    // Refused: no token, a wrong one, the token only in the URL, another Host (DNS rebinding), a foreign Origin.
    expect((await call(ui.port, "GET", "/api/state")).status).toBe(403);
    expect((await call(ui.port, "GET", "/api/state", { "x-mcpvm-token": "x".repeat(43) })).status).toBe(403);
    expect((await call(ui.port, "GET", `/api/state?token=${ui.token}`)).status).toBe(403);
    expect((await call(ui.port, "GET", "/?token=guessed")).status).toBe(403);
    expect((await call(ui.port, "GET", "/api/state", { ...token, host: `rebound.example:${ui.port}` })).status).toBe(421);
    const foreign = await call(ui.port, "POST", "/api/servers/fx/disable", { ...token, origin: "http://evil.example", "content-type": "application/json" });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toMatchObject({ error: { code: "UI_FOREIGN_ORIGIN" } });
    expect(JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")).mcpServers.fx.enabled).toBeUndefined();

    // Opening the server's tools starts it.
    const tools = await call(ui.port, "GET", "/api/servers/fx/tools", token);
    expect(tools.status, tools.body).toBe(200);
    expect((JSON.parse(tools.body) as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
    const pid = await upstreamPid(home);
    expect(isAlive(pid)).toBe(true);
    const below = descendants(ui.child.pid as number);
    expect(below).toContain(pid);

    const stopping = Date.now();
    ui.child.kill("SIGTERM");
    const exit = await Promise.race([ui.exited, new Promise<never>((_r, reject) => setTimeout(() => reject(new Error(`no exit within ${STOP_MS} ms after SIGTERM`)), STOP_MS))]);
    console.log(`mcpvm ui exited ${Date.now() - stopping} ms after SIGTERM`);
    expect(exit, ui.stderr()).toEqual({ code: 0, signal: null });
    // Nothing it started outlives it (a zombie is reaped by init a moment later).
    await expect.poll(() => below.filter((p) => isAlive(p)), { timeout: 10_000, interval: 100 }).toEqual([]);
    await expect(call(ui.port, "GET", "/api/state", token)).rejects.toThrow(/ECONNREFUSED/);
  });

  it("SIGINT (Ctrl-C) stops it the same way: exit 0, the upstream server gone", async () => {
    const home = await fxHome();
    const ui = await startUiProcess(home);
    const tools = await call(ui.port, "GET", "/api/servers/fx/tools", { "x-mcpvm-token": ui.token });
    expect(tools.status, tools.body).toBe(200);
    const pid = await upstreamPid(home);
    expect(isAlive(pid)).toBe(true);
    ui.child.kill("SIGINT");
    const exit = await Promise.race([ui.exited, new Promise<never>((_r, reject) => setTimeout(() => reject(new Error(`no exit within ${STOP_MS} ms after SIGINT`)), STOP_MS))]);
    expect(exit, ui.stderr()).toEqual({ code: 0, signal: null });
    await expect.poll(() => isAlive(pid), { timeout: 10_000, interval: 100 }).toBe(false);
  });

  it("takes no --host: it never listens anywhere but 127.0.0.1", async () => {
    const io = captureIo({ MCPVM_HOME: "/nonexistent-mcpvm-home", PATH: process.env.PATH ?? "", NO_COLOR: "1" }, "", ROOT);
    expect(await runCli(["ui", "--host", "0.0.0.0", "--no-open"], io)).toBe(2);
    expect(io.stderrText()).toMatch(/--host/);
  });

  it("a --port that is taken: UI_PORT_IN_USE, exit 6 (unavailable, like serve's), not 1 (a guest script's failure)", async () => {
    const home = await makeHome({ servers: () => ({}) });
    homes.push(home);
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const io = captureIo({ ...home.env, PATH: process.env.PATH ?? "", NO_COLOR: "1", MCPVM_UI_ASSETS: await builtAssets() }, "", home.dir);
      expect(await runCli(["ui", "--no-open", "--port", String(port)], io)).toBe(6);
      expect(io.stderrText()).toContain(`[UI_PORT_IN_USE] ui: port ${port} on 127.0.0.1 is in use; give another --port, or leave it out for a free one.`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it("a dashboard that is not built: UI_ASSETS_MISSING, exit 6 like the launcher's missing build, not 1", async () => {
    const home = await makeHome({ servers: () => ({}) });
    homes.push(home);
    const io = captureIo({ ...home.env, PATH: process.env.PATH ?? "", NO_COLOR: "1", MCPVM_UI_ASSETS: home.dir }, "", home.dir);
    expect(await runCli(["ui", "--no-open"], io)).toBe(6);
    expect(io.stderrText()).toContain(`[UI_ASSETS_MISSING] The dashboard's files are not built (${home.dir} has no index.html/app.js). Run \`npm run build\``);
  });
});
