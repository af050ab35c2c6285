import { PassThrough } from "node:stream";
import { approve, type ApproveOptions } from "../../src/cli/commands/mcp/approve.js";
import type { McpvmHost } from "../../src/host/index.js";
import type { CommandContext } from "../../src/terminal/command.js";
import { colours } from "../../src/terminal/io.js";
import type { CliOutcome, TrustHome } from "./helpers.js";

/**
 * `mcp approve` as a person at a terminal runs it: `interactive` is true, and each question that
 * appears on stderr gets the next scripted answer typed on stdin (the answers are what a person
 * types, not a stand-in for mcpvm code). Answers left over mean a question was never asked.
 */
export async function approveAtTerminal(
  home: TrustHome,
  host: McpvmHost,
  server: string,
  options: Partial<ApproveOptions>,
  answers: readonly string[],
): Promise<CliOutcome & { questions: string[]; unused: string[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  const pending = [...answers];
  const questions: string[] = [];
  stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  stderr.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    err += text;
    // A question ends with "[y/N] " or ": " and waits; answer it once.
    if (/(\[y\/N\] |: )$/.test(text) && /\?|Type/.test(text)) {
      questions.push(text.trim());
      const answer = pending.shift();
      if (answer !== undefined) setImmediate(() => stdin.write(`${answer}\n`));
    }
  });
  const io = { stdin, stdout, stderr, env: home.env, cwd: home.dir };
  const context: CommandContext = { io, colours: colours({}, home.env), host: async () => host, interactive: true, assumeYes: false, json: false };
  const service = await host.requireMcp();
  const code = await approve(service, server, { toolsOnly: false, acceptBlocked: [], acceptLaunchEnv: false, ...options }, context);
  return { code, stdout: out, stderr: err, questions, unused: pending };
}
