import type { z } from "zod";

/** "mcpServers.github.env.TOKEN" style path for messages. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : index === 0 ? String(part) : /^[A-Za-z_$][\w$]*$/.test(String(part)) ? `.${String(part)}` : `[${JSON.stringify(String(part))}]`,
    )
    .join("");
}

/** Turn zod issues into one message naming the file, each JSON path and the rule broken. */
export function describeZodIssues(file: string, issues: readonly z.core.$ZodIssue[]): string {
  return describeIssues(file, issues.map((issue) => ({ path: formatJsonPath(issue.path), message: issue.message })));
}

const SHOWN_ISSUES = 10;

/** The same message for issues whose paths are formatted already (from more than one validator); at most ten, then "… and N more". */
export function describeIssues(file: string, issues: readonly { readonly path: string; readonly message: string }[]): string {
  const lines = issues.slice(0, SHOWN_ISSUES).map((issue) => `  - ${issue.path}: ${issue.message}`);
  if (issues.length > SHOWN_ISSUES) lines.push(`  - … and ${issues.length - SHOWN_ISSUES} more`);
  return `${file} is not valid:\n${lines.join("\n")}`;
}
