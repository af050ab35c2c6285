import { COMMAND_SUMMARIES } from "./summaries.js";
import { loginOnDemand } from "./mcp/login-interaction.js";
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { MAX_TOOL_CALLS, RunLimitsSchema } from "../../sandbox/limits.js";
import type { EngineLimit, RunLimits } from "../../sandbox/types.js";
import { checkRange, formatBytes, formatDuration, parseBytes, parseCommandArgs, parseDuration, requirePositional, usageError, UsageError } from "../../terminal/args.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { McpvmError } from "../../util/errors.js";
import { exitCodeFor } from "../../terminal/report-error.js";
import { ExitCode, type ExitCodeValue } from "../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../terminal/io.js";
import { showServerProgress } from "../../terminal/server-progress.js";
import { askFlowOnTerminal, askOnTerminal } from "./confirm-on-terminal.js";
import { onPromptInterrupt } from "../../terminal/prompt.js";
import { isTerminal } from "../stdin-guard.js";
import { formatLogs, formatResultNotes, formatRunError, formatStats, formatValue } from "../../terminal/render/run-result.js";
import { startTelemetry } from "../../telemetry/start.js";
import { onSignal } from "../../util/signals.js";
import { firstInvalidByte } from "../../util/utf8.js";
import { readingFifo } from "../../util/fifo-reads.js";

const USAGE = `Usage: mcpvm run <file.js | -> [options]
       mcpvm run -e '<code>' [options]

Runs a guest script in the sandbox with the enabled plugins and MCP servers, and prints its result.
The script is a function body: top-level \`return\` gives the result, top-level \`await\` works.

  mcpvm run script.js
  echo 'return 1 + 1' | mcpvm run -
  mcpvm run -e 'return require("host:mcp-memory").read_graph({})'

Options:
  -e, --eval <code>     run this code instead of a file
  --timeout <duration>  wall-clock budget for the whole run, host calls included (500ms, 30s, 2m, 1h)
  --cpu <duration>      CPU budget of guest code
  --memory <size>       guest memory, 1MB to 2GB (e.g. 64MB; KB/MB/GB count in 1024s like KiB/MiB/GiB)
  --output <size>       cap on result + logs, up to 256MB (e.g. 1MB)
  --tool-calls <n>      MCP tool calls the script may make (default 1000; each $batch item counts)
  --json                print the whole {ok, result, logs, error, stats} record
  --stats               print timing and host-call counts to stderr
  --yes                 confirm every MCP call that would ask (for unattended runs)
  --login               log in to remote MCP servers that ask for it (opens a browser) without asking first

Durations and sizes need a unit: \`--timeout 30\` is refused (did you mean 30s?).
Exit codes: 0 ok, 1 the script failed, 2 usage, 3 config.json (or a state file) invalid, 4 a limit was hit
(the tool-call budget too), 5 approval needed, 6 an engine or server unavailable (a server crashed or could not
start), 130 interrupted.`;

