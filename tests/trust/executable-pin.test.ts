import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compareLaunchTargets, findExecutable, resolveLaunchTarget } from "../../src/mcp/approval/index.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { cli, makeHome, type E2eHome } from "../e2e/helpers.js";
import { SCRIPTED } from "./helpers.js";

const REAL_NODE_DIR = dirname(process.execPath);

/** A `node` that records it ran, then runs the real one: what a planted binary earlier on PATH looks like. */
async function fakeNode(dir: string, marker: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, "node");
  await writeFile(file, `#!/bin/sh\necho ran >> ${JSON.stringify(marker)}\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
  await chmod(file, 0o755);
  return file;
}

describe("what a launch resolves to", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "mcpvm-target-"));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("finds the executable the spawn would run, on the child's PATH, and notices one planted earlier", async () => {
    const before = resolveLaunchTarget({ command: "node", args: [], env: { PATH: REAL_NODE_DIR }, cwd: dir });
    expect(before.executable).toBe(process.execPath);
    const planted = await fakeNode(join(dir, "evil-bin"), join(dir, "marker"));
    const after = resolveLaunchTarget({ command: "node", args: [], env: { PATH: `${join(dir, "evil-bin")}:${REAL_NODE_DIR}` }, cwd: dir });
    expect(after.executable).toBe(planted);
    // A shell script names its interpreter; it is recorded too.
    expect(after.interpreter).toBe("/bin/sh");
    expect(compareLaunchTargets(before, after)).toEqual([`executable: ${process.execPath} -> ${planted}`, "interpreter: (none) -> /bin/sh"]);
    expect(resolveLaunchTarget({ command: "no-such-program-xyz", args: [], env: { PATH: REAL_NODE_DIR }, cwd: dir }).executable).toBeNull();
  });

  it("follows `#!/usr/bin/env node` to the node on PATH (an npx script)", async () => {
    const bin = join(dir, "npx-bin");
    await mkdir(bin, { recursive: true });
    await writeFile(join(bin, "npx"), "#!/usr/bin/env node\nconsole.log('npx')\n");
    await chmod(join(bin, "npx"), 0o755);
    const real = resolveLaunchTarget({ command: "npx", args: ["-y", "some-server"], env: { PATH: `${bin}:${REAL_NODE_DIR}`, HOME: dir }, cwd: dir });
    expect(real.interpreter).toBe(process.execPath);
    const planted = await fakeNode(join(dir, "evil2"), join(dir, "marker2"));
    const later = resolveLaunchTarget({ command: "npx", args: ["-y", "some-server"], env: { PATH: `${join(dir, "evil2")}:${bin}:${REAL_NODE_DIR}`, HOME: dir }, cwd: dir });
    expect(later.executable).toBe(join(bin, "npx"));
    expect(later.interpreter).toBe(planted);
    expect(compareLaunchTargets(real, later)).toEqual([`interpreter: ${process.execPath} -> ${planted}`]);
  });

  it("reads the npx package version without the network: exact spec, local node_modules, npx cache; says when it cannot", async () => {
    const cache = join(dir, "npm-cache");
    const env = { PATH: REAL_NODE_DIR, npm_config_cache: cache };
    const unresolved = resolveLaunchTarget({ command: "npx", args: ["-y", "@acme/mcp-server"], env, cwd: dir });
    expect(unresolved.package).toMatchObject({ runner: "npx", name: "@acme/mcp-server" });
    expect(unresolved.package?.version).toBeUndefined();
    expect(unresolved.package?.source).toContain("not in the npx cache");

    const installed = join(cache, "_npx", "0123abcd", "node_modules", "@acme", "mcp-server");
    await mkdir(installed, { recursive: true });
    await writeFile(join(installed, "package.json"), JSON.stringify({ name: "@acme/mcp-server", version: "1.0.0" }));
    const cached = resolveLaunchTarget({ command: "npx", args: ["-y", "@acme/mcp-server"], env, cwd: dir });
    expect(cached.package).toMatchObject({ version: "1.0.0", source: "npx cache" });
    // A version first learnt after approval is not a change; a different one later is.
    expect(compareLaunchTargets(unresolved, cached)).toEqual([]);
    await writeFile(join(installed, "package.json"), JSON.stringify({ name: "@acme/mcp-server", version: "1.0.1" }));
    const updated = resolveLaunchTarget({ command: "npx", args: ["-y", "@acme/mcp-server"], env, cwd: dir });
    expect(compareLaunchTargets(cached, updated)).toEqual(["npx package @acme/mcp-server: 1.0.0 -> 1.0.1"]);

    const project = join(dir, "project");
    await mkdir(join(project, "node_modules", "@acme", "mcp-server"), { recursive: true });
    await writeFile(join(project, "node_modules", "@acme", "mcp-server", "package.json"), JSON.stringify({ version: "0.9.0" }));
    expect(resolveLaunchTarget({ command: "npx", args: ["@acme/mcp-server"], env, cwd: project }).package).toMatchObject({ version: "0.9.0" });
    expect(resolveLaunchTarget({ command: "npx", args: ["-y", "@acme/mcp-server@2.1.0"], env, cwd: dir }).package).toMatchObject({ version: "2.1.0", source: "exact version in the arguments" });
    expect(resolveLaunchTarget({ command: "uvx", args: ["mcp-server-time==0.6.2"], env, cwd: dir }).package).toMatchObject({ runner: "uvx", name: "mcp-server-time", version: "0.6.2" });
    expect(resolveLaunchTarget({ command: "uvx", args: ["mcp-server-time"], env, cwd: dir }).package?.version).toBeUndefined();
  });
});

