import type { Redactor } from "../logging/redact.js";
import type { RunResult } from "../sandbox/types.js";

/**
 * What a run returns to a face (printed, sent to the model, returned to a gateway client) never
 * carries a secret or a host path: values, logs and error text are scrubbed on the way out.
 */
export function redactRunResult(result: RunResult, redactor: Redactor, stripHostPaths: (text: string) => string): RunResult {
  const scrub = (text: string) => stripHostPaths(redactor.redact(text));
  const logs = result.logs.map((entry) => ({ ...entry, message: scrub(entry.message) }));
  if (result.ok) return { ...result, value: redactor.redactValue(result.value), logs, ...(result.notes === undefined ? {} : { notes: result.notes.map(scrub) }) };
  return {
    ...result,
    logs,
    error: {
      ...result.error,
      message: scrub(result.error.message),
      ...(result.error.stack === undefined ? {} : { stack: scrub(result.error.stack) }),
      ...(result.error.snippet === undefined ? {} : { snippet: scrub(result.error.snippet) }),
      ...(result.error.file === undefined ? {} : { file: scrub(result.error.file) }),
    },
  };
}
