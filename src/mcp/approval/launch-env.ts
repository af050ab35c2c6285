import { displayInline } from "../../terminal/display.js";
import { McpvmError } from "../../util/errors.js";
import { parseTemplate } from "../config/placeholders.js";
import { isMaskedValue } from "../config/secret-values.js";

/**
 * Environment variables that decide which code a server process runs, not what it is told: a
 * well-known, pinned command line (`npx -y @modelcontextprotocol/server-github`) runs anything
 * at all with `NODE_OPTIONS=--require /tmp/x.js`, `LD_PRELOAD=…`, `npm_config_registry=http://evil`
 * or `PATH=/tmp/evil`. Their values are shown in full at approval and they are a block-level
 * finding of the launch audit: plain `--yes` never approves them.
 */
const EXACT = new Set(
  [
    "NODE_OPTIONS",
    "NODE_PATH",
    "NODE_REPL_EXTERNAL_MODULE",
    "PATH",
    "BASH_ENV",
    "ENV",
    "ZDOTDIR",
    "PERL5OPT",
    "PERL5LIB",
    "PERLLIB",
    "RUBYOPT",
    "RUBYLIB",
    "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS",
    "JDK_JAVA_OPTIONS",
    "CLASSPATH",
    "GCONV_PATH",
    "PIP_INDEX_URL",
    "PIP_EXTRA_INDEX_URL",
    "UV_INDEX",
    "UV_INDEX_URL",
    "UV_EXTRA_INDEX_URL",
    "UV_DEFAULT_INDEX",
    "GIT_SSH",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "BROWSER",
  ].map((name) => name.toUpperCase()),
);
const PREFIXES = ["LD_", "DYLD_", "PYTHON", "NPM_CONFIG_", "GIT_CONFIG"];
const SUFFIXES = ["_COMMAND"];
// PYTHON* settings that only change buffering, encoding or bytecode files, common in server configs.
const HARMLESS = new Set(["PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED", "PYTHONNOUSERSITE"]);

// npm's own credentials (`_auth`, `_authToken`, `_password`, `//host/:_authToken`) are npm_config_*
// too; they are secrets, not code, so they stay masked (and still count as findings).
const NPM_CREDENTIAL = /^npm_config_.*(auth|token|password|passwd)/i;

/** True for a name that changes which code runs (compared case-insensitively: Windows env is). */
export function isCodeLoadingEnvName(name: string): boolean {
  const upper = name.toUpperCase();
  if (HARMLESS.has(upper)) return false;
  return EXACT.has(upper) || PREFIXES.some((p) => upper.startsWith(p)) || SUFFIXES.some((s) => upper.endsWith(s));
}

/** A value that is only a reference (`${GITHUB_TOKEN}`, `${env:X}`, `${input:id}`): not a literal, not a secret. */
export function isPureReference(value: string): boolean {
  const parsed = parseTemplate(value);
  if (!parsed.ok || parsed.parts.length !== 1) return false;
  const part = parsed.parts[0];
  return part !== undefined && (part.kind === "input" || (part.kind === "env" && part.fallback === undefined));
}

export interface LaunchFinding {
  readonly rule: "code-loading-env";
  readonly severity: "block";
  /** The env variable's name. */
  readonly name: string;
  readonly message: string;
}

/** The audit of a launch definition's env: every code-loading variable it sets. */
export function auditLaunchEnv(env: Readonly<Record<string, string>> | undefined): LaunchFinding[] {
  return Object.keys(env ?? {})
    .filter(isCodeLoadingEnvName)
    .sort()
    .map((name) => ({ rule: "code-loading-env", severity: "block", name, message: `${name} changes which code the server process runs` }));
}

/**
 * How a configured env or header value is shown to a person (the caller escapes it for display):
 * a pure reference as written, a code-loading value verbatim (quoted), and a value that is not
 * secret (isMaskedValue: a plain path, a keyword, a host, a short value) as it is, so the person
 * sees what they approve (`MEMORY_FILE_PATH=/home/u/mem.json`, not `****`). Anything the redactor
 * masks in logs, the audit log and what the model sees (a secret name, a credentials URL, any other
 * value) is masked here too. Quoted when it holds a space or a quote, so `A=x B=y` stays readable.
 */
export function shownConfigValue(name: string, value: string, kind: "env" | "header"): string {
  if (isPureReference(value)) return value;
  if (kind === "env" && isCodeLoadingEnvName(name) && !NPM_CREDENTIAL.test(name)) return JSON.stringify(value);
  if (isMaskedValue(name, value, kind)) return "****";
  return /[\s"]/.test(value) ? JSON.stringify(value) : value;
}

export class McpLaunchEnvError extends McpvmError<"MCP_LAUNCH_ENV_UNCONFIRMED"> {
  override readonly name = "McpLaunchEnvError";
}

/**
 * The gate every face goes through before an approval is stored: a definition that sets
 * code-loading variables is approved only when the person said so explicitly (the CLI's
 * --accept-launch-env, or the server name typed on a terminal), never by a plain yes.
 */
export function requireLaunchEnvConfirmed(server: string, env: Readonly<Record<string, string>> | undefined, confirmed: boolean): void {
  const findings = auditLaunchEnv(env);
  if (findings.length === 0 || confirmed) return;
  const names = findings.map((f) => displayInline(f.name)).join(", ");
  throw new McpLaunchEnvError(
    "MCP_LAUNCH_ENV_UNCONFIRMED",
    `MCP server "${server}" sets ${names}, which change${findings.length === 1 ? "s" : ""} which code it runs, so a plain yes does not approve it. ` +
      `Read the values in \`mcpvm mcp info ${server}\`, then approve with \`mcpvm mcp approve ${server} --accept-launch-env\` (or type the server name when asked on a terminal).`,
    { data: { server, variables: findings.map((f) => f.name) } },
  );
}