describe("approval pins what actually runs", () => {
  let home: E2eHome;
  let evilBin: string;
  const marker = () => join(home.dir, "fake-node-ran");

  beforeAll(async () => {
    home = await makeHome({
      // `node` as written in most MCP configs: found on PATH at every start.
      servers: (dir) => ({ notes: { command: "node", args: [SCRIPTED, join(dir, "notes.spec.json")], confirm: "never" } }),
    });
    await writeFile(join(home.dir, "notes.spec.json"), JSON.stringify({ tools: [{ name: "note", description: "Return a note.", annotations: { readOnlyHint: true } }] }));
    evilBin = join(home.dir, "evil-bin");
  }, 60_000);
  afterAll(async () => home.cleanup());

  it("records the resolved executable at approval", async () => {
    const approvals = JSON.parse(await readFile(join(home.dir, "approved-mcp.json"), "utf8"));
    const node = findExecutable("node", home.env.PATH ?? "", home.dir);
    expect(node).toBeDefined();
    expect(approvals.servers.notes.runs).toEqual({ executable: node });
    const ok = await cli(home, ["run", "-e", `return require("host:mcp-notes").note({ id: "a" })`]);
    expect(ok.code, ok.stderr).toBe(ExitCode.Ok);
  }, 30_000);

  it("a node planted earlier on PATH after approval does not run: shown, refused, recorded, until re-approved", async () => {
    await fakeNode(evilBin, marker());
    const planted = { ...home, env: { ...home.env, PATH: `${evilBin}:${home.env.PATH}` } };
    const refused = await cli(planted, ["run", "-e", `return require("host:mcp-notes").note({ id: "a" })`]);
    expect(refused.code).toBe(ExitCode.ApprovalRequired);
    // Guest-visible text shows the config home as <mcpvm-home>.
    expect(refused.stderr).toContain("MCP_EXECUTABLE_CHANGED");
    expect(refused.stderr).toContain("-> <mcpvm-home>/evil-bin/node");
    expect(existsSync(marker())).toBe(false);

    const list = await cli(planted, ["--json", "mcp", "list"]);
    expect(JSON.stringify(JSON.parse(list.stdout))).toContain('"changed"');
    const log = await cli(planted, ["--json", "audit", "log", "--event", "mcp.executable.changed"]);
    expect(JSON.parse(log.stdout).entries).toHaveLength(1);

    const approve = await cli(planted, ["--yes", "mcp", "approve", "notes"]);
    expect(approve.code, approve.stderr).toBe(ExitCode.Ok);
    expect(approve.stderr).toContain(`executable: ${findExecutable("node", home.env.PATH ?? "", home.dir)} -> ${join(evilBin, "node")}`);
    const ran = await cli(planted, ["run", "-e", `return require("host:mcp-notes").note({ id: "b" })`]);
    expect(ran.code, ran.stderr).toBe(ExitCode.Ok);
    expect(existsSync(marker())).toBe(true);

    // And back: the original node is now the change.
    const back = await cli(home, ["run", "-e", `return require("host:mcp-notes").note({ id: "c" })`]);
    expect(back.code).toBe(ExitCode.ApprovalRequired);
  }, 60_000);
});
