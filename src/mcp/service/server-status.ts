import { createHash } from "node:crypto";
import { rm } from "node:fs/promises";
import { z } from "zod";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { JsonFileStore } from "../../util/json-store.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { canonicalJson, type McpServerEntry } from "../config/index.js";

/**
 * server-status.json: the last connect result of every server, so `mcpvm mcp list` and `mcpvm
 * doctor` in a new process can say "failed 2 min ago: …" or "9 tools" without starting anything.
 * It is a cache: a missing, corrupt or unwritable file is warned about once and ignored, and a
 * record of an older definition of the server is not shown.
 */
const MAX_MESSAGE_CHARS = 4_000;

const recordSchema = z
  .object({
    result: z.enum(["connected", "failed"]),
    /** ISO time of the result. */
    at: z.string(),
    /** Hash of the server's definition when this was recorded. */
    definition: z.string(),
    toolCount: z.number().int().nonnegative().optional(),
    heldCount: z.number().int().nonnegative().optional(),
    error: z.object({ code: z.string(), message: z.string() }).strict().optional(),
  })
  .strict();

const fileSchema = z.object({ version: z.literal(1), servers: z.record(z.string(), recordSchema) }).strict();

export type ServerStatusRecord = z.infer<typeof recordSchema>;
type StatusFile = z.infer<typeof fileSchema>;

/** Which definition a record belongs to (config edits make old results meaningless). */
export function definitionHash(entry: McpServerEntry): string {
  return createHash("sha256").update(canonicalJson(entry)).digest("hex").slice(0, 16);
}

export class ServerStatusStore {
  private readonly store: JsonFileStore<StatusFile>;
  private warned = false;

  constructor(
    readonly file: string,
    private readonly warn: (message: string) => void,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.store = new JsonFileStore(file, fileSchema, () => ({ version: 1 as const, servers: {} }), "the last connect result of each MCP server (a cache; deleting it loses nothing)", STATE_FILE_LIMITS.small);
  }

  /** Every record; empty (after one warning) when the file cannot be read. */
  async readAll(): Promise<Readonly<Record<string, ServerStatusRecord>>> {
    try {
      return (await this.store.read()).servers;
    } catch (error) {
      this.warnOnce(`ignoring ${this.file}: ${errorMessage(error)}`);
      return {};
    }
  }

  /** The record for this definition of the server, if the last result was recorded for it. */
  async get(name: string, entry: McpServerEntry): Promise<ServerStatusRecord | undefined> {
    const record = (await this.readAll())[name];
    return record?.definition === definitionHash(entry) ? record : undefined;
  }

  async recordConnected(name: string, entry: McpServerEntry, counts: { toolCount: number; heldCount: number }): Promise<void> {
    await this.write(name, { result: "connected", at: this.clock().toISOString(), definition: definitionHash(entry), ...counts });
  }

  async recordFailed(name: string, entry: McpServerEntry, error: unknown): Promise<void> {
    const code = isMcpvmError(error) ? error.code : "INTERNAL";
    const message = errorMessage(error).slice(0, MAX_MESSAGE_CHARS);
    await this.write(name, { result: "failed", at: this.clock().toISOString(), definition: definitionHash(entry), error: { code, message } });
  }

  /** Never throws: a status that cannot be recorded must not fail the connect it describes. */
  private async write(name: string, record: ServerStatusRecord): Promise<void> {
    const put = () =>
      this.store.update((file) => {
        file.servers[name] = record;
      });
    let failure: unknown;
    try {
      await put();
      return;
    } catch (error) {
      failure = error;
    }
    if (isMcpvmError(failure) && failure.code === "STORE_CORRUPT") {
      // A cache: start it again rather than keep failing.
      try {
        await rm(this.file, { force: true });
        await put();
        this.warnOnce(`${this.file} was not valid and was started afresh (it is only a cache)`);
        return;
      } catch (retry) {
        failure = retry;
      }
    }
    this.warnOnce(`cannot record the connect result of ${name} in ${this.file}: ${errorMessage(failure)}`);
  }

  private warnOnce(message: string): void {
    if (this.warned) return;
    this.warned = true;
    this.warn(message);
  }
}
