import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rename, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The package as npm ships it: `npm pack` of this checkout (the "files" list, no scripts), unpacked
 * into node_modules/mcpvm of a temporary project whose other node_modules entries are the production
 * dependencies only (linked from this checkout's node_modules: no network, nothing outside the checkout). Its
 * bin/mcpvm.js runs the bundled CLI from dist/cli, the QuickJS worker and wasm from the
 * dependencies, and the native plugins from dist/plugins — as a user's install would.
 *
 * Needs the build (`npm run build`, which `npm ci` runs through "prepare").
 */
const ROOT = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
let work: string;
let bin: string;
let home: string;

/** Names of the production dependency closure, as installed (hoisted) in this checkout's node_modules. */
function productionDependencies(): string[] {
  const seen = new Set<string>();
  const visit = (name: string): void => {
    if (seen.has(name)) return;
    const manifest = join(ROOT, "node_modules", name, "package.json");
    if (!existsSync(manifest)) return; // an optional dependency for another platform; nested copies travel with their parent
    seen.add(name);
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies })) visit(dep);
  };
  const own = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  for (const dep of Object.keys(own.dependencies)) visit(dep);
  return [...seen];
}

const mcpvm = (args: readonly string[]) =>
  run(process.execPath, [bin, ...args], { env: { ...process.env, MCPVM_HOME: home }, cwd: work }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({ code: error.code ?? -1, stdout: error.stdout ?? "", stderr: error.stderr ?? "" }),
  );

beforeAll(async () => {
  if (!existsSync(join(ROOT, "dist", "cli", "main.mjs")) || !existsSync(join(ROOT, "dist", "plugins", "mcp", "index.js"))) {
    throw new Error("the build is missing: run `npm run build` first (npm ci runs it through prepare)");
  }
  work = await mkdtemp(join(tmpdir(), "mcpvm-packed-"));
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  const modules = join(work, "node_modules");
  await mkdir(modules, { recursive: true });
  await run("tar", ["-xzf", join(work, filename), "-C", modules]);
  await rename(join(modules, "package"), join(modules, "mcpvm"));
  for (const name of productionDependencies()) {
    if (name.includes("/")) await mkdir(join(modules, name.split("/")[0] as string), { recursive: true });
    await symlink(join(ROOT, "node_modules", name), join(modules, name), "dir");
  }
  bin = join(modules, "mcpvm", "bin", "mcpvm.js");
  home = join(work, "home");
  await mkdir(home, { mode: 0o700 });
}, 180_000);

afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

describe("the packed package, installed", () => {
  it("ships the bundle, not the sources", () => {
    const pkg = join(work, "node_modules", "mcpvm");
    expect(existsSync(join(pkg, "dist", "cli", "main.mjs"))).toBe(true);
    // zod as one file for the CLI and the native plugins (scripts/build-cli.mjs, buildSharedZod).
    expect(existsSync(join(pkg, "dist", "node_modules", "zod", "index.js"))).toBe(true);
    expect(existsSync(join(pkg, "src"))).toBe(false);
    expect(existsSync(join(pkg, "tests"))).toBe(false);
  });

  it("`mcpvm run -e` runs guest code in the QuickJS worker", async () => {
    const out = await mcpvm(["run", "-e", "const xs = [1, 2, 3]; return xs.map((x) => x * 2)"]);
    expect(out.stderr).toBe("");
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual([2, 4, 6]);
    const failed = await mcpvm(["run", "-e", "throw new TypeError('nope')"]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain("nope");
    // The guest's functions keep their names in the bundle (the bundler renames a `require` of its own to require2).
    const named = await mcpvm(["run", "-e", 'try { require("host:nope"); } catch (e) { return [require.name, e.stack]; }']);
    const [name, stack] = JSON.parse(named.stdout) as [string, string];
    expect(name).toBe("require");
    expect(stack).toMatch(/at require \(mcpvm-modules\.js:\d+:\d+\)/);
  }, 60_000);

  it("with the mcp plugin approved and enabled (dist/plugins) and a server configured, `run` does not start the server", async () => {
    const marker = join(work, "server-started");
    await writeFile(
      join(home, "config.json"),
      JSON.stringify({ engine: "quickjs", mcpServers: { marker: { command: process.execPath, args: ["-e", `require("node:fs").writeFileSync(${JSON.stringify(marker)}, "")`] } } }),
    );
    expect((await mcpvm(["plugin", "approve", "mcp", "--yes"])).code).toBe(0);
    expect((await mcpvm(["plugin", "enable", "mcp"])).code).toBe(0);
    const out = await mcpvm(["run", "--json", "-e", "return typeof tools.marker"]);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ ok: true, result: "object" });
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it("help, usage errors and shell completion work from the bundle", async () => {
    expect((await mcpvm(["--help"])).stdout).toContain("Commands:");
    expect((await mcpvm(["run", "--help"])).stdout).toContain("Usage: mcpvm run");
    const wrong = await mcpvm(["rn"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('did you mean "run"?');
    expect((await mcpvm(["__complete", "pl"])).stdout).toContain("plugin");
  }, 60_000);
});
