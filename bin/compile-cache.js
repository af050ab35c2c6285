// Node >= 22.1 can keep V8's compiled code of the CLI's modules between runs (module.enableCompileCache).
// Its default folder is the OS temp folder, shared by every account on the machine: another account can
// create `node-compile-cache` there first and plant entries that V8 would then load as mcpvm's own code.
// So the cache lives only in a folder that is ours alone, or it stays off (it is only an optimisation).
import { lstatSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/**
 * The per-user cache root: $XDG_CACHE_HOME when it is absolute (the XDG rule), else the platform's.
 * @param {NodeJS.ProcessEnv} env
 * @param {NodeJS.Platform} platform
 * @param {string} home
 * @returns {string | undefined}
 */
export function cacheRoot(env, platform, home) {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg !== undefined && isAbsolute(xdg)) return xdg;
  if (platform === "win32") return env.LOCALAPPDATA && isAbsolute(env.LOCALAPPDATA) ? env.LOCALAPPDATA : undefined;
  if (!home || !isAbsolute(home)) return undefined;
  return platform === "darwin" ? join(home, "Library", "Caches") : join(home, ".cache");
}

/**
 * Whether `path` is a real folder (not a link) that this account owns and no other account can write.
 * @param {string} path
 * @param {number} uid
 */
function isPrivateFolder(path, uid) {
  const info = lstatSync(path);
  return info.isDirectory() && !info.isSymbolicLink() && info.uid === uid && (info.mode & 0o022) === 0;
}

/**
 * Whether no other account can rename or replace what is in the folder `path` (a folder above the cache):
 * owned by this account or root, and not writable by group or others unless sticky (like /tmp, where only an
 * entry's owner can move it). The config home's parents follow the same rule (src/config/home-security.ts).
 * @param {string} path
 * @param {number} uid
 */
function isSafeParent(path, uid) {
  const info = statSync(path);
  return info.isDirectory() && (info.uid === uid || info.uid === 0) && ((info.mode & 0o022) === 0 || (info.mode & 0o1000) !== 0);
}

/**
 * The home with its links resolved, or undefined when there is none to resolve.
 * @param {string} home
 */
function resolvedHome(home) {
  try {
    return home && isAbsolute(home) ? realpathSync(home) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `<cache root>/mcpvm/node-compile-cache`, made 0700 if missing, or undefined when it is not ours alone (a
 * folder another account owns or can write, a link, a folder above it that another account could rename it
 * out of and put its own in its place, even after this check) or cannot be made. The path returned has its
 * links resolved: the one checked is the one Node uses. On Windows the ACLs of LOCALAPPDATA are per user
 * already, so only the path is made. Never throws (mcpvm runs without the cache).
 * @param {NodeJS.ProcessEnv} env
 * @param {{ platform?: NodeJS.Platform, home?: string, uid?: number }} [where]
 * @returns {string | undefined}
 */
export function privateCompileCacheDir(env, where = {}) {
  try {
    const platform = where.platform ?? process.platform;
    // os.homedir() throws when HOME is unset and the account has no passwd entry (a container run as --user 1234).
    const home = where.home ?? homedir();
    const root = cacheRoot(env, platform, home);
    if (root === undefined) return undefined;
    const dir = join(root, "mcpvm", "node-compile-cache");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = where.uid ?? process.getuid?.();
    if (uid === undefined) return dir;
    // Checked where its links lead, and that path given to Node: a link swapped after the check changes nothing.
    const realRoot = realpathSync(root);
    const real = join(realRoot, "mcpvm", "node-compile-cache");
    if (!isPrivateFolder(real, uid) || !isPrivateFolder(dirname(real), uid)) return undefined;
    // The folders above: up to and including the home when the cache is inside it, else up to /.
    const realHome = resolvedHome(home);
    const fromHome = realHome === undefined ? ".." : relative(realHome, realRoot);
    const inHome = fromHome !== ".." && !fromHome.startsWith(`..${sep}`) && !isAbsolute(fromHome);
    for (let at = realRoot; ; at = dirname(at)) {
      if (!isSafeParent(at, uid)) return undefined;
      if ((inHome && at === realHome) || dirname(at) === at) break;
    }
    return real;
  } catch {
    return undefined;
  }
}

/**
 * Turns the compile cache on where Node has one: in the folder NODE_COMPILE_CACHE names (the person chose it),
 * else in the private folder above; nothing when NODE_DISABLE_COMPILE_CACHE is set or no private folder exists.
 * Never throws: the cache is only speed, and a failure here would stop every command, --help and Tab included.
 * @param {{ enableCompileCache?: (dir?: string) => unknown }} nodeModule
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | undefined} the folder asked for, or undefined when the cache stays off
 */
export function enablePrivateCompileCache(nodeModule, env) {
  if (typeof nodeModule.enableCompileCache !== "function" || env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  try {
    if (env.NODE_COMPILE_CACHE) {
      nodeModule.enableCompileCache();
      return env.NODE_COMPILE_CACHE;
    }
    const dir = privateCompileCacheDir(env);
    if (dir !== undefined) nodeModule.enableCompileCache(dir);
    return dir;
  } catch {
    return undefined;
  }
}
