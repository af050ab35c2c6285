import type { z } from "zod";

/** How a host function names its parameters, so argument errors read like the guest's own call. */
export interface ArgSpec<T> {
  readonly fn: string;
  readonly params: readonly string[];
  readonly schema: z.ZodType<T>;
}

function describePath(path: readonly PropertyKey[], params: readonly string[]): string {
  const [index, ...rest] = path;
  if (typeof index !== "number") return "arguments";
  const head = params[index]?.replace(/\?$/, "") ?? `argument ${index + 1}`;
  return [head, ...rest.map(String)].join(".");
}

/**
 * Validate a guest's argument list against a zod tuple. The error names the function, its
 * signature and every bad argument, because the guest author only sees this message.
 */
export function parseArgs<T>(spec: ArgSpec<T>, args: readonly unknown[], fail: (message: string) => Error): T {
  const result = spec.schema.safeParse(args);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${describePath(issue.path, spec.params)}: ${issue.message}`);
  throw fail(`${spec.fn}(${spec.params.join(", ")}): ${problems.join("; ")}`);
}
