import { statSync } from "node:fs";
import { resolve } from "node:path";
import { isExplicitlyRelative, isRelativeCommandPath, mayBeRelativePath } from "../../../mcp/config/relative-paths.js";
import { UsageError } from "../../../terminal/args.js";

/**
 * A stdio server starts in its `cwd`, else the config home, never in the folder `mcp add` ran in.
 * So `mcp add x -- node ./server.mjs` stores the path it meant: resolved against the folder of the
 * add, checked to exist. A relative path that names nothing is refused now, instead of failing (or
 * finding some other file) at the first start.
 */

export interface ResolvedCommand {
  readonly command: string;
  readonly args: readonly string[];
  /** `./server.mjs -> /home/me/proj/server.mjs`, for the person to see what was stored. */
  readonly rewritten: readonly { readonly from: string; readonly to: string }[];
}

type Kind = "file" | "dir" | "missing";

function kindOf(path: string): Kind {
  try {
    return statSync(path).isDirectory() ? "dir" : "file";
  } catch {
    return "missing";
  }
}

function refused(what: string, base: string, hint: string): UsageError {
  return new UsageError("USAGE", `mcpvm mcp add: ${what} does not exist relative to ${base}. ${hint}`);
}

/** Resolves relative parts against `base` (the add's current folder); nothing is read but stat. */
export function absoluteCommand(command: readonly string[], base: string): ResolvedCommand {
  const [program = "", ...args] = command;
  const rewritten: { from: string; to: string }[] = [];
  const hint = "Give an absolute path, run `mcpvm mcp add` from the folder it is relative to, or pass --cwd <dir>.";
  let resolvedProgram = program;
  if (isRelativeCommandPath(program)) {
    const absolute = resolve(base, program);
    if (kindOf(absolute) !== "file") throw refused(`the command "${program}"`, base, hint);
    resolvedProgram = absolute;
    rewritten.push({ from: program, to: absolute });
  }
  const resolvedArgs = args.map((arg) => {
    // `--config=./settings.json`: the value after "=" is the path.
    const eq = arg.startsWith("-") ? arg.indexOf("=") : -1;
    const prefix = eq === -1 ? "" : arg.slice(0, eq + 1);
    const value = eq === -1 ? arg : arg.slice(eq + 1);
    if (!mayBeRelativePath(value) && !(prefix !== "" && isExplicitlyRelative(value))) return arg;
    const absolute = resolve(base, value);
    if (kindOf(absolute) === "missing") {
      if (isExplicitlyRelative(value)) throw refused(`the argument "${arg}"`, base, hint);
      return arg;
    }
    rewritten.push({ from: value, to: absolute });
    return prefix + absolute;
  });
  return { command: resolvedProgram, args: resolvedArgs, rewritten };
}

/** With `--cwd`: paths stay relative to that folder, which must exist, as must `./x` paths in it. */
export function checkAgainstCwd(command: readonly string[], cwd: string): void {
  if (kindOf(cwd) !== "dir") throw new UsageError("USAGE", `mcpvm mcp add: --cwd ${cwd} is not an existing folder.`);
  const [program = "", ...args] = command;
  const hint = "Check the path, or give an absolute one.";
  if (isRelativeCommandPath(program) && kindOf(resolve(cwd, program)) !== "file") throw refused(`the command "${program}"`, cwd, hint);
  for (const arg of args) {
    if (!arg.includes("${") && isExplicitlyRelative(arg) && kindOf(resolve(cwd, arg)) === "missing") throw refused(`the argument "${arg}"`, cwd, hint);
  }
}

/** `--dir` of a catalog server: an existing folder, stored absolute. */
export function existingFolder(flag: string, path: string, base: string): string {
  const absolute = resolve(base, path);
  if (kindOf(absolute) !== "dir") throw new UsageError("USAGE", `mcpvm mcp add: ${flag} ${path} is not an existing folder (resolved to ${absolute}).`);
  return absolute;
}
