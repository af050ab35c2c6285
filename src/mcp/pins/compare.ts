import { canonicalJson, instructionsHash, pinnedPart, toolDefinitionHash, type PinnableTool } from "./canonical.js";

export interface ToolPin {
  readonly hash: string;
  /** The pinned definition itself, kept so a later change can be shown as a diff. */
  readonly definition: Record<string, unknown>;
}

export interface ServerPins {
  readonly instructionsHash: string;
  readonly instructions?: string;
  readonly tools: Readonly<Record<string, ToolPin>>;
}

export interface FieldChange {
  readonly path: string;
  readonly before: string;
  readonly after: string;
}

export interface PinComparison {
  /** Tools whose definition matches its pin: these may reach the sandbox and the model. */
  readonly unchanged: readonly string[];
  /** Pinned tools whose definition changed (rug pull): blocked until re-approved. */
  readonly changed: ReadonlyArray<{ readonly name: string; readonly changes: readonly FieldChange[] }>;
  /** Tools with no pin yet: need approval. */
  readonly added: readonly string[];
  /** Pinned tools the server no longer lists: they disappear from the module. */
  readonly removed: readonly string[];
  readonly instructionsChanged: boolean;
}

export function pinServer(instructions: string | undefined, tools: readonly PinnableTool[]): ServerPins {
  // fromEntries creates own keys even for tool names like `__proto__` (an assignment would not).
  const pins: Record<string, ToolPin> = Object.fromEntries(
    tools.map((tool) => [tool.name, { hash: toolDefinitionHash(tool), definition: JSON.parse(canonicalJson(pinnedPart(tool))) as Record<string, unknown> }]),
  );
  return { instructionsHash: instructionsHash(instructions), ...(instructions === undefined ? {} : { instructions }), tools: pins };
}

export function comparePins(pins: ServerPins | undefined, instructions: string | undefined, tools: readonly PinnableTool[]): PinComparison {
  const unchanged: string[] = [];
  const changed: Array<{ name: string; changes: FieldChange[] }> = [];
  const added: string[] = [];
  for (const tool of tools) {
    // A server names its tools: `constructor` or `toString` must not find Object.prototype's.
    const pin = pins !== undefined && Object.hasOwn(pins.tools, tool.name) ? pins.tools[tool.name] : undefined;
    if (pin === undefined) added.push(tool.name);
    else if (pin.hash === toolDefinitionHash(tool)) unchanged.push(tool.name);
    else changed.push({ name: tool.name, changes: diffDefinitions(pin.definition, JSON.parse(canonicalJson(pinnedPart(tool)))) });
  }
  const listed = new Set(tools.map((t) => t.name));
  const removed = Object.keys(pins?.tools ?? {}).filter((name) => !listed.has(name));
  const instructionsChanged = pins !== undefined && pins.instructionsHash !== instructionsHash(instructions);
  return { unchanged: unchanged.sort(), changed: changed.sort((a, b) => (a.name < b.name ? -1 : 1)), added: added.sort(), removed: removed.sort(), instructionsChanged };
}

const MAX_SHOWN = 300;
function show(value: unknown): string {
  const text = value === undefined ? "(absent)" : typeof value === "string" ? JSON.stringify(value) : canonicalJson(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}… (${text.length} chars)` : text;
}

/** A field-level diff of two canonical definitions, deepest differing paths first found, capped. */
export function diffDefinitions(before: unknown, after: unknown, path = "", out: FieldChange[] = []): FieldChange[] {
  if (out.length >= 50) return out;
  if (canonicalJson(before) === canonicalJson(after)) return out;
  const bothObjects =
    before !== null && after !== null && typeof before === "object" && typeof after === "object" && Array.isArray(before) === Array.isArray(after);
  if (!bothObjects) {
    out.push({ path: path || "(root)", before: show(before), after: show(after) });
    return out;
  }
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  for (const key of keys) diffDefinitions(b[key], a[key], Array.isArray(before) ? `${path}[${key}]` : path ? `${path}.${key}` : key, out);
  return out;
}

export function formatPinChanges(name: string, changes: readonly FieldChange[]): string {
  return [`tool "${name}" changed since it was approved:`, ...changes.map((c) => `  ${c.path}:\n    - ${c.before}\n    + ${c.after}`)].join("\n");
}
