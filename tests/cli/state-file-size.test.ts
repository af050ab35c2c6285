import { existsSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HistoryFileError, loadHistory } from "../../src/agent/repl/history.js";
import { conversationsDir, loadConversation } from "../../src/agent/repl/saved-conversations.js";
import { describeSize, STATE_FILE_LIMITS } from "../../src/util/state-file-limits.js";
import { cli, fixtureServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * Every state and config file the CLI reads is refused from its size when it is far larger than
 * mcpvm ever writes (a 90 MB toolsets.json took 31 s to `toolset list`): exit 3, the file, its size,
 * the cap and what to do, at once. The files here are sparse (1 GB on the size, nothing on disk),
 * so a reader that read them would take seconds and a gigabyte of memory. "Unread" is checked on the
 * file's access time, not on the clock (a loaded machine makes any time bound flaky): its atime is set
 * in the past, and any read, even of one byte, moves it to now on a filesystem that keeps atimes.
 */

const GB = 1024 ** 3;
let home: E2eHome;

beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ good: fixtureServer(join(dir, "good.starts")) }) });
});
afterAll(async () => home?.cleanup());

/** Makes `name` a sparse 1 GB file (mode 0600, so only its size is wrong) for the length of `body`. */
async function withHugeFile(name: string, body: (file: string) => Promise<void>): Promise<void> {
  const file = join(home.dir, name);
  const before = existsSync(file) ? readFileSync(file) : undefined;
  writeFileSync(file, "{", { mode: 0o600 });
  truncateSync(file, GB);
  try {
    await body(file);
  } finally {
    if (before === undefined) rmSync(file);
    else writeFileSync(file, before, { mode: 0o600 });
  }
}

const PAST = new Date("2020-01-01T00:00:00Z");

/** Sets `file`'s access time in the past (its modification time kept): a read from now on moves it. */
function markUnread(file: string): void {
  utimesSync(file, PAST, statSync(file).mtime);
}

/** Whether `file` was read since markUnread. */
function wasRead(file: string): boolean {
  return statSync(file).atimeMs > PAST.getTime();
}

/** Whether this filesystem records reads in atime at all (relatime does, noatime does not): checked on a file of our own. */
function atimesKept(): boolean {
  const probe = join(home.dir, "atime-probe");
  writeFileSync(probe, "probe");
  markUnread(probe);
  readFileSync(probe);
  const kept = wasRead(probe);
  rmSync(probe);
  return kept;
}

/** Runs the CLI and says whether it read `file` (undefined where the filesystem cannot tell). */
async function runUnread(file: string, argv: readonly string[]) {
  markUnread(file);
  const out = await cli(home, argv);
  return { ...out, read: atimesKept() ? wasRead(file) : undefined };
}

const cases: ReadonlyArray<{ file: string; argv: string[]; code: string; cap: string }> = [
  { file: "toolsets.json", argv: ["toolset", "list"], code: "STORE_TOO_LARGE", cap: "4MB" },
  { file: "config.json", argv: ["mcp", "list"], code: "CONFIG_TOO_LARGE", cap: "4MB" },
  { file: "approved-mcp.json", argv: ["mcp", "list"], code: "STORE_TOO_LARGE", cap: "8MB" },
  { file: "mcp-pins.json", argv: ["mcp", "list"], code: "STORE_TOO_LARGE", cap: "32MB" },
  { file: "approved-plugins.json", argv: ["plugin", "list"], code: "PLUGIN_APPROVALS_TOO_LARGE", cap: "4MB" },
  { file: "gateway-clients.json", argv: ["gateway", "token", "list"], code: "STORE_TOO_LARGE", cap: "1MB" },
];

