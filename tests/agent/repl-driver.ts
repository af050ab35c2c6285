import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { runRepl } from "../../src/agent/repl/index.js";
import { ManualInterrupts } from "../../src/agent/repl/interrupts.js";
import type { CommandContext } from "../../src/terminal/command.js";
import { colours } from "../../src/terminal/io.js";
import { McpvmHost } from "../../src/host/index.js";
import { mcpCommand } from "../../src/cli/commands/mcp/index.js";
import { pluginCommand } from "../../src/cli/commands/plugin.js";
import { profileCommand } from "../../src/cli/commands/profile.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const MEMORY = join(ROOT, "node_modules/@modelcontextprotocol/server-memory/dist/index.js");

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/**
 * A REPL session driven through its stdin, the way a person types: wait for text to appear in the
 * transcript (stdout and stderr interleaved, escape codes stripped), then send the next line.
 */
export class ReplDriver {
  /** Every driver started, so a temporary home's cleanup can close the hosts that still write into it. */
  private static readonly started = new Set<ReplDriver>();
  readonly stdin = new PassThrough();
  readonly interrupts = new ManualInterrupts();
  private text = "";
  private mark = 0;
  private exit: Promise<number> | undefined;
  host: McpvmHost | undefined;

  constructor(
    readonly env: Record<string, string>,
    private readonly options: { interactive?: boolean; assumeYes?: boolean; resume?: string } = {},
  ) {}

  get transcript(): string {
    return this.text;
  }

  async start(): Promise<void> {
    const sink = () => {
      const stream = new PassThrough();
      stream.on("data", (chunk: Buffer) => (this.text += chunk.toString("utf8").replace(ANSI, "").replace(/\r/g, "")));
      return stream;
    };
    this.host = await McpvmHost.open({ env: this.env, engine: "quickjs" });
    ReplDriver.started.add(this);
    const host = this.host;
    const context: CommandContext = {
      io: { stdin: this.stdin, stdout: sink(), stderr: sink(), env: this.env, cwd: ROOT },
      colours: colours({ isTTY: false }, this.env),
      host: () => Promise.resolve(host),
      interactive: this.options.interactive ?? true,
      assumeYes: this.options.assumeYes ?? false,
      json: false,
    };
    this.exit = runRepl({ context, interrupts: this.interrupts, sharedCommands: [pluginCommand, mcpCommand, profileCommand], ...(this.options.resume === undefined ? {} : { resume: this.options.resume }) });
  }

  /** Waits until `pattern` appears after everything already matched; returns the text up to it. */
  async expect(pattern: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rest = this.text.slice(this.mark);
      const match = typeof pattern === "string" ? (rest.includes(pattern) ? { index: rest.indexOf(pattern), length: pattern.length } : undefined) : (() => {
        const m = pattern.exec(rest);
        return m === null ? undefined : { index: m.index, length: m[0].length };
      })();
      if (match !== undefined) {
        const seen = rest.slice(0, match.index + match.length);
        this.mark += match.index + match.length;
        return seen;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(pattern)}; transcript since the last match:\n${rest}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  send(line: string): void {
    this.stdin.write(`${line}\n`);
  }

  /** Waits for the prompt, then types the line. */
  async command(line: string): Promise<void> {
    await this.expect("mcpvm> ");
    this.send(line);
  }

  /** `/plugin approve mcp` (answered y) and `/plugin enable mcp`, as a person turns MCP on. */
  async enableMcp(): Promise<void> {
    await this.command("/plugin approve mcp");
    await this.expect('Approve plugin "mcp"');
    this.send("y");
    await this.expect("approved mcp");
    await this.command("/plugin enable mcp");
    await this.expect("enabled mcp");
  }

  async finish(): Promise<number> {
    if (this.exit === undefined) throw new Error("not started");
    return this.exit;
  }

  /** Closes the host the REPL ran on (its servers, its runs still winding down after a cancel). */
  async close(): Promise<void> {
    ReplDriver.started.delete(this);
    await this.host?.close();
  }

  /** Closes every driver whose home is `dir`. */
  static async closeAllIn(dir: string): Promise<void> {
    await Promise.all([...ReplDriver.started].filter((driver) => driver.env.MCPVM_HOME === dir).map((driver) => driver.close()));
  }
}

export async function tempHome(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-repl-"));
  const cleanup = async () => {
    // A host left open (a run cancelled mid-call winds down after the REPL exits) can still be
    // writing into the home; close it first so removing the directory does not race it.
    await ReplDriver.closeAllIn(dir);
    await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  return { dir, cleanup };
}
