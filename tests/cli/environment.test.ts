import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveModel } from "../../src/agent/llm/model-config.js";
import { runCli } from "../../src/cli/main.js";
import { resolveConfigHome, resolveConfigPaths } from "../../src/config/paths.js";
import { ExitCode } from "../../src/terminal/exit-codes.js";
import { captureIo } from "../support/cli-io.js";

/** MCPVM_HOME as an MCP client's JSON `env` writes it (no shell: `~` arrives literally), and MCPVM_MODEL typos. */
let user: string;
let cwd: string;
beforeAll(async () => {
  user = await mkdtemp(join(tmpdir(), "mcpvm-user-"));
  cwd = await mkdtemp(join(tmpdir(), "mcpvm-cwd-"));
});
afterAll(async () => {
  await rm(user, { recursive: true, force: true });
  await rm(cwd, { recursive: true, force: true });
});

function configHomeError(env: Record<string, string>): string {
  try {
    resolveConfigHome(env);
  } catch (error) {
    expect(error).toMatchObject({ code: "CONFIG_HOME_INVALID" });
    return (error as Error).message;
  }
  return "";
}

describe("MCPVM_HOME", () => {
  it("expands ~ and ~/x to the home directory", () => {
    expect(resolveConfigHome({ MCPVM_HOME: "~", HOME: user })).toBe(user);
    expect(resolveConfigHome({ MCPVM_HOME: "~/.mcpvm-work", HOME: user })).toBe(join(user, ".mcpvm-work"));
    expect(resolveConfigPaths({ MCPVM_HOME: "~/w", HOME: user }).configFile).toBe(join(user, "w", "config.json"));
    expect(resolveConfigHome({ MCPVM_HOME: "/abs/home" })).toBe("/abs/home");
  });

  it("refuses relative paths and ~user, saying what to write instead", () => {
    expect(configHomeError({ MCPVM_HOME: "relative", HOME: user })).toBe(
      'MCPVM_HOME="relative" is a relative path; give an absolute path (or ~/relative) so the config home does not depend on the folder mcpvm starts in.',
    );
    expect(configHomeError({ MCPVM_HOME: "./x", HOME: user })).toContain("is a relative path");
    expect(configHomeError({ MCPVM_HOME: "~bob/x", HOME: user })).toContain("only ~ and ~/… are expanded");
    // `~` is expanded from HOME: a relative HOME made a relative config home, the very thing refused above.
    expect(configHomeError({ MCPVM_HOME: "~", HOME: "projects" })).toBe(
      'mcpvm has no config home: MCPVM_HOME="~" names it, but HOME="projects" is a relative path, which would make it depend on the folder mcpvm starts in. Set HOME to an absolute path, or MCPVM_HOME to one, for example MCPVM_HOME=/data/mcpvm.',
    );
    expect(configHomeError({ MCPVM_HOME: "~/.mcpvm", HOME: "." })).toContain('HOME="." is a relative path');
  });

  it("`mcpvm plugin enable` with MCPVM_HOME=~/x writes under the home directory, never a literal ./~ folder", async () => {
    const io = captureIo({ MCPVM_HOME: "~/client-home", HOME: user, PATH: process.env.PATH }, "", cwd);
    expect(await runCli(["--yes", "plugin", "approve", "fs-read"], io)).toBe(ExitCode.Ok);
    expect(existsSync(join(user, "client-home", "approved-plugins.json"))).toBe(true);
    expect(existsSync(join(cwd, "~"))).toBe(false);
  });

  it("a relative MCPVM_HOME stops the CLI with the message (exit 3) and creates nothing", async () => {
    const io = captureIo({ MCPVM_HOME: "relative-home", HOME: user, PATH: process.env.PATH }, "", cwd);
    expect(await runCli(["--yes", "plugin", "approve", "fs-read"], io)).toBe(ExitCode.Config);
    expect(io.stderrText()).toContain('[CONFIG_HOME_INVALID] MCPVM_HOME="relative-home" is a relative path');
    expect(existsSync(join(cwd, "relative-home"))).toBe(false);
  });
});

describe("MCPVM_MODEL", () => {
  it("an unknown provider is an error listing the providers (not silently an OpenAI model name)", () => {
    let message = "";
    try {
      resolveModel(undefined, { MCPVM_MODEL: "bogus:x" });
    } catch (error) {
      expect(error).toMatchObject({ code: "LLM_CONFIG_INVALID" });
      message = (error as Error).message;
    }
    expect(message).toContain('unknown provider "bogus"');
    expect(message).toContain("Providers: openai-compatible, anthropic");
    expect(message).toContain("write openai-compatible:bogus:x");
    expect(() => resolveModel(undefined, { MCPVM_MODEL: "antropic:claude" })).toThrow('did you mean "anthropic"?');
  });

  it("known providers, the openai alias, bare names and model names with colons after a provider still work", () => {
    // OpenAI's own endpoint needs a key (LLM_KEY_MISSING otherwise); a local one does not.
    const key = { OPENAI_API_KEY: "sk-test-123456" };
    expect(resolveModel(undefined, { ...key, MCPVM_MODEL: "openai:gpt-x" })).toMatchObject({ provider: "openai-compatible", model: "gpt-x" });
    expect(resolveModel(undefined, { ...key, MCPVM_MODEL: "gpt-4o-mini" })).toMatchObject({ provider: "openai-compatible", model: "gpt-4o-mini" });
    expect(resolveModel(undefined, { MCPVM_MODEL: "openai-compatible:llama3.1:8b", MCPVM_BASE_URL: "http://127.0.0.1:11434/v1" })).toMatchObject({ model: "llama3.1:8b" });
  });

  it("a provider with no model after it is said as such (not 'No LLM is configured'), also over a config model", () => {
    for (const config of [undefined, { model: "from-config" }]) {
      let error: unknown;
      try {
        resolveModel(config, { MCPVM_MODEL: "openai:" });
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({ code: "LLM_CONFIG_INVALID", message: expect.stringContaining('MCPVM_MODEL="openai:" names no model') });
    }
  });

  it("the docs' table says so", async () => {
    const usage = await readFile(join(import.meta.dirname, "../../docs/USAGE.md"), "utf8");
    expect(usage).toMatch(/MCPVM_MODEL.*unknown provider/);
  });
});
