import { z } from "zod";
import { TypeGeneratorError } from "./errors.js";
import { assertServerName, assertToolNames } from "./names.js";
import { toolForTypesSchema, type ToolForTypes } from "./types.js";

/** Validate the catalog's hand-over once, at the boundary, so the rest works on checked data. */
export function checkedTools(serverName: string, tools: readonly unknown[]): ToolForTypes[] {
  assertServerName(serverName);
  const parsed = z.array(toolForTypesSchema).safeParse(tools);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeGeneratorError(
      "TYPEGEN_INVALID_TOOL",
      `A tool of MCP server "${serverName}" is malformed at ${issue?.path.join(".") ?? "(root)"}: ${issue?.message ?? "invalid"}. The catalog must pass { jsName, originalName, inputSchema, … }.`,
      { data: { serverName } },
    );
  }
  assertToolNames(serverName, parsed.data);
  return parsed.data;
}

/** A tool may be called without arguments when its input is a plain object with nothing required. */
export function inputIsOptional(tool: ToolForTypes): boolean {
  const schema = tool.inputSchema;
  if (schema.type !== undefined && schema.type !== "object") return false;
  if (["$ref", "anyOf", "oneOf", "allOf"].some((keyword) => keyword in schema)) return false;
  return !Array.isArray(schema.required) || schema.required.length === 0;
}

/** `memory` stays bare, `my-server` is quoted: how a server is spelled as a property key. */
export function propertyKey(name: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
}

export function moduleSpecifier(serverName: string): string {
  return `host:mcp-${serverName}`;
}
