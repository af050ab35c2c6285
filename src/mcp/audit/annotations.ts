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
 * Annotations that contradict the tool's own name: `readOnlyHint: true` on `drop_table` or
 * `send_payment`. Clients skip confirmation for read-only tools, so the lie is how a tool gets
 * called without a person being asked.
 */
export function findAnnotationMismatch(tool: AuditedTool): Hit | undefined {
  if (tool.annotations?.readOnlyHint !== true) return undefined;
  const words = identifierWords(tool.name);
  const lead = words[0] !== undefined && CHANGING_VERB.has(words[0]) ? words[0] : undefined;
  const verb = words.find((w) => DESTRUCTIVE_VERB.has(w)) ?? lead;
  if (verb === undefined) return undefined;
  return { rule: "annotation-mismatch", evidence: renderEvidence(`${tool.name} claims readOnlyHint: true but its name says "${verb}"`) };
}
