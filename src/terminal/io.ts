import type { Readable, Writable } from "node:stream";
import { isatty } from "node:tty";

/** Everything a command touches outside itself, injected so commands run in-process in tests. */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

const processIos = new WeakSet<CliIo>();

/**
 * The process's own streams. stdin is read on first use: Node builds process.stdin when it is first
 * touched (a tty, pipe or file stream and the modules behind it), which a run given its script on the
 * command line never needs.
 */
export function processIo(): CliIo {
  const io: CliIo = {
    get stdin() {
      return process.stdin;
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  };
  processIos.add(io);
  return io;
}

/** Whether io's stdin is the process's own and a terminal, answered without building process.stdin. */
export function stdinIsProcessTerminal(io: CliIo): boolean {
  return processIos.has(io) ? isatty(0) : io.stdin === process.stdin && process.stdin.isTTY === true;
}

/** Colour only on a TTY, and never when NO_COLOR is set (https://no-color.org). */
export function colours(stream: { isTTY?: boolean }, env: CliIo["env"]) {
  const on = stream.isTTY === true && env.NO_COLOR === undefined && env.TERM !== "dumb";
  const wrap = (open: number, close: number) => (text: string) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : text);
  return {
    enabled: on,
    bold: wrap(1, 22),
    dim: wrap(2, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}
export type Colours = ReturnType<typeof colours>;

export function writeLine(stream: Writable, text = ""): void {
  stream.write(`${text}\n`);
}

export function writeJson(stream: Writable, value: unknown): void {
  stream.write(`${JSON.stringify(value, jsonReplacer, 2)}\n`);
}

/** Uint8Array results are shown as base64 in JSON output rather than as index-keyed objects. */
function jsonReplacer(_key: string, value: unknown): unknown {
  if (value instanceof Uint8Array) return { $bytes: Buffer.from(value).toString("base64"), length: value.length };
  return value;
}

/** Left-aligned columns for list output. */
export function formatTable(rows: readonly (readonly string[])[], header?: readonly string[]): string {
  const all = header ? [header, ...rows] : rows;
  const widths: number[] = [];
  for (const row of all) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, visibleLength(cell))));
  return all
    .map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat((widths[i] ?? 0) - visibleLength(cell)))).join("  "))
    .join("\n");
}

// The escape character is the point: this strips the colour codes `colours()` adds.
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

function visibleLength(text: string): number {
  return text.replace(SGR, "").length;
}
