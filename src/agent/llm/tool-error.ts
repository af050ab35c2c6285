import { InvalidToolInputError } from "ai";
import { errorMessage } from "../../util/errors.js";

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

function isIssueList(value: unknown): value is Issue[] {
  return Array.isArray(value) && value.every((i) => typeof i === "object" && i !== null && Array.isArray((i as Issue).path) && typeof (i as Issue).message === "string");
}

/** The schema issues behind a validation failure (the SDK wraps the zod error one or two levels deep). */
function schemaIssues(error: unknown): Issue[] | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    const issues = (current as { issues?: unknown }).issues;
    if (isIssueList(issues) && issues.length > 0) return issues;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * One readable line for the transcript about a call that got no result. The model gets the SDK's
 * full text (value and JSON issue dump); the person needs which argument was wrong and why.
 */
export function describeToolError(error: unknown): string {
  if (InvalidToolInputError.isInstance(error)) {
    const issues = schemaIssues(error.cause);
    if (issues !== undefined) {
      const listed = issues.map((i) => `${i.path.map(String).join(".") || "input"}: ${i.message}`).join("; ");
      return `invalid input for ${error.toolName}: ${listed}`;
    }
  }
  return errorMessage(error);
}
