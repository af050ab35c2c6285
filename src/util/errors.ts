/**
 * One base error for the whole project. Every error a user can see carries a stable `code`
 * (asserted by tests, documented in docs/ERRORS.md) and a message that says what to do.
 * Areas extend it with their own code unions; classification is by `code`, never by message text.
 */
export class McpvmError<C extends string = string> extends Error {
  readonly code: C;
  readonly data: Readonly<Record<string, unknown>> | undefined;

  constructor(code: C, message: string, options?: { data?: Record<string, unknown>; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = options?.data;
  }
}

export function isMcpvmError(value: unknown): value is McpvmError {
  return value instanceof McpvmError;
}

/** A readable message for anything thrown, without assuming it is an Error. */
export function errorMessage(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (typeof value === "string") return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
