import { Writable } from "node:stream";

const LEVEL_NAMES: Readonly<Record<number, string>> = { 10: "trace", 20: "debug", 30: "info", 40: "warning", 50: "error", 60: "fatal" };

/** One pino JSON line as a person reads it: `mcpvm: warning: <message>` (fields other than the message are left out). */
export function plainLine(json: string): string {
  try {
    const record = JSON.parse(json) as { level?: number; msg?: unknown };
    const level = LEVEL_NAMES[record.level ?? 30] ?? "log";
    return `mcpvm: ${level}: ${typeof record.msg === "string" ? record.msg : json.trim()}\n`;
  } catch {
    return json;
  }
}

/**
 * Console logs of CLI commands when stderr is not a terminal (piped, captured by a script): plain
 * lines, not JSON records. The gateway keeps JSON, which log collectors want.
 */
export function plainConsole(target: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      const text = chunk.toString();
      target.write(
        text
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map(plainLine)
          .join(""),
      );
      done();
    },
  });
}