export const runCommand: Command = {
  name: "run",
  summary: COMMAND_SUMMARIES.run,
  usage: USAGE,
  async run(args, context) {
    const { values, positionals } = parseCommandArgs(
      "run",
      args,
      { eval: { type: "string", short: "e" }, timeout: { type: "string" }, cpu: { type: "string" }, memory: { type: "string" }, output: { type: "string" }, "tool-calls": { type: "string" }, stats: { type: "boolean" }, login: { type: "boolean" } },
      1,
    );
    const inline = typeof values.eval === "string" ? values.eval : undefined;
    if (inline !== undefined && positionals.length > 0) throw usageError("run", `give either a file or -e <code>, not both (got -e and "${positionals[0]}")`);
    const source = inline === undefined ? requirePositional("run", positionals, 0, "a script file (or - for stdin, or -e '<code>')") : "-e";
    const limits = runLimitFlags(values);
    const code = inline ?? (await readScript(source, context));
    const host = await context.host();
    // A progress line while servers start (a first npx start downloads the package): TTY only.
    const stopProgress = await showServerProgress(host, context.io.stderr);
    host.setConfirmCall(askOnTerminal(context));
    host.setAskFlow(askFlowOnTerminal(context));
    host.setLoginInteraction(loginOnDemand(context, values.login === true));
    const controller = new AbortController();
    const onSigint = () => controller.abort();
    const stopSigint = onSignal("SIGINT", onSigint, { once: true });
    // Ctrl-C at a question during the run (a call to confirm, an ${input:…} value) ends the run too.
    const stopListening = onPromptInterrupt(onSigint);
    // A span for the run and its upstream calls when OTEL_* variables ask for it; nothing loaded otherwise.
    const traces = await startTelemetry(context.io.env, { addSecrets: (secrets) => host.redactor.add(secrets) }).catch((error: unknown) => {
      stopProgress();
      stopSigint();
      stopListening();
      throw error;
    });
    let result;
    try {
      result = await host.run(code, { limits, signal: controller.signal, filename: source === "-" ? "stdin.js" : source === "-e" ? "eval.js" : source });
    } finally {
      stopProgress();
      stopSigint();
      stopListening();
      await traces.shutdown();
    }
    if (context.json) {
      writeJson(context.io.stdout, result.ok ? { ok: true, result: result.value, logs: result.logs, stats: result.stats, ...(result.notes === undefined ? {} : { notes: result.notes }) } : { ok: false, error: result.error, logs: result.logs, stats: result.stats });
    } else {
      for (const line of formatLogs(result, context.colours)) writeLine(context.io.stderr, line);
      if (result.ok) {
        const text = formatValue(result.value);
        if (text !== "") writeLine(context.io.stdout, text);
        for (const line of formatResultNotes(result, context.colours)) writeLine(context.io.stderr, line);
      } else {
        writeLine(context.io.stderr, formatRunError(result, context.colours));
        const hint = limitHint(result.error);
        if (hint !== undefined) writeLine(context.io.stderr, hint);
      }
      if (values.stats === true) writeLine(context.io.stderr, context.colours.dim(formatStats(result)));
    }
    return result.ok ? ExitCode.Ok : exitCodeForRun(result.error.code, result.error.errorCode);
  },
};

function exitCodeForRun(code: string, thrownCode: string | undefined): ExitCodeValue {
  // A host function's own error code (e.g. MCP_NOT_APPROVED) says more than "the guest threw".
  // An unknown name inside the script is the script's fault, not the command line's: 1, not 2.
  if (thrownCode !== undefined) {
    const byThrown = exitCodeFor(new McpvmError(thrownCode, ""));
    if (byThrown !== ExitCode.GuestError && byThrown !== ExitCode.Usage) return byThrown;
  }
  if (code.endsWith("_LIMIT") || code === "STACK_OVERFLOW") return ExitCode.Limit;
  if (code === "CANCELLED") return ExitCode.Interrupted;
  if (code === "ENGINE_UNAVAILABLE" || code === "ENGINE_FAILURE") return ExitCode.Unavailable;
  return ExitCode.GuestError;
}

const LIMIT_FLAGS: Record<EngineLimit, readonly [flag: string, format: (n: number) => string]> = {
  cpuMs: ["--cpu", formatDuration],
  wallMs: ["--timeout", formatDuration],
  memoryBytes: ["--memory", formatBytes],
  outputBytes: ["--output", formatBytes],
};

/**
 * A run that ended on one of its limits: what to type to allow more (twice the limit, within what
 * the sandbox allows), since the message names only the config key. The limit is read from the
 * message limitError wrote (`cpuMs = 100`); without it, the flag alone is named.
 */
export function limitHint(error: { readonly limit?: string; readonly message: string }): string | undefined {
  const key = error.limit;
  if (key === undefined || !Object.hasOwn(LIMIT_FLAGS, key)) return undefined;
  const [flag, format] = LIMIT_FLAGS[key as EngineLimit];
  const max = RunLimitsSchema.shape[key as EngineLimit].maxValue ?? Number.MAX_SAFE_INTEGER;
  const current = Number(new RegExp(`\\(${key} = (\\d+)`).exec(error.message)?.[1]);
  if (current >= max) return `${flag} ${format(max)} is already the most the sandbox allows.`;
  const value = Number.isSafeInteger(current) && current > 0 ? format(Math.min(current * 2, max)) : "<more>";
  return `To allow more: ${flag} ${value} for this run, or limits.${key} in config.json.`;
}

