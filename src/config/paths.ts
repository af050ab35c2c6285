import { isAbsolute, join, resolve, sep } from "node:path";
import { McpvmError } from "../util/errors.js";
import { userHome } from "../util/user-home.js";

/** Where mcpvm keeps its state. MCPVM_HOME overrides ~/.mcpvm; passed in, never read from process.env here. */
export interface ConfigPaths {
  readonly home: string;
  readonly configFile: string;
  readonly approvedPluginsFile: string;
  readonly approvedMcpFile: string;
  readonly pinsFile: string;
  readonly userPluginsDir: string;
  readonly toolsetsFile: string;
  readonly historyFile: string;
  readonly logsDir: string;
  /** The last connect result of every server (a cache for `mcp list` and `doctor`; never required). */
  readonly serverStatusFile: string;
  /** Named gateway client tokens (digests and allow-lists; `mcpvm gateway token`). */
  readonly gatewayClientsFile: string;
  /** One line per MCP tool call, from every face and process (the dashboard's Activity page). */
  readonly activityFile: string;
  /** The hash-chained audit log (append-only JSONL) and the record of its last entry. */
  readonly auditLogFile: string;
  readonly auditHeadFile: string;
  /** OAuth tokens and client registrations of remote MCP servers (mode 0600). */
  readonly oauthTokensFile: string;
  /** sha256 digests of MCP server executables, cached by file identity (a cache: deleting it only costs re-hashing). */
  readonly executableDigestsFile: string;
  /** Scans of plugin source files by content digest (a cache: deleting it only costs re-parsing; src/plugin-system/audit/scan-cache.ts). */
  readonly pluginScansFile: string;
  /** Private copies of approved user plugins' code, by approval hash; what runs (src/plugin-system/private-copy.ts). */
  readonly pluginCodeDir: string;
}

export class ConfigHomeError extends McpvmError<"CONFIG_HOME_INVALID"> {}

/**
 * MCPVM_HOME as written in a shell or in an MCP client's JSON `env` (where no shell expands `~`):
 * `~` and `~/x` mean the home directory; a relative path is refused, because it would silently
 * depend on whichever folder the client happens to start mcpvm in.
 */
export function resolveConfigHome(env: Readonly<Record<string, string | undefined>>): string {
  const raw = env.MCPVM_HOME?.trim();
  if (!raw) return join(homeFor("MCPVM_HOME is not set"), ".mcpvm");
  if (raw === "~") return homeFor(`MCPVM_HOME="${raw}" names it`, env.HOME);
  if (raw.startsWith("~/") || raw.startsWith(`~${sep}`)) return resolve(homeFor(`MCPVM_HOME="${raw}" starts from it`, env.HOME), raw.slice(2));
  if (raw.startsWith("~")) throw new ConfigHomeError("CONFIG_HOME_INVALID", `MCPVM_HOME="${raw}": only ~ and ~/… are expanded (not ~user); write the absolute path instead.`);
  if (!isAbsolute(raw)) {
    throw new ConfigHomeError("CONFIG_HOME_INVALID", `MCPVM_HOME="${raw}" is a relative path; give an absolute path (or ~/${raw.replace(/^\.\//, "")}) so the config home does not depend on the folder mcpvm starts in.`);
  }
  return resolve(raw);
}

function homeFor(why: string, fromEnv?: string): string {
  const home = fromEnv || userHome();
  if (home !== undefined && isAbsolute(home)) return home;
  if (home !== undefined) {
    throw new ConfigHomeError(
      "CONFIG_HOME_INVALID",
      `mcpvm has no config home: ${why}, but HOME="${home}" is a relative path, which would make it depend on the folder mcpvm starts in. Set HOME to an absolute path, or MCPVM_HOME to one, for example MCPVM_HOME=/data/mcpvm.`,
    );
  }
  throw new ConfigHomeError(
    "CONFIG_HOME_INVALID",
    `mcpvm has no config home: ${why}, but this account has no home folder (HOME is unset and the system has no entry for the account). Set MCPVM_HOME to an absolute path, for example MCPVM_HOME=/data/mcpvm.`,
  );
}

export function resolveConfigPaths(env: Readonly<Record<string, string | undefined>>): ConfigPaths {
  const home = resolveConfigHome(env);
  return {
    home,
    configFile: join(home, "config.json"),
    approvedPluginsFile: join(home, "approved-plugins.json"),
    approvedMcpFile: join(home, "approved-mcp.json"),
    pinsFile: join(home, "mcp-pins.json"),
    userPluginsDir: join(home, "plugins"),
    toolsetsFile: join(home, "toolsets.json"),
    historyFile: join(home, "history"),
    logsDir: join(home, "logs"),
    serverStatusFile: join(home, "server-status.json"),
    gatewayClientsFile: join(home, "gateway-clients.json"),
    activityFile: join(home, "activity.jsonl"),
    auditLogFile: join(home, "audit-log.jsonl"),
    auditHeadFile: join(home, "audit-log.head.json"),
    oauthTokensFile: join(home, "oauth-tokens.json"),
    executableDigestsFile: join(home, "exec-digests.json"),
    pluginScansFile: join(home, "plugin-scans.json"),
    pluginCodeDir: join(home, "plugin-code"),
  };
}
