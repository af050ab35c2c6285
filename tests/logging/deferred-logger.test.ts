import { PassThrough } from "node:stream";
import pino, { type Logger } from "pino";
import { describe, expect, it } from "vitest";
import { createLogger, deferredLogger } from "../../src/logging/logger.js";
import { Redactor } from "../../src/logging/redact.js";

/**
 * Without a log file, the logger is set up by its first line at its level (most `mcpvm run`s write
 * none and never load pino); lines below the level are dropped, and anything beyond the log methods
 * goes to the real logger.
 */
function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  return { stream, text: () => text };
}

function counting(level: "warn" | "silent"): { logger: Logger; created: () => number; lines: () => string } {
  let created = 0;
  const out = capture();
  const logger = deferredLogger(level, () => {
    created += 1;
    return pino({ level }, out.stream);
  });
  return { logger, created: () => created, lines: out.text };
}

describe("deferredLogger", () => {
  it("builds no logger for lines below its level, and answers isLevelEnabled and level itself", () => {
    const { logger, created } = counting("warn");
    logger.debug({ a: 1 }, "not shown");
    logger.info("not shown either");
    expect(logger.isLevelEnabled("info")).toBe(false);
    expect(logger.isLevelEnabled("error")).toBe(true);
    expect(logger.level).toBe("warn");
    let flushed = false;
    logger.flush(() => (flushed = true));
    expect(flushed).toBe(true);
    expect(created()).toBe(0);
  });

  it("builds the logger once, with the first line at its level, and every later line goes to it", () => {
    const { logger, created, lines } = counting("warn");
    logger.warn({ plugin: "x" }, "first");
    logger.info("below the level: dropped by the real logger");
    logger.error("second");
    expect(created()).toBe(1);
    const records = lines()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg: string; level: number; plugin?: string });
    expect(records.map((r) => r.msg)).toEqual(["first", "second"]);
    expect(records[0]).toMatchObject({ level: 40, plugin: "x" });
  });

  it("anything beyond the log methods (a child logger, a level change) uses the real logger", () => {
    const { logger, created, lines } = counting("warn");
    logger.level = "info";
    expect(created()).toBe(1);
    logger.info("now shown");
    logger.child({ part: "c" }).info("from a child");
    expect(lines()).toContain('"msg":"now shown"');
    expect(lines()).toContain('"part":"c"');
  });

  it("a silent logger never builds one, whatever is written", () => {
    const { logger, created } = counting("silent");
    logger.fatal("nothing");
    expect(created()).toBe(0);
  });
});

describe("createLogger without a log file", () => {
  it("writes the CLI's plain, redacted lines on the first warning, as before", () => {
    const out = capture();
    const redactor = new Redactor();
    redactor.add(["sk-secret-123456"]);
    const { logger, file } = createLogger({ level: "warn", consoleStream: out.stream, plain: true, redactor });
    expect(file).toBeUndefined();
    logger.info("below the level");
    expect(out.text()).toBe("");
    logger.warn({ plugin: "p" }, "token sk-secret-123456 leaked?");
    expect(out.text()).toBe("mcpvm: warning: token **** leaked?\n");
  });
});
