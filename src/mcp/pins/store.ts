import { z } from "zod";
import { JsonFileStore } from "../../util/json-store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import type { ServerPins, ToolPin } from "./compare.js";

const toolPinSchema = z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/), definition: z.record(z.string(), z.unknown()) }).strict();
const serverPinsSchema = z
  .object({ instructionsHash: z.string().regex(/^[0-9a-f]{64}$/), instructions: z.string().optional(), tools: z.record(z.string(), toolPinSchema) })
  .strict();
const pinsFileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), serverPinsSchema) }).strict();
type PinsFile = z.infer<typeof pinsFileSchema>;

/**
 * Tool names come from servers and key the `tools` record. Stores are read with parseJsonSafe, which
 * drops `__proto__`, `constructor` and `prototype` keys, so those names (and names starting with %,
 * to keep the mapping one-to-one) are stored with a leading %.
 */
const ESCAPED_KEY = /^(%|__proto__$|constructor$|prototype$)/;
const toKey = (name: string): string => (ESCAPED_KEY.test(name) ? `%${name}` : name);
const fromKey = (key: string): string => (key.startsWith("%") ? key.slice(1) : key);
/**
 * A pinned definition is the server's JSON Schema, whose properties may well be named `constructor`;
 * the store refuses such keys (a hand-edited `__proto__` would otherwise vanish), so every key
 * inside a definition is escaped the same way.
 */
function mapKeys(value: unknown, map: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapKeys(item, map));
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [map(key), mapKeys(child, map)]));
}
const encodePin = (pin: ToolPin): ToolPin => ({ hash: pin.hash, definition: mapKeys(pin.definition, toKey) as Record<string, unknown> });
const decodePin = (pin: ToolPin): ToolPin => ({ hash: pin.hash, definition: mapKeys(pin.definition, fromKey) as Record<string, unknown> });
const encodeTools = (tools: Readonly<Record<string, ToolPin>>) => Object.fromEntries(Object.entries(tools).map(([name, pin]) => [toKey(name), encodePin(pin)]));
const decodeTools = (tools: Readonly<Record<string, ToolPin>>) => Object.fromEntries(Object.entries(tools).map(([key, pin]) => [fromKey(key), decodePin(pin)]));

/** mcp-pins.json: the approved tool definitions of every server, as first seen or last re-approved. */
export class McpPinStore {
  private readonly store: JsonFileStore<PinsFile>;

  constructor(readonly file: string) {
    this.store = new JsonFileStore(file, pinsFileSchema, () => ({ version: 1 as const, servers: {} }), "the pinned MCP tool definitions (no MCP tool is exposed meanwhile)", STATE_FILE_LIMITS.pins,
      // Before definitions were escaped, a schema's `constructor` property was written as is.
      (path) => path[0] === "servers" && path[2] === "tools" && path[4] === "definition" && path.length > 5,
    );
  }

  async get(server: string): Promise<ServerPins | undefined> {
    const servers = (await this.store.read()).servers;
    const stored = Object.hasOwn(servers, server) ? servers[server] : undefined;
    return stored === undefined ? undefined : { ...stored, tools: decodeTools(stored.tools) };
  }

  async set(server: string, pins: ServerPins): Promise<void> {
    await this.store.update((file) => {
      file.servers[server] = { instructionsHash: pins.instructionsHash, ...(pins.instructions === undefined ? {} : { instructions: pins.instructions }), tools: encodeTools(pins.tools) };
    });
  }

  /**
   * Re-approve some tools: their current definitions replace (or add) their pins. The pinned
   * instructions stay as they were (or become these, on a server's first pins): accepting tools is
   * not a review of changed instructions.
   */
  async accept(server: string, current: ServerPins, toolNames: readonly string[] | "all"): Promise<void> {
    await this.store.update((file) => {
      const existing = Object.hasOwn(file.servers, server) ? file.servers[server] : undefined;
      const names = toolNames === "all" ? Object.keys(current.tools) : toolNames;
      const tools = new Map(Object.entries(decodeTools(existing?.tools ?? {})));
      for (const name of names) {
        const pin = Object.hasOwn(current.tools, name) ? current.tools[name] : undefined;
        if (pin !== undefined) tools.set(name, pin);
      }
      const instructions = existing ?? current;
      file.servers[server] = {
        instructionsHash: instructions.instructionsHash,
        ...(instructions.instructions === undefined ? {} : { instructions: instructions.instructions }),
        tools: encodeTools(Object.fromEntries(tools)),
      };
    });
  }

  async forget(server: string): Promise<boolean> {
    return this.store.update((file) => {
      if (file.servers[server] === undefined) return false;
      delete file.servers[server];
      return true;
    });
  }
}
