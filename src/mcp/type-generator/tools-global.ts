import { TypeGeneratorError } from "./errors.js";
import { renderDocComment, toolDocLines } from "./jsdoc.js";
import { allocateToolTypeNames, CALL_OPTIONS_TYPE } from "./names.js";
import { checkedTools, inputIsOptional, moduleSpecifier, propertyKey } from "./tool-list.js";
import type { ToolForTypes } from "./types.js";

export interface ServerTools {
  readonly serverName: string;
  readonly tools: readonly ToolForTypes[];
}

/**
 * `declare const tools` of the guest contract: the same tools as async functions, one object per
 * server. Types are referenced from the module declarations (`import("host:mcp-x").XInput`), so
 * this must be shown together with generateModuleDeclaration's output for the same tool lists.
 */
export function generateToolsGlobalDeclaration(servers: readonly ServerTools[]): string {
  const seen = new Set<string>();
  const blocks = servers.map(({ serverName, tools }) => {
    const checked = checkedTools(serverName, tools);
    if (seen.has(serverName)) {
      throw new TypeGeneratorError("TYPEGEN_INVALID_SERVER_NAME", `MCP server "${serverName}" is listed twice for the tools global; pass each server once.`, {
        data: { serverName },
      });
    }
    seen.add(serverName);
    const from = `import(${JSON.stringify(moduleSpecifier(serverName))})`;
    const names = allocateToolTypeNames(checked);
    const members = checked.map((tool, index) => {
      const { input, output } = names[index]!;
      const param = `input${inputIsOptional(tool) ? "?" : ""}: ${from}.${input}`;
      return `${renderDocComment(toolDocLines(tool), "    ")}    ${tool.jsName}(${param}, options?: ${from}.${CALL_OPTIONS_TYPE}): Promise<${from}.${output}>;`;
    });
    if (members.length === 0) return `  ${propertyKey(serverName)}: {};`;
    return [`  ${propertyKey(serverName)}: {`, ...members, "  };"].join("\n");
  });
  return ["declare const tools: {", ...blocks, "};", ""].join("\n");
}
