import type { CompletionContext, CompletionResult } from "@codemirror/autocomplete";

export interface TypedServer {
  server: string;
  module: string;
  tools: Array<{ jsName: string; signature: string; description: string }>;
}

/**
 * Completion from the generated declarations: `tools.<server>.<tool>` with each tool's signature
 * and description, and the `host:mcp-<server>` module names inside require("…") and import … from "…".
 */
export function mcpCompletions(servers: () => readonly TypedServer[]) {
  return (context: CompletionContext): CompletionResult | null => {
    const member = context.matchBefore(/tools\.[\w$]*(\.[\w$]*)?$/);
    if (member !== null) {
      const parts = member.text.split(".");
      if (parts.length === 2) {
        return { from: member.from + "tools.".length, options: servers().map((s) => ({ label: s.server, type: "namespace", detail: s.module })), validFor: /^[\w$]*$/ };
      }
      const server = servers().find((s) => s.server === parts[1]);
      if (server === undefined) return null;
      const from = member.from + `tools.${parts[1]}.`.length;
      return { from, options: server.tools.map((t) => ({ label: t.jsName, type: "function", detail: t.signature, info: t.description })), validFor: /^[\w$]*$/ };
    }
    const moduleName = context.matchBefore(/(require\(|from\s+)["'][\w:-]*$/);
    if (moduleName !== null) {
      const quote = Math.max(moduleName.text.lastIndexOf('"'), moduleName.text.lastIndexOf("'"));
      return { from: moduleName.from + quote + 1, options: servers().map((s) => ({ label: s.module, type: "module", detail: `${s.tools.length} tools` })), validFor: /^[\w:-]*$/ };
    }
    return null;
  };
}
