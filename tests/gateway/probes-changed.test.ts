import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGateway } from "../../src/gateway/index.js";
import { fixtureServer, makeHome, type TestHome } from "./helpers.js";

const TOKEN = "probe-token-0123456789abcdef";

/** A rollout whose approvals no longer match (a rebuilt image, an edited definition) must not look ready. */
describe("/readyz with a server that no longer matches its approval", () => {
  let home: TestHome;

  beforeAll(async () => {
    home = await makeHome({ servers: { good: fixtureServer("/dev/null"), drifted: fixtureServer("/dev/null"), waiting: fixtureServer("/dev/null") }, approve: ["good", "drifted"] });
    const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as { mcpServers: Record<string, { env: Record<string, string> }> };
    (config.mcpServers.drifted as { env: Record<string, string> }).env.MCPVM_FIXTURE_ARGS = "--mode changed-after-approval";
    await writeFile(join(home.dir, "config.json"), JSON.stringify(config), { mode: 0o600 });
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  it("answers 503 naming the changed server; a server never approved (the person's choice) does not count", async () => {
    const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token: TOKEN, logLevel: "silent" });
    try {
      const base = new URL(running.url as string);
      expect((await fetch(new URL("/healthz", base))).status).toBe(200);
      const readyz = await fetch(new URL("/readyz", base));
      expect(readyz.status).toBe(503);
      expect(await readyz.json()).toEqual({ status: "not ready", failing: 1 });
      const detailed = (await (await fetch(new URL("/readyz", base), { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as { failing: Array<{ server: string; message: string }> };
      expect(detailed.failing.map((f) => f.server)).toEqual(["drifted"]);
      expect(detailed.failing[0]?.message).toMatch(/changed since it was approved/);
    } finally {
      await running.close();
    }
  });
});
