import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { modelMessageSchema, type ModelMessage } from "ai";
import { z } from "zod";
import { UsageError } from "../../terminal/args.js";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { McpvmError } from "../../util/errors.js";
import { readOwnFile, StateFileTooLargeError } from "../../util/own-file.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { didYouMean } from "../../util/suggest.js";

/** A saved conversation file that cannot be used (not JSON, not this shape): exit 3, like other state files. */
export class ConversationFileError extends McpvmError<"STORE_CONVERSATION_INVALID" | "STORE_CONVERSATION_UNWRITABLE"> {}

const savedSchema = z.object({ version: z.literal(1), id: z.string(), savedAt: z.string(), model: z.string().optional(), messages: z.array(modelMessageSchema) });
export type SavedConversation = z.infer<typeof savedSchema>;

/** `/save` writes to `<config home>/conversations/<id>.json`; ids sort by time, so the last is the newest. */
export function conversationsDir(home: string): string {
  return join(home, "conversations");
}

const ID = /^\d{8}-\d{6}(?:-\d+)?$/;

/** An id for now (UTC, to the second), made unique among `taken`. */
function newId(now: Date, taken: readonly string[]): string {
  const base = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  let id = base;
  for (let n = 2; taken.includes(id); n++) id = `${base}-${n}`;
  return id;
}

async function savedIds(home: string): Promise<string[]> {
  const dir = conversationsDir(home);
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    // A file in the folder's place, a folder mcpvm may not read: a state problem (exit 3), said as one.
    throw new ConversationFileError("STORE_CONVERSATION_INVALID", `${dir} cannot be read as the folder of saved conversations (${error.message}); move it away, then /save in the REPL saves there again.`, { cause: error });
  });
  return names
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -5))
    .filter((id) => ID.test(id))
    .sort();
}

/** Every string of a value through `redact` (a secret the person typed or a tool returned is not written to disk). */
function redacted(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === "string") return redact(value);
  if (Array.isArray(value)) return value.map((item) => redacted(item, redact));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redacted(item, redact)]));
  return value;
}

/** Saves the conversation (atomically, mode 0600, known secrets masked) and returns its id. */
export async function saveConversation(home: string, messages: readonly ModelMessage[], model: string | undefined, redact: (text: string) => string, now = new Date()): Promise<string> {
  try {
    const id = newId(now, await savedIds(home));
    const saved: SavedConversation = { version: 1, id, savedAt: now.toISOString(), ...(model === undefined ? {} : { model }), messages: redacted(messages, redact) as ModelMessage[] };
    await writeFileAtomic(join(conversationsDir(home), `${id}.json`), `${JSON.stringify(saved)}\n`, 0o600);
    return id;
  } catch (thrown) {
    // The conversation lives on in the REPL: say so, and what to fix before saving again.
    const error = (thrown instanceof ConversationFileError ? thrown.cause : thrown) as NodeJS.ErrnoException;
    const fix = error.code === "ENOTDIR" || error.code === "EEXIST" ? "move that file away (or fix the folder)" : "check the folder's permissions and free space";
    throw new ConversationFileError("STORE_CONVERSATION_UNWRITABLE", `cannot save the conversation in ${conversationsDir(home)} (${error.message}); the conversation is still here: ${fix}, then /save again.`, { cause: error });
  }
}

/** The conversation `which` names (an id, or `last`); a usage error (exit 2) when there is none. */
export async function loadConversation(home: string, which: string): Promise<SavedConversation> {
  const ids = await savedIds(home);
  const id = which === "last" ? ids.at(-1) : ids.includes(which) ? which : undefined;
  if (id === undefined) {
    const known = ids.length === 0 ? "No conversation is saved yet: /save in the REPL saves one." : `Saved: ${ids.slice(-5).join(", ")}${ids.length > 5 ? ` (the last 5 of ${ids.length})` : ""}, or last.`;
    throw new UsageError("USAGE", `--resume ${which}: no such saved conversation${(which === "last" ? "" : didYouMean(which, ids)) || "."} ${known}`);
  }
  const file = join(conversationsDir(home), `${id}.json`);
  let parsed: unknown;
  try {
    // The shared state-file reader: no link followed, yours, and size-capped (a grown file is refused unread).
    const read = await readOwnFile(file, STATE_FILE_LIMITS.conversation);
    if (read === undefined) throw new Error("it was removed meanwhile");
    if ("problem" in read) throw new Error(`it ${read.problem.problem}`);
    parsed = JSON.parse(read.text);
  } catch (error) {
    if (error instanceof StateFileTooLargeError) throw error;
    throw new ConversationFileError("STORE_CONVERSATION_INVALID", `${file} cannot be read as a saved conversation (${error instanceof Error ? error.message : String(error)}); move it away, or resume another.`);
  }
  const version = (parsed as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version !== 1) {
    throw new ConversationFileError("STORE_CONVERSATION_INVALID", `${file} was saved by another version of mcpvm (format ${version}; this one reads format 1); resume it with that version, or resume another.`);
  }
  const checked = savedSchema.safeParse(parsed);
  if (!checked.success) throw new ConversationFileError("STORE_CONVERSATION_INVALID", `${file} is not a saved conversation mcpvm can resume (${checked.error.issues[0]?.message ?? "invalid"}); move it away, or resume another.`);
  return checked.data;
}
