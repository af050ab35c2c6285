import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPL_JSON_MESSAGE, runCli } from "../../src/cli/main.js";
import { limitHint, looksLikeCode, textOf } from "../../src/cli/commands/run.js";
import { guardFirstLine, looksLikeJsonRpc, NOT_A_TERMINAL_MESSAGE } from "../../src/cli/stdin-guard.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "mcpvm-stdin-"));
  await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs" }));
});
afterAll(async () => rm(home, { recursive: true, force: true }));

const env = () => ({ MCPVM_HOME: home, HOME: home, PATH: process.env.PATH });

async function mcpvm(argv: string[], stdin = "") {
  const io = captureIo(env(), stdin, home);
  const code = await runCli(argv, io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

const INITIALIZE = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"claude","version":"1"}}}\n';

describe("bare `mcpvm` with piped stdin (an MCP client entry missing `serve`)", () => {
  it("says did you mean `mcpvm serve` on stderr and exits 2, chatting with nobody", async () => {
    const out = await mcpvm([], INITIALIZE);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain(NOT_A_TERMINAL_MESSAGE);
    expect(out.stderr).toContain("mcpvm: stdin is not a terminal — did you mean `mcpvm serve`? (to chat from a script, use `mcpvm repl`)");
    expect(out.stdout).toBe("");
  });

  it("`mcpvm repl` with a JSON-RPC first line stops too (exit 2)", async () => {
    const out = await mcpvm(["repl"], INITIALIZE);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("did you mean `mcpvm serve`?");
    // The JSON-RPC line never reached the chat.
    expect(out.stdout + out.stderr).not.toContain("Chat is off");
  });

  it("`mcpvm repl` with piped lines a person would type still works", async () => {
    const out = await mcpvm(["repl"], "/run return 6 * 7\n/exit\n");
    expect(out.code).toBe(ExitCode.Ok);
    expect(out.stdout + out.stderr).toContain("42");
  });

  it("`--json` with the REPL is refused (exit 2, the error as JSON on stdout), not a half-JSON chat", async () => {
    for (const argv of [["--json"], ["--json", "repl"], ["repl", "--json"]]) {
      const out = await mcpvm(argv, "/plugin list\n/run return 6 * 7\n");
      expect(out.code).toBe(ExitCode.Usage);
      expect(JSON.parse(out.stdout)).toEqual({ ok: false, error: { code: "USAGE", message: REPL_JSON_MESSAGE } });
      // Nothing ran: no banner, no slash command's output.
      expect(out.stderr).toBe("");
    }
  });

  it("looksLikeJsonRpc and guardFirstLine (pure stream behaviour)", async () => {
    expect(looksLikeJsonRpc(INITIALIZE)).toBe(true);
    expect(looksLikeJsonRpc('[{"jsonrpc": "2.0","method":"x"}]')).toBe(true);
    expect(looksLikeJsonRpc("what is the jsonrpc 2.0 spec?")).toBe(false);
    const read = async (text: string) => {
      const guard = guardFirstLine(Readable.from([Buffer.from(text)]));
      const chunks: Buffer[] = [];
      for await (const chunk of guard.stdin) chunks.push(chunk as Buffer);
      return { text: Buffer.concat(chunks).toString("utf8"), tripped: guard.tripped() };
    };
    expect(await read("hello\nworld\n")).toEqual({ text: "hello\nworld\n", tripped: false });
    expect(await read("no newline at all")).toEqual({ text: "no newline at all", tripped: false });
    expect(await read(INITIALIZE + "more\n")).toEqual({ text: "", tripped: true });
  });
});

