import type { ApprovalStatus } from "../approval/index.js";
import type { ServerStatus } from "../client-manager/index.js";
import { parseTemplate, templateFields, type McpServerEntry } from "../config/index.js";
import type { ServerStatusRecord } from "./server-status.js";
import { counted } from "../../util/counted.js";

/**
 * What `mcp list` (CLI and REPL), `doctor` and the banner say about one server. The first that
 * applies wins: disabled, approval, what this process sees live, what cannot start in this
 * environment (unset ${VAR}, unanswered ${input:…}), then the last recorded connect result.
 */
export type ServerStateName =
  | "disabled"
  | "needs-approval"
  /** The approvals file cannot be read (corrupt, insecure). */
  | "approval-error"
  | "connecting"
  | "connected"
  /** Some tools are held for review (changed, new, or with findings). */
  | "held"
  | "failed"
  | "needs-variable"
  | "needs-input"
  /** An http/sse server that wants an OAuth login (never logged in, or its login expired or was revoked). */
  | "needs-login"
  | "idle";

export interface ServerStateInput {
  readonly name: string;
  readonly entry: McpServerEntry;
  readonly approval: ApprovalStatus["state"] | "error";
  readonly approvalError?: string;
  /** This process's connection, when it has one (the REPL, the gateway). */
  readonly live: ServerStatus | undefined;
  /** Trusted and held tool counts of this process's catalog. */
  readonly catalog: { readonly tools: number; readonly held: number } | undefined;
  /** The last result recorded for this definition (server-status.json). */
  readonly recorded: ServerStatusRecord | undefined;
  /** Tools pinned as approved (mcp-pins.json). */
  readonly pinnedTools: number | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Input ids this session already has an answer for. */
  readonly answeredInputs: ReadonlySet<string>;
  /** Whether an OAuth login is stored for this definition (http/sse only). */
  readonly loggedIn?: boolean;
}

export interface ServerState {
  readonly state: ServerStateName;
  /** One line: why, in words (an error's first line, the missing variables, …). */
  readonly detail: string | undefined;
  /** The command that moves it on, when there is one. */
  readonly next: string | undefined;
  readonly toolCount: number | undefined;
  readonly heldCount: number | undefined;
  /** When `detail` comes from the record: its time. */
  readonly since: string | undefined;
}

/** `${VAR}`s without a fallback that are unset or empty here. */
export function missingVariables(entry: McpServerEntry, env: Readonly<Record<string, string | undefined>>): string[] {
  const missing = new Set<string>();
  for (const field of templateFields(entry)) {
    const parsed = parseTemplate(field.value);
    if (!parsed.ok) continue;
    for (const part of parsed.parts) {
      if (part.kind === "env" && part.fallback === undefined && (env[part.name] ?? "") === "") missing.add(part.name);
    }
  }
  return [...missing];
}

/** The `${input:id}` ids an entry uses. */
export function inputIds(entry: McpServerEntry): string[] {
  const ids = new Set<string>();
  for (const field of templateFields(entry)) {
    const parsed = parseTemplate(field.value);
    if (parsed.ok) for (const part of parsed.parts) if (part.kind === "input") ids.add(part.id);
  }
  return [...ids];
}

/**
 * npm's closing boilerplate: for `npx -y <package that does not exist>` the last stderr line is
 * "A complete log of this run can be found in …", and the line that says what went wrong (the 404)
 * comes before it and a "Note that you can also install from a tarball" paragraph.
 */
const NPM_TRAILER = /^npm (?:error|ERR!)(?: 404)?\s*(?:$|A complete log of this run|\/\S+-debug(?:-\d+)?\.log$|Note that you can also install from a|tarball, folder, http url, or git url)/;

/** An error message in one line: its first line, and the server's last telling stderr line when the message carries them. */
export function firstLine(text: string): string {
  const lines = text.split("\n");
  let line = (lines[0] ?? "").replace(/\s*Last stderr lines:\s*$/, "");
  const stderr = lines.slice(1).reverse().filter((l) => l.trim() !== "");
  const lastStderr = stderr.find((l) => !NPM_TRAILER.test(l)) ?? stderr[0];
  if (lastStderr !== undefined && /Last stderr lines:\s*$/.test(lines[0] ?? "")) line += ` Its last stderr line: ${lastStderr.trim()}`;
  return line.length > 240 ? `${line.slice(0, 239)}…` : line;
}

export function serverState(input: ServerStateInput): ServerState {
  const { name, entry, live, catalog, recorded } = input;
  const toolCount = catalog?.tools ?? live?.toolCount ?? recorded?.toolCount ?? input.pinnedTools;
  const heldCount = catalog?.held ?? (live?.state === "connected" ? undefined : recorded?.heldCount);
  const result = (state: ServerStateName, detail?: string, next?: string, since?: string): ServerState => ({ state, detail, next, toolCount, heldCount, since });
  if (!entry.enabled) return result("disabled", undefined, `mcpvm mcp enable ${name}`);
  if (input.approval === "error") return result("approval-error", input.approvalError === undefined ? "the approvals file cannot be read" : firstLine(input.approvalError), "mcpvm doctor");
  if (input.approval === "unapproved") return result("needs-approval", "not approved yet", `mcpvm mcp approve ${name}`);
  if (input.approval === "changed") return result("needs-approval", "its definition changed since it was approved", `mcpvm mcp approve ${name}`);
  if (live?.state === "connecting") return result("connecting");
  if (live?.state === "connected") {
    if ((catalog?.held ?? 0) > 0) return result("held", `${counted(catalog?.held ?? 0, "tool")} held for review`, `mcpvm mcp approve ${name} --tools`);
    return result("connected");
  }
  const loginError = live?.state === "error" && live.lastError?.code === "MCP_LOGIN_REQUIRED" ? live.lastError.message : recorded?.result === "failed" && recorded.error?.code === "MCP_LOGIN_REQUIRED" && input.loggedIn !== true ? recorded.error.message : undefined;
  if (loginError !== undefined) return result("needs-login", firstLine(loginError), `mcpvm mcp login ${name}`, live?.state === "error" ? undefined : recorded?.at);
  if (live?.state === "error" && live.lastError !== undefined) return result("failed", firstLine(live.lastError.message), `mcpvm mcp info ${name}`);
  const variables = missingVariables(entry, input.env);
  if (variables.length > 0) {
    return result("needs-variable", `${variables.map((v) => `$${v}`).join(", ")} not set`, `export ${variables[0]}=… (or write \${${variables[0]}:-default} in config.json)`);
  }
  if (recorded?.result === "failed") return result("failed", firstLine(recorded.error?.message ?? "failed"), `mcpvm mcp info ${name}`, recorded.at);
  const unanswered = inputIds(entry).filter((id) => !input.answeredInputs.has(id));
  if (unanswered.length > 0) return result("needs-input", `asks for ${unanswered.map((id) => `"${id}"`).join(", ")} when it starts (interactive sessions only)`, undefined);
  if ((recorded?.heldCount ?? 0) > 0) return result("held", `${counted(recorded?.heldCount ?? 0, "tool")} held for review`, `mcpvm mcp approve ${name} --tools`, recorded?.at);
  return result("idle", undefined, undefined, recorded?.at);
}
