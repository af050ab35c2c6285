import { describe, expect, it } from "vitest";
import { isatty } from "node:tty";
import { processIo, stdinIsProcessTerminal } from "../../src/terminal/io.js";

// Node builds process.stdin (a tty, pipe or file stream and the modules behind it) the first time it is
// read; `mcpvm run -e …` never reads stdin, so the CLI's io must not build it before a command asks.
describe("processIo", () => {
  it("reads process.stdin only when a command uses io.stdin", () => {
    const original = Object.getOwnPropertyDescriptor(process, "stdin");
    expect(original?.configurable).toBe(true);
    let reads = 0;
    Object.defineProperty(process, "stdin", {
      configurable: true,
      enumerable: true,
      get() {
        reads += 1;
        return original?.get?.call(process) as NodeJS.ReadStream;
      },
    });
    try {
      const io = processIo();
      expect(stdinIsProcessTerminal(io)).toBe(isatty(0));
      expect(reads).toBe(0);
      expect(io.stdin).toBe(original?.get?.call(process));
      expect(reads).toBe(1);
    } finally {
      Object.defineProperty(process, "stdin", original as PropertyDescriptor);
    }
  });

  it("tells an injected stdin from the process's own", () => {
    const io = { ...processIo(), stdin: process.stdin };
    expect(stdinIsProcessTerminal(io)).toBe(process.stdin.isTTY === true);
  });
});