describe("mcpvm run: inline code and paths that are not scripts", () => {
  it("-e runs inline code", async () => {
    expect(await mcpvm(["run", "-e", "return 1 + 1"])).toMatchObject({ code: ExitCode.Ok, stdout: "2\n" });
    expect(await mcpvm(["run", "--eval", "return [3]"])).toMatchObject({ code: ExitCode.Ok });
  });

  it("-e and a file together are refused", async () => {
    const out = await mcpvm(["run", "-e", "return 1", "x.js"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("give either a file or -e <code>, not both");
  });

  it("`run 'return 1+1'` (no such file, looks like code) suggests -e", async () => {
    const out = await mcpvm(["run", "return 1+1"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain(`there is no file named "return 1+1"; to run code inline use -e: mcpvm run -e 'return 1+1'`);
    // A plain missing file is just that.
    const missing = await mcpvm(["run", "nosuch.js"]);
    expect(missing.stderr).toContain("cannot read nosuch.js: no such file");
    expect(missing.stderr).not.toContain("-e");
  });

  it("a directory is named as one (not EISDIR)", async () => {
    await mkdir(join(home, "scripts"), { recursive: true });
    const out = await mcpvm(["run", "scripts"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("scripts is a directory; give a script file");
    expect(out.stderr).not.toContain("EISDIR");
  });

  it("a binary file is 'not a text file' (not a parser error with a raw control character)", async () => {
    await writeFile(join(home, "program"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0xff, 0xfe]));
    const out = await mcpvm(["run", "program"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("program is not a text file");
    expect(out.stderr).not.toContain("SyntaxError");
  });

  it("binary piped to `run -` is 'not a text file' too (it was a SyntaxError at a raw control character, exit 1)", async () => {
    const io = { ...captureIo(env(), "", home), stdin: Readable.from([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x00, 0x00, 0xff, 0xfe])]) };
    const code = await runCli(["run", "-"], io);
    expect(code).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain("mcpvm run: stdin is not a text file");
    expect(io.stderrText()).not.toContain("SyntaxError");
  });

  it("a script saved in Latin-1 is text that is not UTF-8: says where and what to do, not 'not a text file'", async () => {
    await writeFile(join(home, "latin1.js"), Buffer.concat([Buffer.from("// ok\nreturn 'caf"), Buffer.from([0xe9]), Buffer.from("';\n")]));
    const out = await mcpvm(["run", "latin1.js"]);
    expect(out.code).toBe(ExitCode.Usage);
    expect(out.stderr).toContain("latin1.js is not valid UTF-8 at byte 17 (line 2); save it as UTF-8");
    expect(out.stderr).not.toContain("not a text file");
    const io = { ...captureIo(env(), "", home), stdin: Readable.from([Buffer.from([0x72, 0x65, 0x74, 0x75, 0x72, 0x6e, 0x20, 0x22, 0xe9, 0x22])]) };
    expect(await runCli(["run", "-"], io)).toBe(ExitCode.Usage);
    expect(io.stderrText()).toContain("mcpvm run: stdin is not valid UTF-8 at byte 8 (line 1)");
  });

  it("looksLikeCode and textOf decide as documented", () => {
    expect(looksLikeCode("return 1+1")).toBe(true);
    expect(looksLikeCode("console.log(1)")).toBe(true);
    expect(looksLikeCode("my script.js")).toBe(false);
    expect(looksLikeCode("scripts/tour")).toBe(false);
    expect(textOf(Buffer.from("return 'é'"))).toBe("return 'é'");
    expect(textOf(Buffer.from([0x66, 0x00, 0x67]))).toBeUndefined();
    expect(textOf(Buffer.from([0xc3, 0x28]))).toBeUndefined();
  });
});

describe("a run that hits a limit says how to allow more", () => {
  it("names the flag with a larger value for this run, and the config key, for each limit (exit 4)", async () => {
    const cases: Array<[string[], string, string]> = [
      [["--cpu", "100ms", "-e", "while (true) {}"], "CPU_LIMIT", "To allow more: --cpu 200ms for this run, or limits.cpuMs in config.json."],
      [["--timeout", "300ms", "-e", "while (true) {}"], "WALL_LIMIT", "To allow more: --timeout 600ms for this run, or limits.wallMs in config.json."],
      [["--memory", "2MB", "-e", 'const a = []; while (true) a.push("x".repeat(1000) + a.length);'], "MEMORY_LIMIT", "To allow more: --memory 4MB for this run, or limits.memoryBytes in config.json."],
      [["--output", "1KB", "-e", 'return "x".repeat(5000)'], "OUTPUT_LIMIT", "To allow more: --output 2KB for this run, or limits.outputBytes in config.json."],
    ];
    for (const [flags, code, hint] of cases) {
      const out = await mcpvm(["run", ...flags]);
      expect(out.code, code).toBe(ExitCode.Limit);
      expect(out.stderr, code).toContain(code);
      expect(out.stderr, code).toContain(hint);
    }
  }, 60_000);

  it("at the sandbox's maximum it says so instead of offering more", () => {
    expect(limitHint({ limit: "memoryBytes", message: "The script ran out of memory (memoryBytes = 2147483648)" })).toBe("--memory 2GB is already the most the sandbox allows.");
    expect(limitHint({ limit: "toolCalls", message: "…" })).toBeUndefined();
  });
});
