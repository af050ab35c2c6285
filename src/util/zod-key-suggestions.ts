import type { z } from "zod";
import { closestMatches } from "./suggest.js";

interface Def {
  readonly type: string;
  readonly shape?: Record<string, unknown>;
  readonly innerType?: unknown;
  readonly in?: unknown;
  readonly out?: unknown;
  readonly valueType?: unknown;
  readonly element?: unknown;
  readonly options?: readonly unknown[];
}

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}

const WRAPPERS: ReadonlySet<string> = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

/** The object shapes among the schemas found at a path (wrappers are already peeled off there). */
function objectsOf(schema: unknown): Def[] {
  const def = defOf(schema);
  return def?.type === "object" ? [def] : [];
}

/** The schemas that check the value at `path` inside `root`. */
function schemasAt(root: unknown, path: readonly PropertyKey[], depth = 0): unknown[] {
  const def = defOf(root);
  if (def === undefined || depth > 50) return [];
  if (WRAPPERS.has(def.type)) return schemasAt(def.innerType, path, depth + 1);
  if (def.type === "pipe") return [...schemasAt(def.in, path, depth + 1), ...schemasAt(def.out, path, depth + 1)];
  if (def.type === "union") return (def.options ?? []).flatMap((option) => schemasAt(option, path, depth + 1));
  if (path.length === 0) return [root];
  const [head, ...rest] = path;
  switch (def.type) {
    case "object": {
      const child = typeof head === "string" && def.shape !== undefined && Object.hasOwn(def.shape, head) ? def.shape[head] : undefined;
      return child === undefined ? [] : schemasAt(child, rest, depth + 1);
    }
    case "record":
      return schemasAt(def.valueType, rest, depth + 1);
    case "array":
      return schemasAt(def.element, rest, depth + 1);
    default:
      return [];
  }
}

/** Every key the schema allows at `path` (the union of all object shapes that could apply). */
export function knownKeysAt(root: unknown, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const schema of schemasAt(root, path)) for (const object of objectsOf(schema)) for (const key of Object.keys(object.shape ?? {})) keys.add(key);
  return [...keys];
}

/**
 * zod's "Unrecognized key: "comand"" with the key that was probably meant: `; did you mean
 * "command"?`. Other issues pass through unchanged.
 */
export function withKeySuggestions<T extends z.core.$ZodIssue>(issues: readonly T[], root: unknown): T[] {
  return issues.map((issue) => {
    if (issue.code !== "unrecognized_keys") return issue;
    const known = knownKeysAt(root, issue.path);
    const hints = issue.keys
      .map((key) => ({ key, match: closestMatches(key, known, 1)[0] }))
      .filter((hint): hint is { key: string; match: string } => hint.match !== undefined);
    if (hints.length === 0) return issue;
    const text = hints.length === 1 && issue.keys.length === 1 ? `"${hints[0]?.match}"` : hints.map((h) => `"${h.match}" for "${h.key}"`).join(", ");
    return { ...issue, message: `${issue.message}; did you mean ${text}?` };
  });
}

/**
 * The refusal of an unknown argument a tool was sent, for whoever wrote the call (a model, a
 * client): the key, the closest known one, and every key the tool takes, e.g. `Unrecognized key:
 * "tool"; did you mean "tools"? module_info takes: name, tools, query.` Other issues pass through.
 */
export function explainUnknownKeys<T extends z.core.$ZodIssue>(issues: readonly T[], root: unknown, tool: string): T[] {
  return withKeySuggestions(issues, root).map((issue) => {
    if (issue.code !== "unrecognized_keys") return issue;
    const known = knownKeysAt(root, issue.path);
    const takes = known.length === 0 ? `${tool} takes no arguments` : `${tool} takes: ${known.join(", ")}`;
    return { ...issue, message: `${issue.message.replace(/[.]$/, "")}${/\?$/.test(issue.message) ? " " : ". "}${takes}.` };
  });
}
