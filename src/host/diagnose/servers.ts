import { basename } from "node:path";
import { packageRunner } from "../../mcp/client-manager/connect-timeout.js";
import { missingCommandHint } from "../../mcp/client-manager/command-hints.js";
import type { McpApprovalStore } from "../../mcp/approval/index.js";
import { launchLookup, mcpServerEntryObjectSchema, McpConfigError, parseTemplate, type McpServerEntry, type McpServers } from "../../mcp/config/index.js";
import { inputEnvName } from "../../mcp/config/input-cache.js";
import { approvalSubject } from "../../mcp/service/approval-subject.js";
import { definitionHash, type ServerStatusRecord } from "../../mcp/service/server-status.js";
import { firstLine, inputIds, missingVariables } from "../../mcp/service/server-state.js";
import { errorMessage } from "../../util/errors.js";
import { shellWord } from "../../util/shell-word.js";
import { didYouMean } from "../../util/suggest.js";
import { filesystemRootsProblem } from "./filesystem-roots.js";
import { fileExists, findCommand, searchedFolders } from "./path-lookup.js";
import { problem, type Problem } from "./problem.js";
import { counted } from "../../util/counted.js";

/** What doctor shows per server besides its problems. */
export interface ServerCheck {
  readonly name: string;
  readonly transport: McpServerEntry["type"];
  readonly enabled: boolean;
  readonly approval: "approved" | "unapproved" | "changed" | "error";
  /** `command args…` or the URL, as configured (placeholders unresolved). */
  readonly target: string;
  /** Where the command was found on PATH (stdio). */
  readonly resolvedCommand: string | undefined;
  readonly missingVariables: readonly string[];
  readonly inputs: readonly string[];
  readonly lastConnect: ServerStatusRecord | undefined;
}

export interface ServerCheckContext {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where a stdio server without `cwd` starts (the config home). */
  readonly defaultCwd: string;
  readonly configFile: string;
  readonly approvals: McpApprovalStore;
  readonly recorded: Readonly<Record<string, ServerStatusRecord>>;
}

const ENTRY_KEYS = Object.keys(mcpServerEntryObjectSchema.shape);
const INTERPRETERS = new Set(["node", "nodejs", "python", "python3", "bun", "deno", "tsx", "ts-node"]);

/** The mcpServers section as validation sees it: one problem per issue, with a did-you-mean for mistyped keys. */
export function configIssues(error: unknown, configFile: string, removable = true): Problem[] {
  if (!(error instanceof McpConfigError) || error.issues.length === 0) {
    return [problem("error", "config", "config.json", errorMessage(error), `fix ${configFile}, then run \`mcpvm doctor\` again`, (error as { code?: string }).code)];
  }
  return error.issues.map((issue) => {
    const unknownKey = /Unrecognized keys?: "([^"]+)"/.exec(issue.message)?.[1];
    const hint = unknownKey !== undefined && !issue.message.includes("did you mean") ? didYouMean(unknownKey, ENTRY_KEYS) : "";
    const remove = issue.server === undefined || !removable ? "" : `, or drop the entry: mcpvm mcp remove ${shellWord(issue.server)}`;
    return problem("error", "config", "config.json", `${issue.path}: ${issue.message}${hint} [${issue.rule}]`, `fix it in ${configFile}${remove}; then run \`mcpvm doctor\` again`, error.code);
  });
}

function target(entry: McpServerEntry): string {
  return entry.type === "stdio" ? [entry.command ?? "", ...(entry.args ?? [])].join(" ") : (entry.url ?? "");
}

/** A literal value (no placeholder) of a template, or undefined when it needs substitution. */
function literal(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const parsed = parseTemplate(text);
  return parsed.ok && parsed.parts.every((p) => p.kind === "text") ? parsed.parts.map((p) => (p.kind === "text" ? p.value : "")).join("") : undefined;
}

