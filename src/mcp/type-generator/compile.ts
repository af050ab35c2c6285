import type { Options } from "json-schema-to-typescript";
import { errorMessage } from "../../util/errors.js";
import { sanitizeDescription } from "../sanitise/description.js";
import { CompiledTypesCache, type CompileOutcome } from "./cache.js";
import { SYNTHETIC_ROOT_TYPE } from "./names.js";

/** One named type to emit: a tool's input or output, already passed through prepareSchema. */
export interface CompileEntry {
  /** Property key in the synthetic root; prepared `$ref`s point under `#/properties/<key>`. */
  readonly key: string;
  readonly name: string;
  readonly schema: Record<string, unknown>;
  /** What the type becomes if its schema cannot be compiled. */
  readonly fallbackType: "unknown" | "Record<string, unknown>";
}

const COMPILE_OPTIONS: Partial<Options> = {
  format: false,
  bannerComment: "",
  // Undeclared keys are noise for a reader of the types; an explicit `additionalProperties` still shows.
  additionalProperties: false,
  ignoreMinAndMaxItems: true,
  enableConstEnums: false,
  strictIndexSignatures: false,
  unknownAny: true,
  unreachableDefinitions: false,
  declareExternallyReferenced: true,
  // prepareSchema already removed every ref that leaves the document; this makes sure none is ever followed.
  $refOptions: { resolve: { external: false, file: false, http: false } },
};

type Compile = (typeof import("json-schema-to-typescript"))["compile"];
let compiler: Promise<Compile> | undefined;

/** The library (with Prettier) takes a few hundred ms to load: only pay that when types are first needed. */
function loadCompiler(): Promise<Compile> {
  compiler ??= import("json-schema-to-typescript").then((library) => library.compile);
  return compiler;
}

function syntheticRoot(entries: readonly CompileEntry[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const entry of entries) properties[entry.key] = entry.schema;
  return {
    type: "object",
    title: SYNTHETIC_ROOT_TYPE,
    additionalProperties: false,
    properties,
    required: entries.map((entry) => entry.key),
  };
}

/**
 * The compiled text holds the synthetic root interface somewhere (usually first), one `key: Name`
 * line per entry plus any doc comments. Cut it out and check every entry kept the name we gave it:
 * if the library had to rename one, the function declarations would point at the wrong type.
 */
function stripRoot(text: string, entries: readonly CompileEntry[]): string | undefined {
  const lines = text.split("\n");
  const start = lines.indexOf(`export interface ${SYNTHETIC_ROOT_TYPE} {`);
  const end = lines.indexOf("}", start);
  if (start < 0 || end < 0) return undefined;
  const assigned = new Map<string, string>();
  for (const line of lines.slice(start + 1, end)) {
    const match = /^([A-Za-z0-9_]+): ([A-Za-z0-9_$]+)$/.exec(line);
    if (match !== null) assigned.set(match[1]!, match[2]!);
  }
  if (entries.some((entry) => assigned.get(entry.key) !== entry.name)) return undefined;
  return [...lines.slice(0, start), ...lines.slice(end + 1)]
    .filter((line) => line.trim() !== "")
    .join("\n");
}

async function compileBatch(entries: readonly CompileEntry[], cache: CompiledTypesCache): Promise<CompileOutcome> {
  const root = syntheticRoot(entries);
  const key = CompiledTypesCache.keyOf(root);
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  // Outside the try: a library that cannot load is a broken installation, not a bad schema.
  const compile = await loadCompiler();
  let outcome: CompileOutcome;
  try {
    // compile() clones its input, so the document we hashed stays the cache key.
    const body = stripRoot(await compile(root as Parameters<Compile>[0], SYNTHETIC_ROOT_TYPE, COMPILE_OPTIONS), entries);
    outcome = body === undefined ? { ok: false, reason: "its type names could not be kept" } : { ok: true, text: body };
  } catch (error) {
    outcome = { ok: false, reason: errorMessage(error) };
  }
  cache.set(key, outcome);
  return outcome;
}

/** The stand-in schema for a type we could not produce: the fallback type plus a comment saying why. */
export function degradedSchema(name: string, fallbackType: CompileEntry["fallbackType"], reason: string): Record<string, unknown> {
  const why = sanitizeDescription(reason.split("\n")[0] ?? "", 160);
  return {
    title: name,
    description: `mcpvm could not turn this tool's JSON Schema into a type (${why}); it is left open.`,
    // Our own literal, never text from a server: prepareSchema strips `tsType` from every server schema.
    tsType: fallbackType,
  };
}

/**
 * All entries in one compile call (measured faster than one call per schema); if that fails, each
 * entry alone, and an entry that still fails becomes its fallback type with a comment saying why.
 */
export async function compileEntries(entries: readonly CompileEntry[], cache: CompiledTypesCache): Promise<string> {
  if (entries.length === 0) return "";
  const batch = await compileBatch(entries, cache);
  if (batch.ok) return batch.text;
  // Find the entries that broke the batch by compiling each alone.
  const parts: string[] = [];
  for (const entry of entries) {
    const alone = await compileBatch([entry], cache);
    if (alone.ok) {
      parts.push(alone.text);
      continue;
    }
    const degraded = await compileBatch([{ ...entry, schema: degradedSchema(entry.name, entry.fallbackType, alone.reason) }], cache);
    parts.push(degraded.ok ? degraded.text : `export type ${entry.name} = ${entry.fallbackType}`);
  }
  return parts.join("\n");
}