describe("a state file far larger than mcpvm writes is refused, unread", () => {
  for (const { file: name, argv, code, cap } of cases) {
    it(`${name}: \`mcpvm ${argv.join(" ")}\` exits 3 at once with the file, its size, the cap and the fix`, async () => {
      await withHugeFile(name, async (file) => {
        const out = await runUnread(file, argv);
        expect(out.stderr).toContain(`[${code}] ${file} is 1GB, more than the ${cap} mcpvm reads of`);
        expect(out.stderr).toContain(`mv ${file} ${file}.too-large`);
        expect(out.code).toBe(3);
        // Refused from its size: not a byte of it was read.
        expect(out.read).not.toBe(true);
        const json = await cli(home, ["--json", ...argv]);
        expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code } });
      });
    });
  }

  it("doctor names the oversized file with its cap and says to move it away (exit 3)", async () => {
    await withHugeFile("mcp-pins.json", async (file) => {
      const out = await runUnread(file, ["--json", "doctor"]);
      const report = JSON.parse(out.stdout) as { problems: { code?: string; message: string; next?: string }[] };
      expect(report.problems).toContainEqual(expect.objectContaining({ code: "STORE_TOO_LARGE", next: `move it away and let mcpvm write a new one, or restore it from a backup (mv ${file} ${file}.too-large)` }));
      expect(out.code).toBe(3);
      expect(out.read).not.toBe(true);
    });
  });

  it("a file just over its cap is refused and one at the cap is read (the cap is the size, not a guess)", async () => {
    const file = join(home.dir, "toolsets.json");
    const text = `${JSON.stringify({ version: 1, toolsets: {} })}\n`;
    try {
      writeFileSync(file, text.padEnd(STATE_FILE_LIMITS.toolsets, " "), { mode: 0o600 });
      expect((await cli(home, ["toolset", "list"])).code).toBe(0);
      writeFileSync(file, text.padEnd(STATE_FILE_LIMITS.toolsets + 1, " "), { mode: 0o600 });
      const out = await cli(home, ["toolset", "list"]);
      expect(out.stderr).toContain("is 4.0MB, more than the 4MB mcpvm reads of it");
      expect(out.code).toBe(3);
    } finally {
      writeFileSync(file, text, { mode: 0o600 });
    }
  });

  it("the REPL history over its cap is said (HISTORY_UNAVAILABLE, size and fix), not read", async () => {
    await withHugeFile("history", async (file) => {
      const error = await loadHistory(file).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(HistoryFileError);
      expect((error as Error).message).toContain(`the REPL history ${file} is 1GB, more than the 32MB mcpvm reads of it`);
      expect((error as Error).message).toContain(`mv ${file} ${file}.too-large`);
    });
  });

  it("a saved conversation over its cap is STORE_TOO_LARGE (exit 3), not parsed", async () => {
    await mkdir(conversationsDir(home.dir), { recursive: true });
    await withHugeFile("conversations/20261128-120000.json", async (file) => {
      const error = await loadConversation(home.dir, "last").then(() => undefined, (e: unknown) => e);
      expect(error).toMatchObject({ code: "STORE_TOO_LARGE" });
      expect((error as Error).message).toContain(`${file} is 1GB, more than the 64MB mcpvm reads of it`);
    });
  });
});

describe("docs/USAGE.md states the caps the code applies", () => {
  it("each cap in the exit-code table is STATE_FILE_LIMITS' value", () => {
    const row = readFileSync(join(import.meta.dirname, "../../docs/USAGE.md"), "utf8").split("\n").find((line) => line.includes("STORE_TOO_LARGE")) ?? "";
    const said: ReadonlyArray<[string, number]> = [
      ["config.json, toolsets.json and approved-plugins.json 4MB", STATE_FILE_LIMITS.config],
      ["approved-mcp.json 8MB", STATE_FILE_LIMITS.mcpApprovals],
      ["mcp-pins.json and plugin-scans.json 32MB", STATE_FILE_LIMITS.pins],
      ["profile-state.json 1MB", STATE_FILE_LIMITS.small],
      ["session key 64KB", STATE_FILE_LIMITS.secretLine],
      ["a saved conversation 64MB", STATE_FILE_LIMITS.conversation],
      ["history over 32MB", STATE_FILE_LIMITS.history],
    ];
    for (const [text, bytes] of said) {
      expect(row).toContain(text);
      expect(text.endsWith(` ${describeSize(bytes)}`), text).toBe(true);
    }
    expect([STATE_FILE_LIMITS.toolsets, STATE_FILE_LIMITS.pluginApprovals]).toEqual([STATE_FILE_LIMITS.config, STATE_FILE_LIMITS.config]);
    expect(STATE_FILE_LIMITS.pluginScans).toBe(STATE_FILE_LIMITS.pins);
  });
});
