import type { Stats } from "node:fs";
import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { dirname, join, relative, isAbsolute } from "node:path";
import { McpvmError } from "../util/errors.js";
import { userHome as accountHome } from "../util/user-home.js";
import { currentIdentity, entryProblems, type HomeProblem, type Identity } from "../util/own-file.js";

export { currentIdentity, readOwnFile, type HomeProblem, type Identity } from "../util/own-file.js";

/**
 * The config home decides what runs (config.json, approvals, pins, plugins), so on a shared machine
 * it must be writable by nobody else: another account that can plant or edit a file there can make
 * you run its server with no prompt, or point `model.baseUrl` at its own listener. These checks
 * use lstat (never following a planted symlink) and refuse, with the commands that fix it, when
 * the home, a parent folder or any file in it is owned by someone else or writable by group/others.
 * CONFIG_: exit code 3.
 */
export class HomeSecurityError extends McpvmError<"CONFIG_HOME_INSECURE"> {}

/** Store files: refused when they are symlinks (a link would let a writer elsewhere decide their content). */
export const STATE_FILE_NAMES: readonly string[] = [
  "config.json",
  "approved-mcp.json",
  "approved-plugins.json",
  "mcp-pins.json",
  "toolsets.json",
  "server-status.json",
  "profile-state.json",
  "gateway-token",
  "gateway-clients.json",
  "gateway-session-key",
  "history",
  "logs",
];

/** Sub-folders whose direct entries are checked too (log files, user plugins). */
const CHECKED_SUBDIRS: readonly string[] = ["logs", "plugins"];

const GROUP_OR_WORLD_WRITE = 0o022;
const STICKY = 0o1000;

/**
 * A folder above the home: others must not be able to replace the home by renaming. Owned by you
 * or root, and not group/world-writable unless sticky (like /tmp), where only the owner of an
 * entry can rename it.
 */
export function parentProblems(path: string, info: Stats, me: Identity): HomeProblem[] {
  const problems: HomeProblem[] = [];
  if (info.uid !== me.uid && info.uid !== 0) {
    problems.push({ path, problem: `(a folder above the config home) is owned by uid ${info.uid}, neither you nor root`, fix: `move the config home elsewhere (MCPVM_HOME=~/.mcpvm)` });
  }
  if ((info.mode & GROUP_OR_WORLD_WRITE) !== 0 && (info.mode & STICKY) === 0) {
    problems.push({ path, problem: `(a folder above the config home) is writable by other users (mode ${(info.mode & 0o7777).toString(8)})`, fix: `chmod go-w ${path}   # or move the config home elsewhere` });
  }
  return problems;
}

/** The folders above `dir` to check: up to and including $HOME when inside it, else up to /. */
export function parentsToCheck(dir: string, userHome: string): string[] {
  const rel = relative(userHome, dir);
  const inside = rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
  const parents: string[] = [];
  let current = dirname(dir);
  while (true) {
    parents.push(current);
    if (inside && current === userHome) break;
    const up = dirname(current);
    if (up === current) break;
    current = up;
  }
  return parents;
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Every problem of the home, its parents and its entries (empty: safe to trust). A missing home has none. */
export async function findHomeProblems(home: string, options: { readonly userHome?: string; readonly identity?: Identity } = {}): Promise<HomeProblem[]> {
  const me = options.identity ?? currentIdentity();
  if (me === undefined) return [];
  const linkInfo = await lstatOrUndefined(home);
  if (linkInfo === undefined) return [];
  const problems: HomeProblem[] = [];
  let real = home;
  if (linkInfo.isSymbolicLink()) {
    // A home that is a link (to a dotfiles folder) is allowed when the link itself is yours; the
    // folder it points to is then checked like the home.
    problems.push(...entryProblems(home, linkInfo, me, { symlinkAllowed: true }));
    real = await realpath(home);
  }
  const info = await stat(real);
  if (!info.isDirectory()) return [...problems, { path: home, problem: "is not a folder", fix: `set MCPVM_HOME to a folder` }];
  problems.push(...entryProblems(real, info, me, { symlinkAllowed: false }));
  // With no home folder every parent up to the root is checked, as for a config home outside it.
  const accountFolder = options.userHome ?? accountHome() ?? "/";
  const userHome = await realpath(accountFolder).catch(() => accountFolder);
  for (const parent of parentsToCheck(real, userHome)) {
    const parentInfo = await stat(parent);
    problems.push(...parentProblems(parent, parentInfo, me));
  }
  if (real !== home) for (const parent of parentsToCheck(home, userHome)) problems.push(...parentProblems(parent, await stat(parent), me));
  problems.push(...(await entriesProblems(real, me)));
  return dedupe(problems);
}

async function entriesProblems(dir: string, me: Identity): Promise<HomeProblem[]> {
  const problems: HomeProblem[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    // A root-owned home mcpvm may trust but not read: a container whose user is not the one that
    // prepared the mounted home (docs/DEPLOY.md).
    if ((error as NodeJS.ErrnoException).code !== "EACCES") throw error;
    return [{ path: dir, problem: `cannot be read by you (${me.name}, uid ${me.uid})`, fix: `sudo chown -R ${me.uid} ${dir}   # the config home must belong to the user mcpvm runs as` }];
  }
  for (const name of names) {
    // Lock folders (proper-lockfile) exist only during a write and are never read.
    if (name.endsWith(".lock")) continue;
    const path = join(dir, name);
    const info = await lstatOrUndefined(path);
    if (info === undefined) continue;
    problems.push(...entryProblems(path, info, me, { symlinkAllowed: !STATE_FILE_NAMES.includes(name) }));
    if (info.isSymbolicLink()) {
      // A link the user made (a plugin under development): what it points to must be theirs too.
      const target = await stat(path).catch(() => undefined);
      if (target !== undefined) problems.push(...entryProblems(path, target, me, { symlinkAllowed: true }));
      continue;
    }
    if (info.isDirectory() && CHECKED_SUBDIRS.includes(name)) {
      for (const inner of await readdir(path)) {
        const innerPath = join(path, inner);
        const innerInfo = await lstatOrUndefined(innerPath);
        if (innerInfo !== undefined) problems.push(...entryProblems(innerPath, innerInfo, me, { symlinkAllowed: name === "plugins" }));
      }
    }
  }
  return problems;
}

function dedupe(problems: HomeProblem[]): HomeProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\0${p.problem}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function describeHomeProblems(home: string, problems: readonly HomeProblem[]): string {
  const lines = problems.map((p) => `  - ${p.path} ${p.problem}\n      fix: ${p.fix}`);
  return (
    `the config home ${home} cannot be trusted: another account could change what mcpvm runs.\n${lines.join("\n")}\n` +
    "Nothing was read or run. Fix the above (the config home is $MCPVM_HOME, else ~/.mcpvm), then try again."
  );
}

/** Throws CONFIG_HOME_INSECURE (exit 3) when the home or anything in it is not safely yours. */
export async function assertConfigHomeSecure(home: string, options: { readonly userHome?: string; readonly identity?: Identity } = {}): Promise<void> {
  const problems = await findHomeProblems(home, options);
  if (problems.length > 0) {
    throw new HomeSecurityError("CONFIG_HOME_INSECURE", describeHomeProblems(home, problems), { data: { home, problems: problems.map((p) => ({ path: p.path, problem: p.problem })) } });
  }
}

