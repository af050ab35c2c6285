import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * A config.json with problems in more than one section: CONFIG_INVALID named only the first (the
 * envelope: limits, engine, an unknown key) and hid the broken mcpServers entries until that was
 * fixed, so fixing the file took a round per section. Every problem is listed in one message now
 * (bounded: "… and N more"), and doctor reports each section's problems in one run.
 */

const homes: E2eHome[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.cleanup()));
});

async function homeWith(change: (config: Record<string, unknown> & { mcpServers: Record<string, unknown> }) => void): Promise<E2eHome> {
  const h = await makeHome({ servers: { ok: fixtureServer("/dev/null") } });
  homes.push(h);
  const file = join(h.dir, "config.json");
  const config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown> & { mcpServers: Record<string, unknown> };
  change(config);
  await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  return h;
}

describe("CONFIG_INVALID lists every section's problems", () => {
  it("limits and two broken mcpServers entries: one message, exit 3, in mcp list, run and doctor", async () => {
    const h = await homeWith((config) => {
      config.limits = { cpuMs: -1 };
      config.model = { provider: "openai-compatible", model: "m", maxSteps: 0 };
      config.mcpServers.bad = { command: 5 };
      config.mcpServers.worse = { url: 7 };
    });
    for (const argv of [["mcp", "list"], ["run", "-e", "return 1"]]) {
      const out = await cli(h, argv);
      expect(out.code).toBe(3);
      expect(out.stderr).toContain("[CONFIG_INVALID]");
      expect(out.stderr).toContain("limits.cpuMs: Too small");
      expect(out.stderr).toContain("mcpServers.bad.command: Invalid input: expected string, received number [invalid_type]");
      expect(out.stderr).toContain("mcpServers.worse.url");
    }
    const doctor = await cli(h, ["--json", "doctor"]);
    expect(doctor.code).toBe(3);
    const messages = (JSON.parse(doctor.stdout) as { problems: { message: string; next?: string }[] }).problems.map((p) => p.message).join("\n");
    expect(messages).toContain("limits.cpuMs");
    expect(messages).toContain("mcpServers.bad.command");
    expect(messages).toContain("mcpServers.worse.url");
    expect(messages).toContain("model.maxSteps");
    // Each once: the envelope's problem does not repeat the servers', and remove (which rewrites the file) waits for the envelope.
    expect(messages.split("mcpServers.bad.command")).toHaveLength(2);
    const text = await cli(h, ["doctor"]);
    expect(text.stdout).not.toContain("mcpvm mcp remove");
  });

  it("is bounded: ten problems, then '… and N more'", async () => {
    const h = await homeWith((config) => {
      config.engine = "quickj";
      for (let i = 0; i < 12; i++) config.mcpServers[`bad${i}`] = { command: i };
    });
    const out = await cli(h, ["mcp", "list"]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain("  - engine: Invalid option");
    expect(out.stderr.match(/^ {2}- mcpServers\.bad\d+\.command/gm)).toHaveLength(9);
    expect(out.stderr).toContain("  - … and 3 more");
  });

  it("a config.json that is JSON but not an object (null, a number, a list) is CONFIG_INVALID, exit 3, not an internal error", async () => {
    const h = await homeWith(() => undefined);
    for (const text of ["null", "5", "[]"]) {
      await writeFile(join(h.dir, "config.json"), text, { mode: 0o600 });
      for (const argv of [["mcp", "list"], ["run", "-e", "return 1"], ["mcp", "add", "memory"]]) {
        const out = await cli(h, argv);
        expect(out.stderr, `${text}: ${argv.join(" ")}`).toContain("[CONFIG_INVALID]");
        expect(out.stderr).toContain("(root): Invalid input: expected object");
        expect(out.code).toBe(3);
      }
      const doctor = await cli(h, ["doctor"]);
      expect(doctor.code).toBe(3);
      expect(doctor.stdout).toContain("(root): Invalid input: expected object");
      expect(await readFile(join(h.dir, "config.json"), "utf8")).toBe(text);
    }
  });
});
