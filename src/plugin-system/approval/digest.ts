import { createHash } from "node:crypto";
import type { AuditedFile } from "../audit/audit-plugin.js";
import type { PluginSource } from "../discovery.js";

/** Everything an approval covers: the manifest, the declarations shown to the model, every audited source file. */
export interface ApprovalSubject {
  readonly name: string;
  readonly source: PluginSource;
  readonly manifestText: string;
  readonly declarations?: { readonly path: string; readonly text: string };
  readonly files: readonly AuditedFile[];
}

const VERSION_TAG = "mcpvm-plugin-approval/v1";

function sha256(data: string): string {
  return createHash("sha256").update(data, "utf8").digest("hex");
}

/**
 * SHA-256 over a canonical encoding: one JSON array of [kind, relative path, content digest] rows,
 * files sorted by path. JSON quoting delimits every field, so no two different plugins encode alike
 * (a path cannot smuggle a separator), and the order files were discovered in does not matter.
 */
export function approvalHash(subject: ApprovalSubject): string {
  const rows: string[][] = [
    ["plugin", subject.name, subject.source],
    ["manifest", "plugin.json", sha256(subject.manifestText)],
  ];
  if (subject.declarations) rows.push(["declarations", subject.declarations.path, sha256(subject.declarations.text)]);
  const files = [...subject.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of files) rows.push(["source", file.path, file.sha256]);
  return sha256(`${VERSION_TAG}\n${JSON.stringify(rows)}`);
}
