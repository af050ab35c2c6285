// Node >= 22.1 can keep V8's compiled code of the CLI's modules between runs (module.enableCompileCache).
// Its default folder is the OS temp folder, shared by every account on the machine: another account can
// create `node-compile-cache` there first and plant entries that V8 would then load as mcpvm's own code.
// So the cache lives only in a folder that is ours alone, or it stays off (it is only an optimisation).
import { lstatSync, mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

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
 * `<cache root>/mcpvm/node-compile-cache`, made 0700 if missing, or undefined when it is not ours alone (a
 * folder another account owns or can write, a link) or cannot be made. On Windows the ACLs of LOCALAPPDATA
 * are per user already, so only the path is made. Never throws (mcpvm runs without the cache).
 * @param {NodeJS.ProcessEnv} env
 * @param {{ platform?: NodeJS.Platform, home?: string, uid?: number }} [where]
 * @returns {string | undefined}
 */
export function privateCompileCacheDir(env, where = {}) {
  try {
    const platform = where.platform ?? process.platform;
    // os.homedir() throws when HOME is unset and the account has no passwd entry (a container run as --user 1234).
    const root = cacheRoot(env, platform, where.home ?? homedir());
    if (root === undefined) return undefined;
    const dir = join(root, "mcpvm", "node-compile-cache");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = where.uid ?? process.getuid?.();
    if (uid === undefined) return dir;
    return isPrivateFolder(dir, uid) && isPrivateFolder(dirname(dir), uid) ? dir : undefined;
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
