import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { checkRange, formatBytes, formatDuration, parseBytes, parseCommandArgs, parseDuration } from "../../src/terminal/args.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";

/** The thrown message (these helpers throw UsageError), or "" when nothing was thrown. */
function messageOf(run: () => unknown): string {
  try {
    run();
    return "";
  } catch (error) {
    expect(error).toMatchObject({ code: "USAGE" });
    return (error as Error).message;
  }
}

describe("durations", () => {
  it("accept ms, s, m, h and combinations", () => {
    expect(parseDuration("run", "--timeout", "500ms")).toBe(500);
    expect(parseDuration("run", "--timeout", "30s")).toBe(30_000);
    expect(parseDuration("run", "--timeout", "1.5s")).toBe(1500);
    expect(parseDuration("run", "--timeout", "2m")).toBe(120_000);
    expect(parseDuration("run", "--timeout", "1h")).toBe(3_600_000);
    expect(parseDuration("run", "--timeout", "1m30s")).toBe(90_000);
  });

  it("refuse a bare number and suggest seconds (it once silently meant milliseconds)", () => {
    expect(messageOf(() => parseDuration("run", "--timeout", "30"))).toBe(
      "mcpvm run: --timeout 30 has no unit; did you mean --timeout 30s? (durations look like 500ms, 30s, 2m or 1h). See `mcpvm run --help`.",
    );
  });

  it("for a REPL slash command (/timeout) the message names no `mcpvm <command> --help`", () => {
    expect(messageOf(() => parseDuration("timeout", "/timeout", "60"))).toBe("/timeout 60 has no unit; did you mean /timeout 60s? (durations look like 500ms, 30s, 2m or 1h).");
  });

  it("refuse negative, zero and malformed values, naming the flag", () => {
    expect(messageOf(() => parseDuration("run", "--timeout", "-5s"))).toContain('--timeout must be a positive duration (got "-5s")');
    expect(messageOf(() => parseDuration("run", "--timeout", "0s"))).toContain("--timeout must be more than 0");
    expect(messageOf(() => parseDuration("run", "--timeout", "1e99"))).toContain('--timeout takes a duration like 500ms, 30s, 2m or 1h (got "1e99")');
    expect(messageOf(() => parseDuration("run", "--timeout", "1d"))).toContain("takes a duration");
  });
});

describe("sizes", () => {
  it("accept B, KB/MB/GB and KiB/MiB/GiB (all in 1024s)", () => {
    expect(parseBytes("run", "--memory", "100B")).toBe(100);
    expect(parseBytes("run", "--memory", "512KB")).toBe(512 * 1024);
    expect(parseBytes("run", "--memory", "64MB")).toBe(64 * 1024 ** 2);
    expect(parseBytes("run", "--memory", "64MiB")).toBe(64 * 1024 ** 2);
    expect(parseBytes("run", "--memory", "64mib")).toBe(64 * 1024 ** 2);
    expect(parseBytes("run", "--memory", "1GiB")).toBe(1024 ** 3);
    expect(parseBytes("run", "--memory", "2GB")).toBe(2 * 1024 ** 3);
  });

  it("refuse a bare number, a negative and an unknown unit", () => {
    expect(messageOf(() => parseBytes("run", "--memory", "64"))).toContain("--memory 64 has no unit; did you mean --memory 64MB?");
    expect(messageOf(() => parseBytes("run", "--memory", "-1MB"))).toContain("--memory must be a positive size");
    expect(messageOf(() => parseBytes("run", "--memory", "64TB"))).toContain('--memory takes a size like 512KB, 64MB or 1GB (got "64TB")');
  });

  it("ranges are told in the flag's own units", () => {
    expect(formatBytes(1024 ** 2)).toBe("1MB");
    expect(formatBytes(2048 * 1024 ** 2)).toBe("2GB");
    expect(formatBytes(1)).toBe("1B");
    expect(formatDuration(86_400_000)).toBe("24h");
    expect(formatDuration(1500)).toBe("1500ms");
    expect(messageOf(() => checkRange("run", "--memory", 1024, { min: 1024 ** 2, max: 2 * 1024 ** 3 }, formatBytes, "1KB"))).toContain("--memory must be between 1MB and 2GB (got 1KB)");
    expect(checkRange("run", "--memory", 64 * 1024 ** 2, { min: 1024 ** 2, max: 2 * 1024 ** 3 }, formatBytes, "64MB")).toBe(64 * 1024 ** 2);
  });
});

