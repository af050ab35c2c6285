import { accessSync, closeSync, constants, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import type { FileDigestCache } from "./file-digest.js";
import { EXACT_VERSION, findPackageSpec, NPX_FLAGS, splitNpmSpec, UVX_FLAGS } from "./package-spec.js";
import { spawnSearchDirectories } from "../../util/spawn-path.js";

/**
 * What a stdio launch actually runs, beyond the command line as written: the executable the
 * spawn's PATH lookup finds, the interpreter of a `#!` script (`npx` is `#!/usr/bin/env node`, so
 * a `node` found earlier on PATH changes what runs), and for `npx`/`uvx` the package version.
 * Recorded at approval; a difference at launch needs re-approval.
 */
export const launchTargetSchema = z
  .object({
    /** Absolute path the PATH lookup finds; null when nothing was found (the spawn will fail). */
    executable: z.string().nullable(),
    /** sha256 of the executable's content: the same path holding another program is a change too. Absent in older approvals (learnt at the next launch). */
    executableSha256: z.string().optional(),
    /** For a `#!` script: the interpreter it names, looked up on the same PATH for `/usr/bin/env x`. */
    interpreter: z.string().optional(),
    interpreterSha256: z.string().optional(),
    package: z
      .object({
        runner: z.enum(["npx", "uvx"]),
        name: z.string(),
        /** The version that would run; absent when it could not be read without the network. */
        version: z.string().optional(),
        /** Where the version was read (or why it could not be). */
        source: z.string(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type LaunchTarget = z.infer<typeof launchTargetSchema>;

export interface LaunchTargetInput {
  readonly command: string;
  readonly args: readonly string[];
  /** The child's environment (its PATH is the one the spawn searches). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export function resolveLaunchTarget(input: LaunchTargetInput): LaunchTarget {
  // No PATH at all is the system default to the spawn, not an empty one.
  const path = input.env.PATH;
  const executable = findExecutable(input.command, path, input.cwd);
  const interpreter = executable === undefined ? undefined : interpreterOf(executable, path, input.cwd);
  const runner = basename(input.command).replace(/\.(cmd|exe)$/i, "");
  const pkg = runner === "npx" ? npxPackage(input.args, input.env, input.cwd) : runner === "uvx" ? uvxPackage(input.args) : undefined;
  return { executable: executable ?? null, ...(interpreter === undefined ? {} : { interpreter }), ...(pkg === undefined ? {} : { package: pkg }) };
}

/** What changed between the approved target and the current one, one line each; empty when nothing that was known changed. */
export function compareLaunchTargets(approved: LaunchTarget, current: LaunchTarget): string[] {
  const changes: string[] = [];
  if (approved.executable !== current.executable) changes.push(`executable: ${approved.executable ?? "(not found)"} -> ${current.executable ?? "(not found)"}`);
  else if (contentChanged(approved.executableSha256, current.executableSha256)) changes.push(`executable ${current.executable ?? ""} has different content: sha256 ${approved.executableSha256 ?? ""} -> ${current.executableSha256 ?? "(unreadable)"}`);
  if (approved.interpreter !== current.interpreter) changes.push(`interpreter: ${approved.interpreter ?? "(none)"} -> ${current.interpreter ?? "(none)"}`);
  else if (contentChanged(approved.interpreterSha256, current.interpreterSha256)) changes.push(`interpreter ${current.interpreter ?? ""} has different content: sha256 ${approved.interpreterSha256 ?? ""} -> ${current.interpreterSha256 ?? "(unreadable)"}`);
  const a = approved.package;
  const c = current.package;
  if (a !== undefined && c !== undefined) {
    if (a.name !== c.name) changes.push(`package: ${a.name} -> ${c.name}`);
    // A version unknown at approval (never downloaded yet) is learnt later, not a change.
    else if (a.version !== undefined && a.version !== c.version) changes.push(`${a.runner} package ${a.name}: ${a.version} -> ${c.version ?? "(unknown)"}`);
  } else if (a !== undefined || c !== undefined) {
    changes.push(`package: ${a?.name ?? "(none)"} -> ${c?.name ?? "(none)"}`);
  }
  return changes;
}

/** A digest recorded at approval that differs now (or can no longer be read); none recorded yet is learnt, not a change. */
function contentChanged(approved: string | undefined, current: string | undefined): boolean {
  return approved !== undefined && approved !== current;
}

/** Whether the approval lacks a digest the current target has (an approval from before digests): learnt at launch. */
export function lacksDigests(approved: LaunchTarget, current: LaunchTarget): boolean {
  return (approved.executableSha256 === undefined && current.executableSha256 !== undefined) || (approved.interpreterSha256 === undefined && current.interpreterSha256 !== undefined);
}

/** The target with the sha256 of its executable and interpreter (paths that exist), through the identity cache. */
export async function withDigests(target: LaunchTarget, digests: FileDigestCache): Promise<LaunchTarget> {
  const executableSha256 = target.executable === null ? undefined : await digests.digest(target.executable);
  const interpreterSha256 = target.interpreter === undefined || !isAbsolute(target.interpreter) ? undefined : await digests.digest(target.interpreter);
  return {
    ...target,
    ...(executableSha256 === undefined ? {} : { executableSha256 }),
    ...(interpreterSha256 === undefined ? {} : { interpreterSha256 }),
  };
}

/** One line for the approval prompt. */
export function describeLaunchTarget(target: LaunchTarget): string {
  const short = (sha: string | undefined): string => (sha === undefined ? "" : ` (sha256 ${sha.slice(0, 16)}…)`);
  const parts = [`runs ${target.executable ?? "(not found on PATH)"}${short(target.executableSha256)}`];
  if (target.interpreter !== undefined) parts.push(`with ${target.interpreter}${short(target.interpreterSha256)}`);
  if (target.package !== undefined) {
    const p = target.package;
    parts.push(p.version === undefined ? `${p.runner} package ${p.name} (version not known yet: ${p.source})` : `${p.runner} package ${p.name}@${p.version} (${p.source})`);
  }
  return parts.join(", ");
}

/** As the spawn finds it: a command with a slash is a path (from cwd); otherwise the first executable file on PATH. */
export function findExecutable(command: string, path: string | undefined, cwd: string): string | undefined {
  if (command.includes("/") || (process.platform === "win32" && command.includes("\\"))) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutableFile(full) ? full : undefined;
  }
  // An empty element (`:/usr/bin`, `a::b`, a trailing `:`) is the child's cwd to the spawn, as to
  // execvp: skipping it pinned /usr/bin/node while a `node` in the cwd ran.
  for (const dir of spawnSearchDirectories(path, cwd)) {
    const candidate = resolve(dir, command);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The interpreter of a `#!` script; `#!/usr/bin/env [-S] x` is x as found on PATH. */
function interpreterOf(file: string, path: string | undefined, cwd: string): string | undefined {
  let head: string;
  try {
    // Only the first line matters; a binary (node itself) is never read whole.
    const fd = openSync(file, "r");
    try {
      const buffer = Buffer.alloc(256);
      head = buffer.subarray(0, readSync(fd, buffer, 0, 256, 0)).toString("latin1");
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!head.startsWith("#!")) return undefined;
  const words = (head.slice(2).split("\n")[0] ?? "").trim().split(/\s+/);
  const [program, ...rest] = words;
  if (program === undefined || program === "") return undefined;
  if (basename(program) === "env") {
    const target = rest.find((w) => !w.startsWith("-") && !w.includes("="));
    return target === undefined ? program : (findExecutable(target, path, cwd) ?? `${target} (not found on PATH)`);
  }
  return program;
}

/**
 * The version npx would run, without the network: an exact version in the spec; else the
 * package in a node_modules from cwd upwards (npx prefers it); else npx's own cache
 * (<npm cache>/_npx/<hash>/node_modules/<name>). A range with nothing cached is unresolved.
 */
function npxPackage(args: readonly string[], env: Readonly<Record<string, string | undefined>>, cwd: string): LaunchTarget["package"] {
  const spec = findPackageSpec(args, NPX_FLAGS)?.spec;
  if (spec === undefined) return undefined;
  const { name, range } = splitNpmSpec(spec);
  if (range !== undefined && EXACT_VERSION.test(range)) return { runner: "npx", name, version: range.replace(/^v/, ""), source: "exact version in the arguments" };
  for (let dir = cwd; ; dir = resolve(dir, "..")) {
    const version = packageVersion(join(dir, "node_modules", name));
    if (version !== undefined) return { runner: "npx", name, version, source: `installed in ${join(dir, "node_modules")}` };
    if (resolve(dir, "..") === dir) break;
  }
  const cache = env.npm_config_cache ?? env.NPM_CONFIG_CACHE ?? (env.HOME === undefined ? undefined : join(env.HOME, ".npm"));
  if (cache !== undefined) {
    const found = newestInNpxCache(join(cache, "_npx"), name);
    if (found !== undefined) return { runner: "npx", name, version: found, source: "npx cache" };
  }
  return { runner: "npx", name, source: range === undefined || range === "latest" ? "not in the npx cache yet (npx would download the latest)" : `range ${range}, not in the npx cache yet` };
}

function newestInNpxCache(root: string, name: string): string | undefined {
  let best: { version: string; mtime: number } | undefined;
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return undefined;
  }
  for (const dir of dirs) {
    const file = join(root, dir, "node_modules", name, "package.json");
    try {
      const mtime = statSync(file).mtimeMs;
      const version = packageVersion(join(root, dir, "node_modules", name));
      if (version !== undefined && (best === undefined || mtime > best.mtime)) best = { version, mtime };
    } catch {
      // not this one
    }
  }
  return best?.version;
}

function packageVersion(dir: string): string | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown };
    return typeof parsed.version === "string" ? parsed.version : undefined;
  } catch {
    return undefined;
  }
}

/** uvx: only a version pinned in the arguments (`pkg==1.2.3`, `pkg@1.2.3`, `--from pkg==…`) is known without the index. */
function uvxPackage(args: readonly string[]): LaunchTarget["package"] {
  const fromIndex = args.indexOf("--from");
  const spec = fromIndex !== -1 ? args[fromIndex + 1] : findPackageSpec(args, UVX_FLAGS)?.spec;
  if (spec === undefined) return undefined;
  const pinned = /^([A-Za-z0-9._\-[\]]+?)(?:==|@)([0-9][^\s,;]*)$/.exec(spec);
  if (pinned !== null) return { runner: "uvx", name: pinned[1] as string, version: pinned[2] as string, source: "exact version in the arguments" };
  return { runner: "uvx", name: spec.replace(/[<>=~!@].*$/, ""), source: "uvx resolves versions from the package index; pin one (pkg==1.2.3) to have it checked" };
}
