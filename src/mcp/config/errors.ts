import { McpvmError } from "../../util/errors.js";

/**
 * Every failure of MCP configuration, import and launch resolution. Classify by `code`:
 *
 * | code | what to do |
 * |---|---|
 * | MCP_CONFIG_INVALID | fix each listed file/path/rule (`issues`) |
 * | MCP_SERVER_ARGUMENT_INVALID | a name or definition typed on the command line breaks a rule; the message offers a valid name |
 * | MCP_CONFIG_SERVER_NOT_FOUND | check the name with `mcpvm mcp list` |
 * | MCP_CONFIG_SERVER_EXISTS | pick another name or pass the overwrite option |
 * | MCP_CONFIG_MISSING_VARIABLE | export the named variable, or give a default `${VAR:-value}` |
 * | MCP_CONFIG_RESOLVED_URL_INVALID | the url is not http(s) once variables are filled in |
 * | MCP_CONFIG_UNKNOWN_INPUT | declare the `${input:id}` in the server's `inputs` |
 * | MCP_CONFIG_INPUT_UNAVAILABLE | run interactively so the input can be asked for |
 * | MCP_CONFIG_INPUT_CANCELLED | the prompt was dismissed or left empty; answer it |
 * | MCP_CONFIG_INPUT_INVALID | choose one of the listed options |
 * | MCP_CONFIG_RELATIVE_PATH | a stdio command or argument is a relative path but the server has no `cwd`: make it absolute or set `cwd` |
 * | MCP_IMPORT_UNREADABLE | the file to import cannot be read |
 * | MCP_IMPORT_INVALID_JSON | the file to import is not JSON (comments and trailing commas are fine) |
 * | MCP_IMPORT_UNKNOWN_FORMAT | the file has no `mcpServers`, `servers` or `mcp` section |
 * | MCP_IMPORT_UNSUPPORTED_FORMAT | a format mcpvm knows but does not import (Zed `context_servers`, TOML, YAML) |
 */
export type McpConfigErrorCode =
  | "MCP_CONFIG_INVALID"
  | "MCP_SERVER_ARGUMENT_INVALID"
  | "MCP_CONFIG_SERVER_NOT_FOUND"
  | "MCP_CONFIG_SERVER_EXISTS"
  | "MCP_CONFIG_MISSING_VARIABLE"
  | "MCP_CONFIG_RESOLVED_URL_INVALID"
  | "MCP_CONFIG_UNKNOWN_INPUT"
  | "MCP_CONFIG_INPUT_UNAVAILABLE"
  | "MCP_CONFIG_INPUT_CANCELLED"
  | "MCP_CONFIG_INPUT_INVALID"
  | "MCP_CONFIG_RELATIVE_PATH"
  | "MCP_IMPORT_UNREADABLE"
  | "MCP_IMPORT_INVALID_JSON"
  | "MCP_IMPORT_UNKNOWN_FORMAT"
  | "MCP_IMPORT_UNSUPPORTED_FORMAT";

/**
 * The rule a configuration value broke. Custom rules are ours; the others are zod's issue codes
 * (wrong type, unknown key, …), passed through so every problem has a stable name.
 */
export type McpConfigRule =
  | "server-name"
  | "server-name-length"
  | "native-plugin-name"
  | "reserved-prefix"
  | "reserved-name"
  | "max-servers"
  | "stdio-command"
  | "remote-url"
  | "url-scheme"
  | "transport-fields"
  | "placeholder"
  | "unknown-input"
  | "duplicate-input"
  | "input-conflict"
  | "env-name"
  | "header-name"
  | (string & {});

export interface McpConfigIssue {
  /** Formatted JSON path inside the file, e.g. `mcpServers.github.url`. */
  readonly path: string;
  readonly rule: McpConfigRule;
  readonly message: string;
  /** The mcpServers entry the issue is in (absent for the section as a whole, e.g. max-servers). */
  readonly server?: string;
}

export class McpConfigError extends McpvmError<McpConfigErrorCode> {
  /** For MCP_CONFIG_INVALID: every problem found, in document order. Empty otherwise. */
  readonly issues: readonly McpConfigIssue[];

  constructor(
    code: McpConfigErrorCode,
    message: string,
    options?: { data?: Record<string, unknown>; cause?: unknown; issues?: readonly McpConfigIssue[] },
  ) {
    super(code, message, options);
    this.issues = options?.issues ?? [];
  }
}
