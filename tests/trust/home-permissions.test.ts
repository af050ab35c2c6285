import { chmod, chown, lchown, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findHomeProblems, parentsToCheck } from "../../src/config/home-security.js";
import { createLogger } from "../../src/logging/logger.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { cli, makeHome, startCount, stdioServer, writeScript, type TrustHome } from "./helpers.js";

/**
 * Item 7 of the attack review, as the attack: another local account that can write the config
 * home (or owns files in it) must not decide what mcpvm runs. Tests run as root, so "another
 * account" is uid 65534 (nobody) made by chown; the checks must refuse with exit 3 and say how to
 * fix it, and the planted server must never start.
 */
const OTHER = 65534;
const ECHO = `return require("host:mcp-fx").echo({ text: "hi" });`;
const posixRoot = process.getuid?.() === 0;

let homes: TrustHome[] = [];
let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(homes.map((h) => h.cleanup()));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  homes = [];
  dirs = [];
});

async function approvedHome(): Promise<TrustHome> {
  const home = await makeHome({ servers: (starts) => ({ fx: { ...stdioServer(starts), confirm: "never" } }), approve: ["fx"] });
  homes.push(home);
  await writeScript(home, "echo.js", ECHO);
  return home;
}

describe.runIf(posixRoot)("a config home another account can change is refused (exit 3), nothing runs", () => {
  it("control: the approved server runs from a home that is yours alone", async () => {
    const home = await approvedHome();
    const run = await cli(home, ["run", "echo.js"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(ExitCode.Ok);
    expect(startCount(home.starts)).toBe(1);
  });

  it("planted config.json and approved-mcp.json owned by another account: refused before any server starts", async () => {
    const home = await approvedHome();
    await chown(join(home.dir, "config.json"), OTHER, OTHER);
    await chown(join(home.dir, "approved-mcp.json"), OTHER, OTHER);
    const run = await cli(home, ["run", "echo.js"]);
    expect(run.code).toBe(ExitCode.Config);
    expect(run.stderr).toContain("CONFIG_HOME_INSECURE");
    expect(run.stderr).toContain(`${join(home.dir, "config.json")} is owned by uid ${OTHER}, not by you`);
    expect(run.stderr).toContain(`${join(home.dir, "approved-mcp.json")} is owned by uid ${OTHER}`);
    expect(run.stderr).toContain("chown");
    expect(startCount(home.starts)).toBe(0);
  });

  it("a home folder owned by another account is refused", async () => {
    const home = await approvedHome();
    await chown(home.dir, OTHER, OTHER);
    const run = await cli(home, ["run", "echo.js"]);
    expect(run.code).toBe(ExitCode.Config);
    expect(run.stderr).toContain(`${home.dir} is owned by uid ${OTHER}`);
    expect(startCount(home.starts)).toBe(0);
  });

  it("a world-writable home is refused with `chmod 700 <home>`; after the fix it runs", async () => {
    const home = await approvedHome();
    await chmod(home.dir, 0o777);
    const run = await cli(home, ["run", "echo.js"]);
    expect(run.code).toBe(ExitCode.Config);
    expect(run.stderr).toContain(`${home.dir} is a folder writable by other users (mode 777)`);
    expect(run.stderr).toContain(`chmod 700 ${home.dir}`);
    expect(startCount(home.starts)).toBe(0);
    await chmod(home.dir, 0o700);
    expect((await cli(home, ["run", "echo.js"])).code).toBe(ExitCode.Ok);
  });

  it("config.json at 0666 (anyone could point model.baseUrl or a server elsewhere) is refused with `chmod 600`", async () => {
    const home = await approvedHome();
    await chmod(join(home.dir, "config.json"), 0o666);
    const run = await cli(home, ["mcp", "list"]);
    expect(run.code).toBe(ExitCode.Config);
    expect(run.stderr).toContain(`${join(home.dir, "config.json")} is a file writable by other users (mode 666)`);
    expect(run.stderr).toContain(`chmod 600 ${join(home.dir, "config.json")}`);
  });

  it("a symlinked store file is never followed: approved-mcp.json linked to a file elsewhere is refused", async () => {
    const home = await approvedHome();
    const elsewhere = await mkdtemp(join(tmpdir(), "mcpvm-elsewhere-"));
    dirs.push(elsewhere);
    const target = join(elsewhere, "approvals.json");
    await writeFile(target, await readFile(join(home.dir, "approved-mcp.json"), "utf8"), { mode: 0o600 });
    await rm(join(home.dir, "approved-mcp.json"));
    await symlink(target, join(home.dir, "approved-mcp.json"));
    const run = await cli(home, ["run", "echo.js"]);
    expect(run.code).toBe(ExitCode.Config);
    expect(run.stderr).toContain(`${join(home.dir, "approved-mcp.json")} is a symbolic link`);
    expect(startCount(home.starts)).toBe(0);
  });

  it("a file someone else owns anywhere in the home (a user plugin) is refused", async () => {
    const home = await approvedHome();
    await mkdir(join(home.dir, "plugins", "evil"), { recursive: true, mode: 0o700 });
    await chown(join(home.dir, "plugins", "evil"), OTHER, OTHER);
    const run = await cli(home, ["mcp", "list"]);
    expect(run.code).toBe(ExitCode.Config);
    expect(run.stderr).toContain(`${join(home.dir, "plugins", "evil")} is owned by uid ${OTHER}`);
  });
});

describe.runIf(posixRoot)("the folders above the home", () => {
  it("a group/world-writable parent (not sticky) is refused; a sticky one owned by root (like /tmp) is fine", async () => {
    const base = await mkdtemp(join(tmpdir(), "mcpvm-parent-"));
    dirs.push(base);
    const home = join(base, "home");
    await mkdir(home, { mode: 0o700 });
    await chmod(base, 0o777);
    const open = await findHomeProblems(home, { userHome: "/nonexistent-user-home" });
    expect(open.map((p) => `${p.path} ${p.problem}`)).toEqual([`${base} (a folder above the config home) is writable by other users (mode 777)`]);
    await chmod(base, 0o1777);
    expect(await findHomeProblems(home, { userHome: "/nonexistent-user-home" })).toEqual([]);
  });

  it("a parent owned by another account is refused (it could rename the home away and plant its own)", async () => {
    const base = await mkdtemp(join(tmpdir(), "mcpvm-parent-"));
    dirs.push(base);
    const home = join(base, "home");
    await mkdir(home, { mode: 0o700 });
    await chown(base, OTHER, OTHER);
    const problems = await findHomeProblems(home, { userHome: "/nonexistent-user-home" });
    expect(problems.map((p) => p.path)).toEqual([base]);
    expect(problems[0]?.problem).toContain(`owned by uid ${OTHER}`);
  });

  it("parents are checked up to $HOME when the home is inside it, else up to /", () => {
    expect(parentsToCheck("/home/ann/.config/mcpvm", "/home/ann")).toEqual(["/home/ann/.config", "/home/ann"]);
    expect(parentsToCheck("/home/ann/.mcpvm", "/home/ann")).toEqual(["/home/ann"]);
    expect(parentsToCheck("/srv/mcpvm/home", "/home/ann")).toEqual(["/srv/mcpvm", "/srv", "/"]);
    expect(parentsToCheck("/home/ann", "/home/ann")).toEqual(["/home", "/"]);
  });

  it("a missing home has nothing to check (mcpvm creates it 0700)", async () => {
    expect(await findHomeProblems(join(tmpdir(), "mcpvm-does-not-exist-", String(Date.now())))).toEqual([]);
  });
});

describe.runIf(posixRoot)("log files cannot be redirected through a planted symlink", () => {
  const clock = () => new Date("2026-11-25T10:00:00.000Z");

  it("a link named like the next log file is not followed: the victim file is unchanged, the log goes to a new unpredictable name", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-logs-"));
    dirs.push(dir);
    const logs = join(dir, "logs");
    await mkdir(logs, { mode: 0o700 });
    const victim = join(dir, "victim.txt");
    await writeFile(victim, "precious\n", { mode: 0o600 });
    await symlink(victim, join(logs, "mcpvm_2026-11-25T10-00-00-000Z.log"));
    const { logger, file } = createLogger({ level: "debug", logsDir: logs, console: "none", clock });
    logger.error({}, "server stderr: SECRET-LINE");
    logger.flush();
    expect(await readFile(victim, "utf8")).toBe("precious\n");
    expect(file).toMatch(/mcpvm_2026-11-25T10-00-00-000Z_[0-9a-f]{16}\.log$/);
    expect(await readFile(file as string, "utf8")).toContain("SECRET-LINE");
    expect((await stat(file as string)).mode & 0o777).toBe(0o600);
  });

  it("a logs folder that is a link, or owned by another account, gets no log file (stderr only, one warning)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-logs-"));
    dirs.push(dir);
    const elsewhere = join(dir, "elsewhere");
    await mkdir(elsewhere, { mode: 0o700 });
    await symlink(elsewhere, join(dir, "logs"));
    const linked = createLogger({ level: "debug", logsDir: join(dir, "logs"), console: "none", clock });
    expect(linked.file).toBeUndefined();
    expect(linked.fileProblem).toContain("is a symbolic link");
    expect(await readdir(elsewhere)).toEqual([]);

    const foreign = join(dir, "foreign-logs");
    await mkdir(foreign, { mode: 0o700 });
    await lchown(foreign, OTHER, OTHER);
    const owned = createLogger({ level: "debug", logsDir: foreign, console: "none", clock });
    expect(owned.file).toBeUndefined();
    expect(owned.fileProblem).toContain(`owned by uid ${OTHER}`);
  });
});
