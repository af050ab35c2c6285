import { z } from "zod";
import { JsonFileStore } from "../../util/json-store.js";
import type { ServerPins } from "./compare.js";

const toolPinSchema = z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/), definition: z.record(z.string(), z.unknown()) }).strict();
const serverPinsSchema = z
  .object({ instructionsHash: z.string().regex(/^[0-9a-f]{64}$/), instructions: z.string().optional(), tools: z.record(z.string(), toolPinSchema) })
  .strict();
const pinsFileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), serverPinsSchema) }).strict();
type PinsFile = z.infer<typeof pinsFileSchema>;

/** mcp-pins.json: the approved tool definitions of every server, as first seen or last re-approved. */
export class McpPinStore {
  private readonly store: JsonFileStore<PinsFile>;

  constructor(readonly file: string) {
    this.store = new JsonFileStore(file, pinsFileSchema, () => ({ version: 1 as const, servers: {} }), "the pinned MCP tool definitions (no MCP tool is exposed meanwhile)");
  }

  async get(server: string): Promise<ServerPins | undefined> {
    return (await this.store.read()).servers[server];
  }

  async set(server: string, pins: ServerPins): Promise<void> {
    await this.store.update((file) => {
      file.servers[server] = { instructionsHash: pins.instructionsHash, ...(pins.instructions === undefined ? {} : { instructions: pins.instructions }), tools: { ...pins.tools } };
    });
  }

  /**
   * Re-approve some tools: their current definitions replace (or add) their pins. The pinned
   * instructions stay as they were (or become these, on a server's first pins): accepting tools is
   * not a review of changed instructions.
   */
  async accept(server: string, current: ServerPins, toolNames: readonly string[] | "all"): Promise<void> {
    await this.store.update((file) => {
      const existing = file.servers[server];
      const names = toolNames === "all" ? Object.keys(current.tools) : toolNames;
      const tools = { ...existing?.tools };
      for (const name of names) {
        const pin = current.tools[name];
        if (pin !== undefined) tools[name] = pin;
      }
      const instructions = existing ?? current;
      file.servers[server] = {
        instructionsHash: instructions.instructionsHash,
        ...(instructions.instructions === undefined ? {} : { instructions: instructions.instructions }),
        tools,
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
