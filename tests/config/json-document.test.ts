import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { ConfigError, loadConfigFile } from "../../src/config/config-file.js";
import { JsonDocumentError, parseJsonDocument } from "../../src/util/json-document.js";
import { captureIo } from "../support/cli-io.js";

/** The error parseJsonDocument throws for `text`, or a failure if it parses. */
function problemOf(text: string, options: { comments?: boolean } = {}): JsonDocumentError {
  try {
    parseJsonDocument(text, options);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonDocumentError);
    return error as JsonDocumentError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe("parseJsonDocument (files a person edits)", () => {
  it("accepts the UTF-8 byte-order mark Windows editors write", () => {
    expect(parseJsonDocument('\ufeff{"mcpServers": {}}')).toEqual({ mcpServers: {} });
  });

  it("refuses a duplicate key, naming the key, the line of the second one and the line of the first", () => {
    const text = ['{', '  "mcpServers": {', '    "memory": { "command": "node" },', '    "memory": { "command": "npx" }', "  }", "}"].join("\n");
    const error = problemOf(text);
    expect(error.kind).toBe("duplicate-key");
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0]).toMatchObject({ line: 4, column: 5 });
    expect(error.message).toContain('"memory"');
    expect(error.message).toContain("line 4, column 5");
    expect(error.message).toContain("first on line 3");
  });

  it("allows the same key in different objects", () => {
    expect(parseJsonDocument('{"a": {"command": "x"}, "b": {"command": "y"}}')).toEqual({ a: { command: "x" }, b: { command: "y" } });
  });

  it("reports a trailing comma once, at line:column, with the likely cause", () => {
    const error = problemOf('{\n  "a": 1,\n}');
    expect(error.kind).toBe("syntax");
    expect(error.problems).toEqual([{ line: 3, column: 1, message: expect.stringContaining("trailing comma") }]);
    expect(error.message).toMatch(/^line 3, column 1: /);
  });

  it("counts lines and columns after a byte-order mark as an editor does", () => {
    expect(problemOf('\ufeff{\n  "a": 1\n  "b": 2\n}').problems[0]).toMatchObject({ line: 3, column: 3 });
  });

  it("refuses comments in plain JSON and accepts them (and trailing commas) with { comments: true }", () => {
    const text = '{\n  "a": 1, // the first\n  /* the second */ "b": 2,\n}';
    const error = problemOf(text);
    expect(error.problems[0]).toMatchObject({ line: 2, column: 11, message: expect.stringContaining("comments are not allowed") });
    expect(parseJsonDocument(text, { comments: true })).toEqual({ a: 1, b: 2 });
  });

  it("says an empty file is empty", () => {
    expect(problemOf("  \n").message).toContain("the file is empty");
  });
});

describe("config.json read through loadConfigFile and the CLI", () => {
  let home: string;
  const duplicated = ['{', '  "mcpServers": {', '    "a": { "command": "node", "args": ["one.js"] },', '    "a": { "command": "node", "args": ["two.js"] }', "  }", "}", ""].join("\n");

  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), "mcpvm-json-document-"));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it("CONFIG_DUPLICATE_KEY names the file, the key and its line instead of keeping the last one", async () => {
    const file = join(home, "config.json");
    await writeFile(file, duplicated);
    const error = await loadConfigFile(file).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ code: "CONFIG_DUPLICATE_KEY" });
    const message = (error as ConfigError).message;
    expect(message).toContain(file);
    expect(message).toContain('"a"');
    expect(message).toContain("line 4, column 5");
  });

  it("a config.json with a byte-order mark loads", async () => {
    const file = join(home, "config.json");
    await writeFile(file, '\ufeff{ "engine": "quickjs" }\n');
    expect(await loadConfigFile(file)).toEqual({ engine: "quickjs" });
  });

  // JSON parsing drops __proto__, constructor and prototype keys (no prototype pollution); in the
  // person's own config.json that dropped a server named "constructor" without a word ("No MCP
  // servers configured"), while "then", the other reserved name, was reported.
  it("the CLI exits 3 on a config.json key that reading would drop, naming it with its line and what to do", async () => {
    const file = join(home, "config.json");
    const text = ['{', '  "mcpServers": {', '    "constructor": { "command": "node", "args": ["one.js"] }', "  }", "}", ""].join("\n");
    await writeFile(file, text);
    const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH, HOME: home });
    expect(await runCli(["mcp", "list"], io)).toBe(3);
    expect(io.stderrText()).toContain(file);
    expect(io.stderrText()).toMatch(/line 3, column 5: the key "constructor" cannot be used .*rename it/);
    expect(await readFile(file, "utf8")).toBe(text);
  });

  it("a command that would write such a key refuses it and leaves config.json as it was", async () => {
    const file = join(home, "config.json");
    await writeFile(file, "{}\n");
    const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH, HOME: home });
    expect(await runCli(["mcp", "add", "x", "--env", "constructor=1", "--", "node", "-e", "1"], io)).toBe(3);
    expect(io.stderrText()).toContain('mcpServers.x.env.constructor: "constructor" cannot be used as a name');
    expect(await readFile(file, "utf8")).toBe("{}\n");
  });

  it("the CLI exits 3 (config invalid) on a duplicate key and leaves the file as it was", async () => {
    const file = join(home, "config.json");
    await writeFile(file, duplicated);
    const io = captureIo({ MCPVM_HOME: home, PATH: process.env.PATH, HOME: home });
    const code = await runCli(["mcp", "list"], io);
    expect(code).toBe(3);
    expect(io.stderrText()).toContain("CONFIG_DUPLICATE_KEY");
    expect(io.stderrText()).toContain('the key "a" appears twice');
    expect(await readFile(file, "utf8")).toBe(duplicated);
  });
});
