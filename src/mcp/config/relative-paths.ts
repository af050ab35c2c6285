import { isAbsolute } from "node:path";

/**
 * Which parts of a stdio launch are paths relative to a working directory. A server no longer
 * inherits mcpvm's working directory (it starts in its `cwd`, else the config home), so a
 * relative path would silently point somewhere else than where the person typed it: the add
 * command makes such paths absolute, and a launch without `cwd` refuses them.
 */

const EXPLICIT_RELATIVE = /^\.\.?([\\/]|$)/;

/** `./x`, `../x`, `.`, `..` (and the Windows forms): relative by the way it is written. */
export function isExplicitlyRelative(text: string): boolean {
  return EXPLICIT_RELATIVE.test(text);
}

/**
 * A command that names a file rather than a program looked up on PATH: it holds a path
 * separator and is not absolute (`./server.sh`, `bin/server`). `node`, `npx`, `uvx` are not.
 */
export function isRelativeCommandPath(command: string): boolean {
  if (command.includes("${")) return false;
  return !isAbsolute(command) && (command.includes("/") || command.includes("\\"));
}

// A script a runtime is given by its file name: `node server.js`, `python server.py`.
const SCRIPT_EXTENSION = /\.(m?js|cjs|ts|mts|py|rb|sh|jar|php|pl)$/i;

/**
 * An argument that may be a relative file path worth resolving when the file exists: written as
 * relative, or a bare `dir/file` or `file.js`. Flags, `${…}` references, URLs, package specs
 * (`@scope/pkg@1.0`) and absolute paths are not.
 */
export function mayBeRelativePath(arg: string): boolean {
  if (arg === "" || arg.startsWith("-") || arg.includes("${") || isAbsolute(arg)) return false;
  if (isExplicitlyRelative(arg)) return true;
  if (/^[a-z][a-z0-9+.-]*:/i.test(arg) || arg.startsWith("@")) return false;
  return arg.includes("/") || SCRIPT_EXTENSION.test(arg);
}

/** The first part of a launch that only makes sense relative to a working directory, if any. */
export function firstRelativePath(command: string, args: readonly string[]): { readonly field: string; readonly value: string } | undefined {
  if (isRelativeCommandPath(command)) return { field: "command", value: command };
  const index = args.findIndex((arg) => !arg.includes("${") && isExplicitlyRelative(arg));
  return index === -1 ? undefined : { field: `args[${index}]`, value: args[index] as string };
}
