import { basename, dirname, isAbsolute, resolve } from "node:path";

/**
 * Other clients start a project's stdio servers in the project folder, so `./server.js` or
 * `"cwd": "tools"` in its file mean that folder. mcpvm starts a server without `cwd` in its config
 * home (and resolves a relative `cwd` there), so the import anchors such paths to the folder the
 * file belongs to when it can tell which one that is, and says so when it cannot.
 */
export function projectFolderOf(file: string, workspaceFolder: string | undefined): string | undefined {
  if (workspaceFolder !== undefined) return workspaceFolder;
  // Files that live at a project's root: Claude Code's .mcp.json, opencode.json.
  return [".mcp.json", "opencode.json", "opencode.jsonc"].includes(basename(file)) ? dirname(file) : undefined;
}

const EXPLICIT_RELATIVE = /^\.\.?([\\/]|$)/;

function relativeLaunchPart(command: unknown, args: unknown): string | undefined {
  if (typeof command === "string" && !command.includes("${") && !isAbsolute(command) && /[\\/]/.test(command)) return `command "${command}"`;
  if (!Array.isArray(args)) return undefined;
  const index = args.findIndex((arg) => typeof arg === "string" && !arg.includes("${") && EXPLICIT_RELATIVE.test(arg));
  return index === -1 ? undefined : `args[${index}] "${String(args[index])}"`;
}

const literal = (text: string): string => text.replaceAll("${", () => "$${");

/** Set or resolve `cwd` of a stdio candidate in place; one note per change, or a warning when the folder is unknown. */
export function anchorRelativePaths(candidate: Record<string, unknown>, projectFolder: string | undefined): string[] {
  if (candidate.url !== undefined || typeof candidate.command !== "string") return [];
  const cwd = candidate.cwd;
  if (typeof cwd === "string") {
    if (cwd.includes("${") || isAbsolute(cwd)) return [];
    if (projectFolder === undefined) return [`"cwd" "${cwd}" is relative and the file does not say to which folder; mcpvm would resolve it against its config home, so make it absolute`];
    candidate.cwd = literal(resolve(projectFolder, cwd));
    return [`"cwd" "${cwd}" became ${resolve(projectFolder, cwd)} (relative to ${projectFolder}, the folder the file belongs to)`];
  }
  const relative = relativeLaunchPart(candidate.command, candidate.args);
  if (relative === undefined) return [];
  if (projectFolder === undefined) return [`${relative} is a relative path and the file does not say to which folder; set "cwd" in the entry (mcpvm starts servers in its config home)`];
  candidate.cwd = literal(projectFolder);
  return [`"cwd" set to ${projectFolder}, the folder the file belongs to, because ${relative} is relative to it`];
}