describe("option parsing (no raw node:util parseArgs text)", () => {
  const options = { timeout: { type: "string" }, stats: { type: "boolean" }, eval: { type: "string", short: "e" } } as const;

  it("names an unknown option, suggests the close one, and points at --help", () => {
    expect(messageOf(() => parseCommandArgs("run", ["--timout", "3s"], options))).toBe("mcpvm run: unknown option --timout; did you mean --timeout? See `mcpvm run --help`.");
    // Global flags are candidates too (main.ts takes them before the command sees its arguments).
    expect(messageOf(() => parseCommandArgs("run", ["--jsno"], options))).toContain("did you mean --json?");
    const far = messageOf(() => parseCommandArgs("run", ["--bogus"], options));
    expect(far).toBe("mcpvm run: unknown option --bogus. See `mcpvm run --help`.");
    expect(far).not.toMatch(/positional argument|Unknown option '/);
  });

  it("takes a negative value as a value and says when a value is missing", () => {
    expect(parseCommandArgs("run", ["--timeout", "-5s"], options).values.timeout).toBe("-5s");
    expect(messageOf(() => parseCommandArgs("run", ["--timeout"], options))).toBe("mcpvm run: --timeout needs a value. See `mcpvm run --help`.");
    expect(messageOf(() => parseCommandArgs("run", ["--timeout", "--stats"], options))).toContain("--timeout needs a value");
    expect(messageOf(() => parseCommandArgs("run", ["--stats=yes"], options))).toContain('--stats takes no value (got "yes")');
  });

  it("reads short options and leaves everything after -- alone", () => {
    const parsed = parseCommandArgs("run", ["-e", "return 1", "--", "--not-an-option"], options);
    expect(parsed.values.eval).toBe("return 1");
    expect(parsed.positionals).toEqual(["--not-an-option"]);
    expect(parseCommandArgs("run", ["-ereturn 2"], options).values.eval).toBe("return 2");
  });
});

describe("mcpvm run limit flags (in-process)", () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "mcpvm-args-"));
  });
  afterAll(async () => rm(home, { recursive: true, force: true }));
  const run = async (...argv: string[]) => {
    const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH }, "return 42;");
    const code = await runCli(["run", ...argv], io);
    return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
  };

  it("--timeout 30 is a usage error suggesting 30s (exit 2), not a 30 ms run", async () => {
    const out = await run("-", "--timeout", "30");
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("did you mean --timeout 30s?");
    expect(out.stderr).not.toContain("WALL_LIMIT");
  });

  it("out-of-range limits name the flag and its range, exit 2 (not memoryBytes/zod text, exit 3)", async () => {
    const memory = await run("-", "--memory", "1KB");
    expect(memory.code).toBe(ExitCode.Usage);
    expect(memory.stderr).toContain("--memory must be between 1MB and 2GB (got 1KB)");
    expect(memory.stderr).not.toMatch(/memoryBytes|Too small/);
    const huge = await run("-", "--timeout", "99999999999999999999s");
    expect(huge.code).toBe(ExitCode.Usage);
    expect(huge.stderr).toContain("--timeout must be between 1ms and 24h");
    const output = await run("-", "--output", "0B");
    expect(output.stderr).toContain("--output must be between 1B and 256MB");
    expect((await run("-", "--memory", "100GB")).stderr).toContain("--memory must be between 1MB and 2GB (got 100GB)");
  });

  it("accepts KiB/MiB and hours, and runs", async () => {
    const out = await run("-", "--memory", "64MiB", "--timeout", "1h", "--cpu", "1m30s", "--output", "1MiB");
    expect(out).toMatchObject({ code: ExitCode.Ok, stdout: "42\n" });
  });

  it("a negative --timeout is told as such, not as parseArgs' 'ambiguous' text", async () => {
    const out = await run("-", "--timeout", "-5s");
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("--timeout must be a positive duration");
    expect(out.stderr).not.toContain("ambiguous");
  });
});
