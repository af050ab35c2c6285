import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import type { ConfigPaths } from "../../config/paths.js";
import { ToolsetStore } from "../../gateway/toolsets/store.js";
import { McpApprovalStore } from "../../mcp/approval/index.js";
import { McpPinStore } from "../../mcp/pins/index.js";
import { ServerStatusStore } from "../../mcp/service/server-status.js";
import { PluginApprovalStore } from "../../plugin-system/approval/store.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { problem, type Problem } from "./problem.js";

/** A store that cannot be read: what breaks, and how to fix it. */
function storeProblem(file: string, error: unknown, breaks: string): Problem {
  const code = isMcpvmError(error) ? error.code : undefined;
  // Insecure or unreadable: the file's mode (or owner) is what to fix, not its content.
  const modeProblem = code === "STORE_INSECURE" || code === "STORE_UNREADABLE";
  return problem(
    "error",
    "config",
    basename(file),
    `${errorMessage(error)}${errorMessage(error).includes(breaks) ? "" : ` (${breaks})`}`,
    modeProblem
      ? `chmod 600 ${file}`
      : code?.endsWith("_TOO_LARGE") === true
        ? `move it away and let mcpvm write a new one, or restore it from a backup (mv ${file} ${file}.too-large)`
        : `fix ${file} in an editor, or move it away to start that file afresh (mv ${file} ${file}.broken)`,
    code,
  );
}

/**
 * The state files of the config home, each read as mcpvm reads it: a corrupt or insecure one is an
 * error (it switches servers or plugins off), server-status.json is only a cache (a warning).
 */
export async function checkStateFiles(paths: ConfigPaths): Promise<Problem[]> {
  const problems: Problem[] = [];
  const checks: [string, () => Promise<unknown>, string][] = [
    [paths.approvedMcpFile, () => new McpApprovalStore(paths.approvedMcpFile).list(), "no MCP server starts while it is broken"],
    [paths.approvedPluginsFile, () => new PluginApprovalStore(paths.approvedPluginsFile).load(), "no plugin loads while it is broken, MCP included"],
    [paths.pinsFile, () => new McpPinStore(paths.pinsFile).get(""), "no MCP tool is exposed while it is broken"],
    [paths.toolsetsFile, () => new ToolsetStore(paths.toolsetsFile).list(), "mcpvm serve --toolset and mcpvm toolset fail while it is broken"],
  ];
  for (const [file, read, breaks] of checks) {
    try {
      await read();
    } catch (error) {
      problems.push(storeProblem(file, error, breaks));
    }
  }
  const warnings: string[] = [];
  await new ServerStatusStore(paths.serverStatusFile, (message) => warnings.push(message)).readAll();
  for (const message of warnings) problems.push(problem("warning", "config", basename(paths.serverStatusFile), message, `rm ${paths.serverStatusFile} (a cache of the last connect results; nothing is lost)`));
  return problems;
}

/** The home must be writable for add/approve/enable; reading still works when it is not. */
export async function checkHomeWritable(paths: ConfigPaths): Promise<Problem[]> {
  try {
    if (!(await stat(paths.home)).isDirectory()) {
      return [problem("error", "config", "config home", `${paths.home} is not a folder`, "point MCPVM_HOME at a folder (or unset it for ~/.mcpvm)")];
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return await checkHomeCreatable(paths.home);
    return [problem("error", "config", "config home", `cannot read ${paths.home}: ${errorMessage(error)}`, "check MCPVM_HOME and the folder's permissions")];
  }
  try {
    await access(paths.home, constants.W_OK);
    return [];
  } catch {
    return [
      problem(
        "warning",
        "config",
        "config home",
        `${paths.home} is not writable: reading works, but mcp add/approve/enable, plugin approve and toolset build fail, and no log file is written`,
        `check the permissions of ${paths.home} (chmod u+w ${paths.home}), or set MCPVM_HOME to a folder you own`,
      ),
    ];
  }
}

/**
 * A home that does not exist yet is made by the first command that writes (mkdir -p), so what must
 * be writable is its nearest existing ancestor; else every add/approve fails with exit 3 while
 * doctor, which only reads, would say "No problems found".
 */
async function checkHomeCreatable(home: string): Promise<Problem[]> {
  let ancestor = dirname(home);
  for (;;) {
    let isFolder: boolean;
    try {
      isFolder = (await stat(ancestor)).isDirectory();
    } catch (error) {
      const parent = dirname(ancestor);
      if ((error as NodeJS.ErrnoException).code === "ENOENT" && parent !== ancestor) {
        ancestor = parent;
        continue;
      }
      break;
    }
    if (isFolder && (await canWriteIn(ancestor))) return [];
    break;
  }
  return [
    problem(
      "warning",
      "config",
      "config home",
      `${home} does not exist and cannot be created (${ancestor} is not a folder you can write): reading works, but mcp add/approve/enable, plugin approve and toolset build fail, and no log file is written`,
      `set MCPVM_HOME to a folder you own (or unset it for ~/.mcpvm), or create ${home} with write permission for you`,
    ),
  ];
}

async function canWriteIn(folder: string): Promise<boolean> {
  try {
    await access(folder, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
