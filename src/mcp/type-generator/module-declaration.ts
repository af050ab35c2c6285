import { CompiledTypesCache } from "./cache.js";
import { compileEntries, degradedSchema, type CompileEntry } from "./compile.js";
import { indentBlock } from "./indent.js";
import { orderDeclarations } from "./order.js";
import { renderDocComment, toolDocLines } from "./jsdoc.js";
import {
  allocateToolTypeNames,
  BATCH_OPTIONS_TYPE,
  BATCH_RESULT_TYPE,
  TypeNameAllocator,
  type ToolTypeNames,
} from "./names.js";
import { DEFAULT_PREPARE_LIMITS, prepareSchema, type PrepareLimits } from "./schema-prepare.js";
import { checkedTools, inputIsOptional, moduleSpecifier } from "./tool-list.js";
import type { ToolForTypes } from "./types.js";
import { TypeGeneratorError } from "./errors.js";
import { protocolDeclarations, type ProtocolNamespaces } from "./protocol-declarations.js";

export interface TypeGenerationOptions {
  /** Where compiled schemas are kept between calls; defaults to one cache shared by the process. */
  readonly cache?: CompiledTypesCache;
  readonly limits?: Partial<PrepareLimits>;
  /** The `resources` / `prompts` namespaces the server's module has (none when absent). */
  readonly protocol?: ProtocolNamespaces;
}

const INDENT = "  ";
let sharedCache: CompiledTypesCache | undefined;

function defaultCache(): CompiledTypesCache {
  sharedCache ??= new CompiledTypesCache();
  return sharedCache;
}

function entryFor(
  key: string,
  name: string,
  schema: Record<string, unknown> | undefined,
  fallbackType: CompileEntry["fallbackType"],
  prefix: string,
  allocator: TypeNameAllocator,
  limits: PrepareLimits,
): CompileEntry {
  // No outputSchema: the result is whatever the server sends.
  if (schema === undefined) return { key, name, fallbackType, schema: { title: name, tsType: "unknown" } };
  try {
    return { key, name, fallbackType, schema: prepareSchema(schema, { base: `#/properties/${key}`, rootName: name, prefix, allocator, limits }) };
  } catch (error) {
    if (error instanceof TypeGeneratorError && error.code === "TYPEGEN_SCHEMA_TOO_COMPLEX") {
      return { key, name, fallbackType, schema: degradedSchema(name, fallbackType, error.message) };
    }
    throw error;
  }
}

function functionDeclarations(tools: readonly ToolForTypes[], names: readonly ToolTypeNames[]): string {
  return tools
    .map((tool, index) => {
      const { input, output } = names[index]!;
      const param = inputIsOptional(tool) ? `input?: ${input}` : `input: ${input}`;
      return `${renderDocComment(toolDocLines(tool), INDENT)}${INDENT}export function ${tool.jsName}(${param}): ${output};`;
    })
    .join("\n");
}

function batchDeclarations(tools: readonly ToolForTypes[], names: readonly ToolTypeNames[]): string {
  const lines = [
    `${INDENT}/** Options of \`$batch\`. */`,
    `${INDENT}export interface ${BATCH_OPTIONS_TYPE} {`,
    `${INDENT}${INDENT}/** How many calls run at the same time: at most the server's \`maxConcurrentCalls\` (32 unless configured), which is also the default. */`,
    `${INDENT}${INDENT}concurrency?: number;`,
    `${INDENT}}`,
    `${INDENT}/** One entry per call of a \`$batch\`, in the order of \`argsList\`; a failed call does not fail the others. */`,
    `${INDENT}export type ${BATCH_RESULT_TYPE}<T> = { ok: true; value: T } | { ok: false; error: { name: string; message: string } };`,
    `${INDENT}/**`,
    `${INDENT} * Calls one tool of this server once per element of \`argsList\`, several at a time.`,
    `${INDENT} * Results come back in input order, each \`{ ok: true, value }\` or \`{ ok: false, error }\`.`,
    `${INDENT} */`,
  ];
  if (tools.length === 0) {
    lines.push(`${INDENT}export function $batch(tool: never, argsList: readonly unknown[], options?: ${BATCH_OPTIONS_TYPE}): ${BATCH_RESULT_TYPE}<unknown>[];`);
  }
  tools.forEach((tool, index) => {
    const { input, output } = names[index]!;
    lines.push(
      `${INDENT}export function $batch(tool: ${JSON.stringify(tool.jsName)}, argsList: readonly ${input}[], options?: ${BATCH_OPTIONS_TYPE}): ${BATCH_RESULT_TYPE}<${output}>[];`,
    );
  });
  return lines.join("\n");
}

/**
 * The ambient module a guest sees as `require("host:mcp-<serverName>")`: one input and one output
 * type per tool (named `<Tool>Input` / `<Tool>Output`, nested types prefixed with the tool), one
 * function per tool with its JSDoc, and `$batch`. Never throws for a schema: one that cannot be
 * converted leaves that tool's type open with a comment. Throws TypeGeneratorError only when the
 * caller broke its contract (bad server name, unsafe or duplicate JS names, malformed tool).
 */
export async function generateModuleDeclaration(
  serverName: string,
  tools: readonly ToolForTypes[],
  options: TypeGenerationOptions = {},
): Promise<string> {
  const checked = checkedTools(serverName, tools);
  const limits: PrepareLimits = { ...DEFAULT_PREPARE_LIMITS, ...options.limits };
  const allocator = new TypeNameAllocator();
  const names = allocateToolTypeNames(checked, allocator);
  const ranks = new Map<string, number>();
  const entries = checked.flatMap((tool, index) => {
    const { prefix, input, output } = names[index]!;
    const firstNested = allocator.allocated.length;
    const pair = [
      entryFor(`t${index}i`, input, tool.inputSchema, "Record<string, unknown>", prefix, allocator, limits),
      entryFor(`t${index}o`, output, tool.outputSchema, "unknown", prefix, allocator, limits),
    ];
    // Input, output, then the tool's named types in the order they were found.
    for (const name of [input, output, ...allocator.allocated.slice(firstNested)]) ranks.set(name, ranks.size);
    return pair;
  });
  const compiled = await compileEntries(entries, options.cache ?? defaultCache());
  const types = orderDeclarations(compiled, (name) => ranks.get(name));
  const protocol = protocolDeclarations(options.protocol ?? {}, allocator, INDENT);
  const sections = [types === "" ? "" : indentBlock(types, INDENT), functionDeclarations(checked, names), batchDeclarations(checked, names), protocol];
  return `declare module ${JSON.stringify(moduleSpecifier(serverName))} {\n${sections.filter((part) => part !== "").join("\n\n")}\n}\n`;
}
