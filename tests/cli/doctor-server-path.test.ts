import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, FIXTURE, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * A stdio server is spawned with its own PATH when its env sets one, `${VAR}`s filled in
 * (`mcpvm mcp add x -e PATH=/opt/x/bin:${PATH} -- mytool`). Doctor used that PATH only when it was
 * literal: with a variable in it, doctor looked on mcpvm's PATH and called the command missing, or
 * named another program than the one the launch runs and the approval pins. Real homes, a real
 * fixture server behind a wrapper script, real spawns (doctor --connect).
 */

interface Report {
  problems: { message: string; next?: string }[];
  servers: { name: string; resolvedCommand?: string; connect?: { ok: boolean } }[];
}

const homes: E2eHome[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.cleanup()));
});

async function script(dir: string, name: string, body: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

async function doctor(h: E2eHome, ...args: string[]): Promise<{ code: number; report: Report }> {
  const out = await cli(h, ["--json", "doctor", ...args]);
  return { code: out.code, report: JSON.parse(out.stdout) as Report };
}

const notFound = (report: Report): string[] => report.problems.map((p) => p.message).filter((m) => m.includes("is not found"));

describe("doctor looks a stdio server's command up where its launch does", () => {
  it("on the server's own PATH with ${PATH} filled in: the program the pin records and the spawn runs, not one earlier on mcpvm's PATH", async () => {
    const h = await makeHome({
      servers: (dir) => ({ tool: fixtureServer(join(dir, "tool.starts"), "", { command: "fixture-mcp-zz", args: [], env: { PATH: `${join(dir, "real-bin")}:\${PATH}` } }) }),
      approve: [],
    });
    homes.push(h);
    const real = await script(join(h.dir, "real-bin"), "fixture-mcp-zz", `exec "${process.execPath}" "${FIXTURE}" "$@"`);
    const decoyRan = join(h.dir, "decoy-ran");
    const decoyBin = join(h.dir, "decoy-bin");
    await script(decoyBin, "fixture-mcp-zz", `touch "${decoyRan}"; exit 1`);
    const approve = await cli(h, ["--yes", "mcp", "approve", "tool", "--accept-launch-env"]);
    expect(approve.code, approve.stderr).toBe(0);
    const pinned = (JSON.parse(await readFile(join(h.dir, "approved-mcp.json"), "utf8")) as { servers: Record<string, { runs?: { executable: string } }> }).servers.tool?.runs?.executable;
    expect(pinned).toBe(real);

    // Before: "command "fixture-mcp-zz" is not found on PATH" (mcpvm's PATH has no such program).
    const plain = await doctor(h);
    expect(notFound(plain.report)).toEqual([]);
    expect(plain.code).toBe(0);
    expect(plain.report.servers.find((s) => s.name === "tool")?.resolvedCommand).toBe(real);

    // Before: the decoy on mcpvm's PATH was named, while the launch runs the server's own.
    const decoyed = { ...h, env: { ...h.env, PATH: `${decoyBin}:${h.env.PATH}` } };
    const connected = await doctor(decoyed, "--connect");
    expect(connected.report.servers.find((s) => s.name === "tool")).toMatchObject({ resolvedCommand: real, connect: { ok: true } });
    expect(connected.code).toBe(0);
    expect(existsSync(decoyRan)).toBe(false);
  }, 120_000);

  it("a command in none of the server's PATH folders is missing, said as on the PATH in its env", async () => {
    const h = await makeHome({ servers: (dir) => ({ tool: { command: "other-tool-zz", env: { PATH: `${join(dir, "real-bin")}:\${PATH}` } } }), approve: [] });
    homes.push(h);
    // Approving starts it: the spawn's failure names the PATH searched too (before: "the PATH mcpvm was started with").
    const approve = await cli(h, ["--yes", "mcp", "approve", "tool", "--accept-launch-env"]);
    expect(approve.stderr).toContain('command "other-tool-zz" failed to start (ENOENT). Check the command name and that it is in a folder of the PATH the server\'s env sets.');
    const { code, report } = await doctor(h);
    expect(code).not.toBe(0);
    expect(notFound(report)).toEqual(['command "other-tool-zz" is not found on the PATH in its env']);
    expect(report.problems.find((p) => p.message.includes("other-tool-zz"))?.next).toContain(`${join(h.dir, "real-bin")}, `);
  }, 120_000);

  it("an empty PATH element is the server's cwd, as to the spawn (and the approval pin)", async () => {
    const h = await makeHome({
      servers: (dir) => ({ tool: fixtureServer(join(dir, "tool.starts"), "", { command: "fixture-mcp-zz", args: [], cwd: join(dir, "work"), env: { PATH: ":${PATH}" } }) }),
      approve: [],
    });
    homes.push(h);
    const inCwd = await script(join(h.dir, "work"), "fixture-mcp-zz", `exec "${process.execPath}" "${FIXTURE}" "$@"`);
    expect((await cli(h, ["--yes", "mcp", "approve", "tool", "--accept-launch-env"])).code).toBe(0);
    // Before: empty elements were skipped and the command reported missing, though it starts.
    const { code, report } = await doctor(h, "--connect");
    expect(notFound(report)).toEqual([]);
    expect(report.servers.find((s) => s.name === "tool")).toMatchObject({ resolvedCommand: inCwd, connect: { ok: true } });
    expect(code).toBe(0);
  }, 120_000);

  it("a command or cwd written with a ${VAR} is checked with it filled in", async () => {
    const h = await makeHome({ servers: { tool: { command: "${DOCTOR_TOOL_DIR_ZZ}/none-zz", cwd: "${HOME}" } } });
    homes.push(h);
    const { code, report } = await doctor({ ...h, env: { ...h.env, DOCTOR_TOOL_DIR_ZZ: join(h.dir, "nowhere") } });
    expect(code).toBe(6);
    expect(notFound(report)).toEqual([`command "${join(h.dir, "nowhere")}/none-zz" is not found (from ${h.dir})`]);
  }, 120_000);
});