async function commandProblems(name: string, entry: McpServerEntry, context: ServerCheckContext): Promise<{ problems: Problem[]; resolved: string | undefined }> {
  // Looked for where the launch and the approval pin look (launch-lookup.ts): the server's own PATH
  // with its ${VAR}s filled in (`PATH=/opt/x/bin:${PATH}` was read only when literal, so mcpvm's PATH
  // was searched instead), its cwd, its command filled in. Unknown until launch: not checked.
  const lookup = entry.type === "stdio" ? launchLookup(entry, context.env, context.defaultCwd) : null;
  if (lookup === null) return { problems: [], resolved: undefined };
  const { command, cwd, pathVariable, ownPath } = lookup;
  const resolved = await findCommand(command, pathVariable, cwd);
  const subject = `server ${name}`;
  if (resolved === undefined) {
    const runner = packageRunner(command, entry.args ?? []);
    const isPath = command.includes("/");
    const where = isPath ? ` (from ${cwd})` : ownPath ? " on the PATH in its env" : " on PATH";
    const next = `${missingCommandHint(command, ownPath)}${isPath ? "" : ` Looked in ${searchedFolders(pathVariable, cwd)}.`}`;
    return { problems: [problem("error", "unavailable", subject, `command "${command}" is not found${where}${runner === undefined ? "" : `; ${name} is started through ${runner}`}`, next, "MCP_SPAWN_FAILED")], resolved };
  }
  const problems: Problem[] = [];
  const script = (entry.args ?? []).find((arg) => !arg.startsWith("-"));
  const scriptPath = literal(script);
  if (INTERPRETERS.has(basename(command).toLowerCase()) && scriptPath !== undefined && /\.(c|m)?[jt]s$|\.py$/.test(scriptPath) && !(await fileExists(scriptPath, cwd))) {
    problems.push(
      problem(
        "error",
        "unavailable",
        subject,
        `the script ${scriptPath} does not exist${scriptPath.startsWith("/") ? "" : ` (relative paths are resolved from ${cwd})`}`,
        `use an absolute path in mcpServers.${name}.args, or set mcpServers.${name}.cwd in ${context.configFile}`,
      ),
    );
  }
  return { problems, resolved };
}

/**
 * Everything that can be known about a server without starting it: approval, command on PATH,
 * the script it runs, unset ${VAR}s, ${input:…} prompts, and the last recorded connect result.
 */
export async function checkServer(name: string, entry: McpServerEntry, context: ServerCheckContext): Promise<{ check: ServerCheck; problems: Problem[] }> {
  const subject = `server ${name}`;
  const problems: Problem[] = [];
  let approval: ServerCheck["approval"] = "error";
  try {
    approval = (await context.approvals.status(approvalSubject(name, entry))).state;
  } catch {
    // The approvals file itself is reported once, by checkStateFiles.
  }
  const variables = missingVariables(entry, context.env);
  const inputs = inputIds(entry);
  const recorded = context.recorded[name];
  const lastConnect = recorded?.definition === definitionHash(entry) ? recorded : undefined;
  let resolved: string | undefined;
  if (entry.enabled) {
    if (approval === "unapproved") problems.push(problem("error", "approval", subject, `${name} is not approved, so it never starts`, `mcpvm mcp approve ${name}`, "MCP_NOT_APPROVED"));
    if (approval === "changed") problems.push(problem("error", "approval", subject, `${name}'s definition changed since it was approved, so it does not start`, `mcpvm mcp approve ${name}`, "MCP_APPROVAL_CHANGED"));
    for (const variable of variables) {
      problems.push(problem("error", "config", subject, `environment variable ${variable} is not set (or empty); ${name} uses it`, `export ${variable}=…, or write \${${variable}:-default} in ${context.configFile}`, "MCP_CONFIG_MISSING_VARIABLE"));
    }
    const commands = await commandProblems(name, entry, context);
    problems.push(...commands.problems);
    const roots = filesystemRootsProblem(name, entry);
    if (roots !== undefined) problems.push(roots);
    resolved = commands.resolved;
    if (inputs.length > 0) {
      problems.push(
        problem("warning", "config", subject, `${name} asks for ${inputs.map((id) => `"${id}"`).join(", ")} when it starts; on a terminal it is asked, elsewhere (mcpvm serve, piped runs) set ${inputs.map((id) => inputEnvName(id)).join(", ")}`, undefined, "MCP_CONFIG_INPUT_UNAVAILABLE"),
      );
    }
    // A static error above already says why it fails; the recorded failure would repeat it.
    if (lastConnect?.result === "failed" && approval === "approved" && !problems.some((p) => p.severity === "error")) {
      problems.push(problem("warning", "unavailable", subject, `the last start failed (${lastConnect.at}): ${firstLine(lastConnect.error?.message ?? "unknown error")}`, `mcpvm doctor --connect to try it now, or mcpvm mcp info ${name}`, lastConnect.error?.code));
    }
    if (lastConnect?.result === "connected" && (lastConnect.heldCount ?? 0) > 0) {
      problems.push(problem("warning", "approval", subject, `${counted(lastConnect.heldCount ?? 0, "tool")} of ${name} ${lastConnect.heldCount === 1 ? "is" : "are"} held for review and hidden from guest code`, `mcpvm mcp approve ${name} --tools`, "MCP_TOOL_HELD"));
    }
  }
  return {
    check: { name, transport: entry.type, enabled: entry.enabled, approval, target: target(entry), resolvedCommand: resolved, missingVariables: variables, inputs, lastConnect },
    problems,
  };
}

export async function checkServers(servers: McpServers, context: ServerCheckContext): Promise<{ checks: ServerCheck[]; problems: Problem[] }> {
  const results = await Promise.all(Object.keys(servers).sort().map((name) => checkServer(name, servers[name] as McpServerEntry, context)));
  return { checks: results.map((r) => r.check), problems: results.flatMap((r) => r.problems) };
}
