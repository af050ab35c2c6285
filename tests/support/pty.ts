import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");
const VITE_NODE = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts");

/** util-linux `script` is there to give a child a real pseudo-terminal. */
export const hasScript = spawnSync("script", ["--version"]).status === 0;

// Cursor movement and colours the terminal's line editor writes between prompts and typed text.
const ANSI = new RegExp(`${String.fromCharCode(27)}(\\[[0-9;?]*[A-Za-z]|\\][^\\u0007]*\\u0007|[=>])`, "g");

/**
 * `mcpvm <args>` on a real pseudo-terminal (through `script`), read the way a person reads the
 * screen: wait until some text appears after what was already seen, then type.
 */
export class PtySession {
  private readonly child: ChildProcess;
  private raw = "";
  private mark = 0;
  readonly exited: Promise<number | null>;

  constructor(args: readonly string[], env: Record<string, string | undefined>) {
    const cli = [process.execPath, VITE_NODE, CLI_ENTRY, "--", ...args].map((a) => JSON.stringify(a)).join(" ");
    this.child = spawn("script", ["-qec", cli, "/dev/null"], { env: { ...process.env, ...env, NO_COLOR: "1" }, stdio: ["pipe", "pipe", "pipe"] });
    this.child.stdout?.on("data", (chunk: Buffer) => (this.raw += chunk.toString("utf8")));
    this.exited = new Promise((resolve) => this.child.on("close", resolve));
  }

  /** Everything written so far, escape codes included (terminal modes turned on and off). */
  get output(): string {
    return this.raw;
  }

  /** Everything shown so far, escape codes and carriage returns removed. */
  get screen(): string {
    return this.raw.replace(ANSI, "").replace(/\r/g, "");
  }

  /** Waits until `text` appears after the last match; returns what was shown up to it. */
  async expect(text: string | RegExp, timeoutMs = 60_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rest = this.screen.slice(this.mark);
      const found = typeof text === "string" ? (rest.includes(text) ? { index: rest.indexOf(text), length: text.length } : undefined) : (() => {
        const m = text.exec(rest);
        return m === null ? undefined : { index: m.index, length: m[0].length };
      })();
      if (found !== undefined) {
        this.mark += found.index + found.length;
        return rest.slice(0, found.index + found.length);
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(text)}; the screen since the last match:\n${rest}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Keys as typed: "Ada\r" is a line, "\u0003" is Ctrl-C, "\u0004" is Ctrl-D. */
  type(keys: string): void {
    this.child.stdin?.write(keys);
  }

  /** Ends the session if it is still running (a failed test must not leave it behind). */
  kill(): void {
    if (this.child.exitCode === null && this.child.pid !== undefined) this.child.kill("SIGKILL");
  }
}