/** --timeout, --cpu, --memory, --output, --tool-calls: parsed, and checked against the sandbox's own bounds in the flag's units. */
export function runLimitFlags(values: Readonly<Record<string, unknown>>): Partial<Record<keyof RunLimits, number>> {
  const limits: Partial<Record<keyof RunLimits, number>> = {};
  const bounds = (key: EngineLimit) => {
    const schema = RunLimitsSchema.shape[key];
    return { min: schema.minValue ?? 1, max: schema.maxValue ?? Number.MAX_SAFE_INTEGER };
  };
  const flags = [
    ["--timeout", "timeout", "wallMs", parseDuration, formatDuration],
    ["--cpu", "cpu", "cpuMs", parseDuration, formatDuration],
    ["--memory", "memory", "memoryBytes", parseBytes, formatBytes],
    ["--output", "output", "outputBytes", parseBytes, formatBytes],
  ] as const;
  for (const [flag, name, key, parse, format] of flags) {
    const text = values[name];
    if (typeof text === "string") limits[key] = checkRange("run", flag, parse("run", flag, text), bounds(key), format, text);
  }
  const toolCalls = values["tool-calls"];
  if (typeof toolCalls === "string") {
    if (!/^\d+$/.test(toolCalls.trim())) throw usageError("run", `--tool-calls takes a whole number of calls (e.g. --tool-calls 5000), not "${toolCalls}"`);
    limits.toolCalls = checkRange("run", "--tool-calls", Number(toolCalls), { min: 1, max: MAX_TOOL_CALLS }, String, toolCalls);
  }
  return limits;
}

async function readScript(source: string, context: CommandContext): Promise<string> {
  if (source === "-") {
    // On a terminal nothing else shows that the command is waiting for the script.
    if (isTerminal(context.io.stdin)) writeLine(context.io.stderr, "Type the script, then Ctrl-D on an empty line to run it (or give a file: mcpvm run script.js).");
    const chunks: Buffer[] = [];
    for await (const chunk of context.io.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
    const bytes = Buffer.concat(chunks);
    const text = textOf(bytes);
    if (text === undefined) throw usageError("run", notText("stdin", bytes));
    return text;
  }
  const path = resolve(context.io.cwd, source);
  let bytes: Buffer;
  try {
    const kind = await stat(path);
    if (kind.isDirectory()) throw usageError("run", `${source} is a directory; give a script file (e.g. ${join(source, "index.js")})`);
    bytes = kind.isFIFO() ? await readingFifo(path, () => readFile(path)) : await readFile(path);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && looksLikeCode(source)) {
      throw usageError("run", `there is no file named "${source}"; to run code inline use -e: mcpvm run -e '${source.replace(/'/g, "'\\''")}' (or pipe it to \`mcpvm run -\`)`);
    }
    throw usageError("run", `cannot read ${source}: ${code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : (error as Error).message}`);
  }
  const text = textOf(bytes);
  if (text === undefined) throw usageError("run", notText(source, bytes));
  return text;
}

/** Why bytes are no script: binary (a NUL byte), or text in another encoding (Latin-1 "é" is one byte 0xE9), said with where. */
function notText(source: string, bytes: Buffer): string {
  if (bytes.subarray(0, 8192).includes(0)) return `${source} is not a text file; mcpvm runs JavaScript source`;
  const byte = firstInvalidByte(bytes);
  const line = bytes.subarray(0, byte).filter((b) => b === 10).length + 1;
  return `${source} is not valid UTF-8 at byte ${byte} (line ${line}); save it as UTF-8, the only encoding mcpvm reads scripts in`;
}

/** Not a path but a snippet: `run 'return 1+1'` (spaces, parentheses, operators, no script extension). */
export function looksLikeCode(source: string): boolean {
  if (/\.(c|m)?[jt]sx?$/.test(source)) return false;
  return /[\s(){};=+*`]/.test(source) || /^(return|await|const|let|var|console|require|import)\b/.test(source);
}

/** UTF-8 text, or undefined for binary content (a NUL byte, or bytes that are not UTF-8). */
export function textOf(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
