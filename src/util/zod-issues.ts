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
  const lines = issues.slice(0, 10).map((issue) => `  - ${formatJsonPath(issue.path)}: ${issue.message}`);
  if (issues.length > 10) lines.push(`  - … and ${issues.length - 10} more`);
  return `${file} is not valid:\n${lines.join("\n")}`;
}
