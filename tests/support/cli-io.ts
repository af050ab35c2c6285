import { PassThrough, Readable } from "node:stream";
import type { CliIo } from "../../src/terminal/io.js";

export interface CapturedIo extends CliIo {
  stdoutText(): string;
  stderrText(): string;
}

/** A CliIo over in-memory streams, so commands run in-process with their output captured. */
export function captureIo(env: Record<string, string | undefined>, stdinText = "", cwd = process.cwd()): CapturedIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => (err += chunk.toString("utf8")));
  return {
    stdin: Readable.from([stdinText]),
    stdout,
    stderr,
    env,
    cwd,
    stdoutText: () => out,
    stderrText: () => err,
  };
}
