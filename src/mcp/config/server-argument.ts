import { describeZodIssues } from "../../util/zod-issues.js";
import { withKeySuggestions } from "../../util/zod-key-suggestions.js";
import { McpConfigError } from "./errors.js";
import { normaliseServerName } from "./import/server-names.js";
import { mcpServerEntrySchema } from "./schema.js";
import { serverNameProblems } from "./validate.js";

/**
 * Checks on what a person typed (`mcpvm mcp add "My Server" …`), made before config.json is touched.
 * The rules are config.json's, but the message is about the argument, never "config.json is not
 * valid" (the file is fine), and the code is MCP_SERVER_ARGUMENT_INVALID (a usage error, exit 2).
 */

/** The name `mcp import` would give this one ("My Server" -> "my-server"), or undefined when none fits. */
export function suggestServerName(name: string, nativePluginNames: readonly string[]): string | undefined {
  const { name: suggestion } = normaliseServerName(name, nativePluginNames);
  // Nothing of the original survived ("日本語" -> "server"): a made-up name helps nobody.
  if (suggestion === "server" && !name.toLowerCase().includes("server")) return undefined;
  return suggestion !== name && serverNameProblems(suggestion, nativePluginNames).length === 0 ? suggestion : undefined;
}

/** Throws when `name` cannot be a server name: `"My Server" is not a valid server name (…); did you mean "my-server"?` */
export function checkServerNameArgument(name: string, nativePluginNames: readonly string[]): void {
  const problems = serverNameProblems(name, nativePluginNames);
  if (problems.length === 0) return;
  const suggestion = suggestServerName(name, nativePluginNames);
  const why = problems.map((p) => (p.rule === "reserved-prefix" ? `${p.message} (its module is already host:mcp-<name>)` : p.message)).join("; ");
  throw new McpConfigError("MCP_SERVER_ARGUMENT_INVALID", `"${name}" is not a valid server name: ${why}${suggestion === undefined ? "" : `; did you mean ${suggestion}?`}`, {
    data: { name, ...(suggestion === undefined ? {} : { suggestion }) },
    issues: problems.map((p) => ({ path: name, rule: p.rule, message: p.message })),
  });
}

/** The whole definition built from flags (`--http notaurl`): its problems, named by field, as an argument error. */
export function checkServerArgument(name: string, entry: unknown, nativePluginNames: readonly string[]): void {
  checkServerNameArgument(name, nativePluginNames);
  const parsed = mcpServerEntrySchema.safeParse(entry);
  if (parsed.success) return;
  const issues = withKeySuggestions(parsed.error.issues, mcpServerEntrySchema);
  const listed = describeZodIssues("", issues).replace(/^ is not valid:\n/, "");
  throw new McpConfigError("MCP_SERVER_ARGUMENT_INVALID", `the definition of server "${name}" from your arguments is not valid (nothing was written):\n${listed}`, {
    data: { name },
  });
}
