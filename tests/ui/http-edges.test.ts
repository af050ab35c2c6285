import { request } from "node:http";
import { execFileSync } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { RunningUi } from "../../src/ui/index.js";
import { makeHome, stdioServer, type HomeOptions, type TrustHome } from "../trust/helpers.js";
import { removeAssets, startDashboard } from "./support/browser.js";

/**
 * What a demanding user of the dashboard runs into over real HTTP: a script running while the
 * configuration changes, two runs asking questions at once, odd names in the URL. Real server on
 * 127.0.0.1, real config home, real MCP servers (the fixture).
 */
const homes: TrustHome[] = [];
const dashboards: RunningUi[] = [];
afterEach(async () => {
  for (const ui of dashboards.splice(0)) await ui.close();
  for (const home of homes.splice(0)) await home.cleanup().catch(() => new Promise((done) => setTimeout(done, 500)).then(() => home.cleanup()));
});
afterAll(removeAssets);

async function dashboard(servers: HomeOptions["servers"], approve: string[]): Promise<{ home: TrustHome; ui: RunningUi }> {
  const home = await makeHome({ servers, approve });
  homes.push(home);
  const ui = await startDashboard(home.env, home.dir);
  dashboards.push(ui);
  return { home, ui };
}

function call(ui: RunningUi, method: "GET" | "POST", path: string, body?: unknown, token = ui.token): Promise<{ status: number; json: Record<string, unknown>; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${ui.port}`, "x-mcpvm-token": token, ...(method === "POST" ? { "content-type": "application/json" } : {}) };
    const req = request({ host: "127.0.0.1", port: ui.port, method, path, headers }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Record<string, unknown>, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(method === "POST" ? JSON.stringify(body ?? {}) : undefined);
  });
}

interface RunView {
  state: string;
  result?: { ok: boolean; value?: unknown; error?: { message: string } };
  confirmations: Array<{ id: string; tool: string; text: string }>;
}

const view = async (ui: RunningUi, id: string): Promise<RunView> => (await call(ui, "GET", `/api/runs/${id}`)).json as unknown as RunView;
const startRun = async (ui: RunningUi, code: string): Promise<string> => {
  const started = await call(ui, "POST", "/api/runs", { code, limits: { timeout: "60s" } });
  expect(started.status, JSON.stringify(started.json)).toBe(200);
  return started.json.id as string;
};
const finished = async (ui: RunningUi, id: string): Promise<RunView> => {
  await expect.poll(async () => (await view(ui, id)).state, { timeout: 60_000, interval: 100 }).toBe("done");
  return view(ui, id);
};

describe("mcpvm ui: a script running while things change", { timeout: 120_000 }, () => {
  it("a config change (another server disabled in the page) does not cut the running script's MCP call", async () => {
    const { ui } = await dashboard((starts) => ({ slow: { ...stdioServer(starts, ["--latency", "3000"]), confirm: "never" }, other: stdioServer(starts) }), ["slow", "other"]);
    const id = await startRun(ui, 'return await tools.slow.echo({ text: "still here" });');
    // The call is on its way (the server is started and the 3 s latency is running) when the config changes.
    await new Promise((done) => setTimeout(done, 1500));
    expect((await call(ui, "POST", "/api/servers/other/disable")).status).toBe(200);
    // The page keeps polling meanwhile, as an open tab does.
    expect((await call(ui, "GET", "/api/state")).status).toBe(200);
    const done = await finished(ui, id);
    expect(done.result, JSON.stringify(done.result)).toMatchObject({ ok: true, value: "still here" });
    // Once the run is over, the change is what the page shows.
    const state = (await call(ui, "GET", "/api/state")).json as { servers: Array<{ name: string; enabled: boolean }> };
    expect(state.servers.find((s) => s.name === "other")?.enabled).toBe(false);
  });

  it("each run sees only its own questions: answering one run's question never allows another run's call", async () => {
    const { ui } = await dashboard((starts) => ({ fx: { ...stdioServer(starts), confirm: "always" } }), ["fx"]);
    const first = await startRun(ui, 'return await tools.fx.echo({ text: "first" });');
    await expect.poll(async () => (await view(ui, first)).confirmations.length, { timeout: 30_000, interval: 100 }).toBe(1);
    const second = await startRun(ui, 'return await tools.fx.echo({ text: "second" });');
    await expect.poll(async () => (await view(ui, second)).confirmations.length, { timeout: 30_000, interval: 100 }).toBe(1);
    const asked = (await view(ui, second)).confirmations;
    expect(asked[0]?.text).toContain('"second"');
    expect((await view(ui, first)).confirmations[0]?.text).toContain('"first"');
    // The second page allows what it was shown: the second run's call, not the first.
    expect((await call(ui, "POST", `/api/confirmations/${asked[0]?.id}`, { allow: true })).status).toBe(200);
    expect((await finished(ui, second)).result).toMatchObject({ ok: true, value: "second" });
    const stillAsking = await view(ui, first);
    expect(stillAsking.state).toBe("running");
    expect(stillAsking.confirmations[0]?.text).toContain('"first"');
    expect((await call(ui, "POST", `/api/confirmations/${stillAsking.confirmations[0]?.id}`, { allow: false })).status).toBe(200);
    expect((await finished(ui, first)).result?.ok).toBe(false);
  });
});

describe("mcpvm ui: servers that hang", { timeout: 120_000 }, () => {
  it("the Run page's types wait for the slowest server, not for every hanging server in turn", async () => {
    const hanging = (starts: string) => ({ ...stdioServer(starts, ["--mode", "hang-initialize"]), connectTimeoutMs: 3000 });
    const { ui } = await dashboard((starts) => ({ h1: hanging(starts), h2: hanging(starts), h3: hanging(starts), ok: stdioServer(starts) }), ["h1", "h2", "h3", "ok"]);
    const started = Date.now();
    const types = (await call(ui, "GET", "/api/types")).json as { servers: Array<{ server: string }>; problems: Array<{ server: string }> };
    const took = Date.now() - started;
    expect(types.servers.map((s) => s.server)).toEqual(["ok"]);
    expect(types.problems.map((p) => p.server)).toEqual(["h1", "h2", "h3"]);
    // One after another this is 3 × 3 s; side by side a little over 3 s.
    expect(took).toBeLessThan(7000);
  });
});

describe("mcpvm ui: a server that fails to start", { timeout: 120_000 }, () => {
  it("'Check for changes' is a deliberate retry: it tries again however often it failed before (no crash-loop limit)", async () => {
    const { ui } = await dashboard((starts) => ({ dies: stdioServer(starts, ["--mode", "exit-at-start"]) }), []);
    await call(ui, "POST", "/api/servers/dies/approve", { hash: ((await call(ui, "GET", "/api/approvals")).json as { launches: Array<{ hash: string }> }).launches[0]?.hash });
    const codes: unknown[] = [];
    for (let i = 0; i < 6; i += 1) codes.push(((await call(ui, "POST", "/api/servers/dies/recheck")).json.error as { code: string }).code);
    expect(codes).toEqual(Array(6).fill("MCP_CONNECT_FAILED"));
  });
});

describe("mcpvm ui: import from a path", () => {
  it("a path that is not a regular file (a FIFO) is refused at once, not read forever", async () => {
    const { home, ui } = await dashboard((starts) => ({ fx: stdioServer(starts) }), []);
    execFileSync("mkfifo", [join(home.dir, "pipe.json")]);
    const answer = await Promise.race([call(ui, "POST", "/api/import", { path: "pipe.json", dryRun: true }), new Promise<undefined>((done) => setTimeout(() => done(undefined), 5000))]);
    expect(answer, "no answer within 5 s").toBeDefined();
    expect(answer?.json.error).toMatchObject({ code: "MCP_IMPORT_UNREADABLE" });
    expect((answer?.json.error as { message: string }).message).toContain("not a regular file");
  });
});

describe("mcpvm ui: approving what was shown", () => {
  it("a definition changed after the page showed it is not approved by the click on the old one", async () => {
    const { home, ui } = await dashboard((starts) => ({ fx: stdioServer(starts) }), []);
    const shown = (await call(ui, "GET", "/api/approvals")).json as { launches: Array<{ name: string; hash: string; definition: { args: string[] } }> };
    const card = shown.launches.find((l) => l.name === "fx");
    expect(card?.hash).toMatch(/^[0-9a-f]{64}$/);
    // Meanwhile (another tab, the CLI, an import) the same name gets another command.
    const file = join(home.dir, "config.json");
    const config = JSON.parse(await readFile(file, "utf8")) as { mcpServers: Record<string, { args: string[] }> };
    (config.mcpServers.fx as { args: string[] }).args = ["-e", "require('fs').writeFileSync('pwned', '1')"];
    await writeFile(file, JSON.stringify(config, null, 2));
    const refused = await call(ui, "POST", "/api/servers/fx/approve", { hash: card?.hash });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ code: "UI_DEFINITION_CHANGED" });
    const state = (await call(ui, "GET", "/api/state")).json as { servers: Array<{ name: string; approval: string }> };
    expect(state.servers.find((s) => s.name === "fx")?.approval).not.toBe("approved");
    // What is shown now can be approved.
    const now = ((await call(ui, "GET", "/api/approvals")).json as typeof shown).launches.find((l) => l.name === "fx");
    expect(now?.definition.args).toContain("-e");
    expect((await call(ui, "POST", "/api/servers/fx/approve", { hash: now?.hash })).status).toBe(200);
  });
});

describe("mcpvm ui: names in the URL", () => {
  it("a name Object.prototype has (constructor, __proto__, toString) is an unknown server, not a crash", async () => {
    const { ui } = await dashboard((starts) => ({ fx: stdioServer(starts) }), []);
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      for (const path of [`/api/servers/${name}`, `/api/servers/${name}/tools`]) {
        const answer = await call(ui, "GET", path);
        expect(answer.status, path).toBe(400);
        expect(answer.json.error, path).toMatchObject({ code: "MCP_SERVER_UNKNOWN", message: `No MCP server named "${name}" is configured (configured: fx).` });
      }
    }
  });

  it("API answers carry the same security headers as the page (docs/UI.md: every response)", async () => {
    const { ui } = await dashboard((starts) => ({ fx: stdioServer(starts) }), []);
    for (const answer of [await call(ui, "GET", "/api/state"), await call(ui, "GET", "/api/state", undefined, "wrong"), await call(ui, "GET", "/api/servers/nope")]) {
      expect(answer.headers).toMatchObject({ "x-content-type-options": "nosniff", "referrer-policy": "no-referrer", "x-frame-options": "DENY", "cache-control": "no-store" });
      expect(answer.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    }
  });

  it("a malformed %-escape in the path is a bad request (400), not an internal error", async () => {
    const { ui } = await dashboard((starts) => ({ fx: stdioServer(starts) }), []);
    const answer = await call(ui, "GET", "/api/servers/%E0%A4%A");
    expect(answer.status).toBe(400);
    expect(answer.json.error).toMatchObject({ code: "UI_BAD_REQUEST" });
  });
});
