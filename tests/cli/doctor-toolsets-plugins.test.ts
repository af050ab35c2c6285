import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ToolsetStore } from "../../src/gateway/toolsets/store.js";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * `mcpvm doctor` said "No problems found" with a toolset naming a server that is no longer
 * configured, and with an enabled user plugin that cannot load (listed as "boom (enabled)"). Both
 * are reported now, in the text and in --json, with what to run; `mcp remove` names the toolsets
 * that still name the server it removed. Real homes, the real CLI, a real plugin folder.
 */

interface Problem {
  severity: string;
  kind: string;
  subject: string;
  message: string;
  next?: string;
  code?: string;
}
interface Report {
  exitCode: number;
  problems: Problem[];
  plugins: { name: string; state: string; loadError?: string }[];
}

const homes: E2eHome[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.cleanup()));
});

async function home(): Promise<E2eHome> {
  const h = await makeHome({ servers: { notes: fixtureServer("/dev/null"), gone: fixtureServer("/dev/null"), spare: fixtureServer("/dev/null") } });
  homes.push(h);
  return h;
}

async function doctorJson(h: E2eHome): Promise<{ code: number; report: Report }> {
  const out = await cli(h, ["--json", "doctor"]);
  return { code: out.code, report: JSON.parse(out.stdout) as Report };
}

describe("doctor and toolsets that name a server no longer configured", () => {
  it("mcp remove names the toolsets; doctor warns with the command that rebuilds or deletes each (exit 0: the gateway equips them without those tools)", async () => {
    const h = await home();
    const toolsets = new ToolsetStore(join(h.dir, "toolsets.json"));
    await toolsets.save({ name: "daily", tools: ["notes.echo", "gone.echo", "gone.add"], description: "Bob's day" });
    await toolsets.save({ name: "only-gone", tools: ["gone.echo"] });
    await toolsets.save({ name: "fine", tools: ["notes.echo"] });
    await toolsets.save({ name: "spare-set", tools: ["spare.echo"] });

    const removed = await cli(h, ["mcp", "remove", "gone"]);
    expect(removed.code).toBe(0);
    expect(removed.stderr).toContain("mcpvm: warning: 2 toolsets still name gone: daily (gone.echo, gone.add), only-gone (gone.echo)");
    const json = await cli(h, ["--json", "mcp", "remove", "spare"]);
    expect(JSON.parse(json.stdout)).toMatchObject({ removed: "spare", toolsets: ["spare-set"] });

    const text = await cli(h, ["doctor"]);
    expect(text.stdout).not.toContain("No problems found");
    expect(text.stdout).toContain('toolset daily: toolset "daily" names gone, which is no longer configured (gone.echo, gone.add)');
    expect(text.stdout).toContain("mcpvm toolset build daily notes.echo --description 'Bob'\\''s day'");
    expect(text.stdout).toContain("mcpvm toolset delete only-gone");
    const { code, report } = await doctorJson(h);
    expect(code).toBe(0);
    expect(report.exitCode).toBe(0);
    expect(report.problems.find((p) => p.subject === "toolset spare-set")?.next).toContain("mcpvm toolset delete spare-set");
    const daily = report.problems.find((p) => p.subject === "toolset daily");
    expect(daily).toMatchObject({ severity: "warning", kind: "config" });
    expect(daily?.next).toContain("mcpvm toolset show daily --check");
    expect(report.problems.find((p) => p.subject === "toolset only-gone")?.message).toContain("equipped, it has no tools at all");
    expect(report.problems.some((p) => p.subject === "toolset fine")).toBe(false);
  });
});

describe("doctor and an enabled user plugin that cannot load", () => {
  it("is an error (exit 3, PLUGIN_LOAD_FAILED) naming plugin disable, and the plugins line says it does not load", async () => {
    const h = await home();
    const dir = join(h.dir, "plugins", "boom");
    await mkdir(dir, { recursive: true });
    const manifest = { name: "boom", version: "1.0.0", description: "Fails to start.", entry: "index.mjs", hostModules: [{ name: "boom", description: "Nothing.", functions: { hello: "Says hello." } }], capabilities: [], hints: [] };
    await writeFile(join(dir, "plugin.json"), JSON.stringify(manifest));
    await writeFile(join(dir, "index.mjs"), `export default { name: "boom", declaredModules: ["boom"], createHostFunctions() { throw new Error("the boom service is not configured"); } };\n`);
    const host = await h.open();
    try {
      await host.plugins.approve("boom");
    } finally {
      await host.close();
    }
    const file = join(h.dir, "config.json");
    const config = JSON.parse(await readFile(file, "utf8")) as { plugins: Record<string, unknown> };
    config.plugins.boom = { enabled: true };
    await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });

    const text = await cli(h, ["doctor"]);
    expect(text.code).toBe(3);
    expect(text.stdout).toContain("boom (enabled, does not load)");
    expect(text.stdout).toContain("plugin boom: createHostFunctions failed: the boom service is not configured");
    const { code, report } = await doctorJson(h);
    expect(code).toBe(3);
    expect(report.problems).toContainEqual(expect.objectContaining({ severity: "error", kind: "config", subject: "plugin boom", code: "PLUGIN_LOAD_FAILED", next: "fix the plugin or its config (mcpvm plugin config boom), or stop loading it: mcpvm plugin disable boom" }));
    expect(report.plugins.find((p) => p.name === "boom")).toMatchObject({ state: "enabled", loadError: expect.stringContaining("createHostFunctions failed") });
    expect(report.plugins.find((p) => p.name === "mcp")).not.toHaveProperty("loadError");

    await cli(h, ["plugin", "disable", "boom"]);
    expect((await cli(h, ["doctor"])).code).toBe(0);
  });
});
