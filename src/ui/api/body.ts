import type { z } from "zod";
import { describeZodIssues } from "../../util/zod-issues.js";
import { UiError } from "../errors.js";

/** A request body checked at the boundary; a bad one is said in words, and nothing is done. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new UiError("UI_BAD_REQUEST", describeZodIssues(what, parsed.error.issues));
  return parsed.data;
}
