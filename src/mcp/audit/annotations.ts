import { renderEvidence } from "./evidence.js";
import { identifierWords } from "./normalise.js";
import type { Hit } from "./rules.js";
import type { AuditedTool } from "./types.js";

/** Verbs that destroy or change data: a tool named with one cannot be read-only. */
const DESTRUCTIVE_VERB = new Set(["delete", "drop", "destroy", "remove", "purge", "wipe", "truncate", "erase", "revoke", "terminate", "kill", "reset", "overwrite", "transfer", "send", "pay", "withdraw"]);
/**
 * Verbs that change or publish something when they lead the name (`cleanup_directory`, `upload_file`, `install_package`);
 * elsewhere in a name they are often a noun (`get_upload_url`, `list_install_logs`).
 */
const CHANGING_VERB = new Set(["cleanup", "clean", "prune", "clear", "install", "uninstall", "upload", "publish", "rotate", "archive", "move", "rename", "write", "update", "create", "push", "merge", "submit", "post", "share", "grant", "invite", "approve"]);

/**
 * A name that reads a thing about an action (`get_transfer_status`, `post_analytics`) or stages one for the person to
 * carry out elsewhere (`prepare_transfer`, `draft_payment`): the action word there is a noun, the tool changes nothing.
 * A leading destructive verb still counts (`delete_logs`).
 */
const READING_LEAD = new Set(["get", "list", "check", "read", "show", "view", "fetch", "search", "find", "count", "describe", "lookup", "preview", "estimate", "simulate", "quote", "validate", "prepare", "draft"]);
// Only nouns that are figures about the action, never a thing it could act on (`upload_report` uploads a report).
const READING_TAIL = new Set(["status", "statuses", "analytics", "stats", "statistics", "metrics", "insights"]);
const JOINING = new Set(["and", "then", "or", "plus"]);

/**
 * Annotations that contradict the tool's own name: `readOnlyHint: true` on `drop_table` or
 * `send_payment`. Clients skip confirmation for read-only tools, so the lie is how a tool gets
 * called without a person being asked.
 */
export function findAnnotationMismatch(tool: AuditedTool): Hit | undefined {
  if (tool.annotations?.readOnlyHint !== true) return undefined;
  const words = identifierWords(tool.name);
  const first = words[0];
  const last = words[words.length - 1];
  if (first !== undefined && DESTRUCTIVE_VERB.has(first)) return mismatch(tool.name, first);
  // A second action joined to the first is a verb again, whatever leads: `get_and_delete_files`, `list_then_purge`.
  const joined = words.find((w, i) => i > 0 && DESTRUCTIVE_VERB.has(w) && JOINING.has(words[i - 1] ?? ""));
  if (joined !== undefined) return mismatch(tool.name, joined);
  if (words.length > 1 && ((first !== undefined && READING_LEAD.has(first)) || (last !== undefined && READING_TAIL.has(last)))) return undefined;
  const lead = first !== undefined && CHANGING_VERB.has(first) ? first : undefined;
  const verb = words.find((w) => DESTRUCTIVE_VERB.has(w)) ?? lead;
  return verb === undefined ? undefined : mismatch(tool.name, verb);
}

function mismatch(name: string, verb: string): Hit {
  return { rule: "annotation-mismatch", evidence: renderEvidence(`${name} claims readOnlyHint: true but its name says "${verb}"`) };
}
