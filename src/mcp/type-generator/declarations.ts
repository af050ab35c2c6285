import { generateModuleDeclaration, type TypeGenerationOptions } from "./module-declaration.js";
import { generateToolsGlobalDeclaration, type ServerTools } from "./tools-global.js";

/**
 * Everything a guest can see of MCP, as one .d.ts text: each server's module, then the `tools`
 * global that refers to them. What `mcpvm mcp types` prints and the system message embeds.
 */
export async function generateDeclarations(servers: readonly ServerTools[], options: TypeGenerationOptions = {}): Promise<string> {
  const modules: string[] = [];
  for (const server of servers) modules.push(await generateModuleDeclaration(server.serverName, server.tools, options));
  return [...modules, generateToolsGlobalDeclaration(servers)].join("\n");
}
