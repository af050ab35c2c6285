import { asSchema, type ToolSet } from "ai";

/** One tool definition as the OpenAI-compatible provider puts it in the request's `tools` array. */
export interface WireToolDefinition {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description: string | undefined; readonly parameters: unknown };
}

/**
 * The `tools` array of a request, built the way the AI SDK builds it (ToolSet order, only the
 * active tools, input schema converted to JSON Schema). This is what a step costs in tool
 * definitions, so /tokens and the documented figures count exactly this JSON.
 */
export async function toolDefinitionsAsSent(tools: ToolSet, active: readonly string[]): Promise<WireToolDefinition[]> {
  const definitions: WireToolDefinition[] = [];
  for (const [name, definition] of Object.entries(tools)) {
    if (!active.includes(name)) continue;
    definitions.push({ type: "function", function: { name, description: definition.description, parameters: await asSchema(definition.inputSchema).jsonSchema } });
  }
  return definitions;
}
