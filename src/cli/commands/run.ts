import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { RunLimits } from "../../sandbox/types.js";
import { parseBytes, parseCommandArgs, parseDuration, requirePositional, UsageError } from "../../terminal/args.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { McpvmError } from "../../util/errors.js";
import { exitCodeFor } from "../../terminal/report-error.js";
import { ExitCode, type ExitCodeValue } from "../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../terminal/io.js";
import { confirm } from "../../terminal/prompt.js";
import { renderCallConfirmation } from "../../terminal/render/call-confirmation.js";
import { formatLogs, formatRunError, formatStats, formatValue } from "../../terminal/render/run-result.js";

const USAGE = `Usage: mcpvm run <file.js | -> [options]

Runs a guest script in the sandbox with the enabled plugins and MCP servers, and prints its result.
The script is a function body: top-level \`return\` gives the result, top-level \`await\` works.

Options:
  --timeout <duration>  wall-clock budget for the whole run, host calls included (e.g. 30s)
  --cpu <duration>      CPU budget of guest code
  --memory <size>       guest memory (e.g. 64MB)
  --output <size>       cap on result + logs
  --json                print the whole {ok, result, logs, error, stats} record
  --stats               print timing and host-call counts to stderr
  --yes                 confirm every MCP call that would ask (for unattended runs)

Exit codes: 0 ok, 1 the script failed, 4 a limit was hit, 5 approval needed, 130 interrupted.`;

export const runCommand: Command = {
  name: "run",
  summary: "Run a guest script (file or stdin) against the enabled plugins and MCP servers",
  usage: USAGE,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      "run",
      args,
      { timeout: { type: "string" }, cpu: { type: "string" }, memory: { type: "string" }, output: { type: "string" }, stats: { type: "boolean" } },
      1,
    );
    const source = requirePositional("run", positionals, 0, "a script file (or - for stdin)");
    const limits: Partial<Record<keyof RunLimits, number>> = {};
    if (typeof values.timeout === "string") limits.wallMs = parseDuration("run", "--timeout", values.timeout);
    if (typeof values.cpu === "string") limits.cpuMs = parseDuration("run", "--cpu", values.cpu);
    if (typeof values.memory === "string") limits.memoryBytes = parseBytes("run", "--memory", values.memory);
    if (typeof values.output === "string") limits.outputBytes = parseBytes("run", "--output", values.output);
    const code = await readScript(source, context);
    const host = await context.host();
    host.setConfirmCall(async (request) => {
      context.io.stderr.write(`${renderCallConfirmation(request)}\n`);
      const ok = await confirm(context, "Allow this call?");
      if (ok || context.interactive) return ok;
      writeLine(context.io.stderr, "Not confirmed: no terminal to ask on. Rerun with --yes, or set `confirm: \"never\"` for this server.");
      return "no-terminal";
    });
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    process.once("SIGINT", onSigint);
    let result;
    try {
      result = await host.run(code, { limits, signal: controller.signal, filename: source === "-" ? "stdin.js" : source });
    } finally {
      process.off("SIGINT", onSigint);
    }
    if (context.json) {
      writeJson(context.io.stdout, result.ok ? { ok: true, result: result.value, logs: result.logs, stats: result.stats } : { ok: false, error: result.error, logs: result.logs, stats: result.stats });
    } else {
      for (const line of formatLogs(result, context.colours)) writeLine(context.io.stderr, line);
      if (result.ok) {
        const text = formatValue(result.value);
        if (text !== "") writeLine(context.io.stdout, text);
      } else {
        writeLine(context.io.stderr, formatRunError(result, context.colours));
      }
      if (values.stats === true) writeLine(context.io.stderr, context.colours.dim(formatStats(result)));
    }
    return result.ok ? ExitCode.Ok : exitCodeForRun(result.error.code, result.error.errorCode);
  },
};

function exitCodeForRun(code: string, thrownCode: string | undefined): ExitCodeValue {
  // A host function's own error code (e.g. MCP_NOT_APPROVED) says more than "the guest threw".
  if (thrownCode !== undefined) {
    const byThrown = exitCodeFor(new McpvmError(thrownCode, ""));
    if (byThrown !== ExitCode.GuestError) return byThrown;
  }
  if (code.endsWith("_LIMIT") || code === "STACK_OVERFLOW") return ExitCode.Limit;
  if (code === "CANCELLED") return ExitCode.Interrupted;
  if (code === "ENGINE_UNAVAILABLE" || code === "ENGINE_FAILURE") return ExitCode.Unavailable;
  return ExitCode.GuestError;
}

async function readScript(source: string, context: CommandContext): Promise<string> {
  if (source === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of context.io.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(resolve(context.io.cwd, source), "utf8");
  } catch (error) {
    throw new UsageError("USAGE", `run: cannot read ${source}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
}
