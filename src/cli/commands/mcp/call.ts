import { McpTimeoutError } from "../../../mcp/client-manager/errors.js";
import { callToolOnce, type ServerCatalog } from "../../../mcp/service/index.js";
import { parseCommandArgs, parseDuration, requirePositional, UsageError } from "../../../terminal/args.js";
import type { CommandContext } from "../../../terminal/command.js";
import { displayInline } from "../../../terminal/display.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { onPromptInterrupt, CancelledError } from "../../../terminal/prompt.js";
import { askOnTerminal } from "../confirm-on-terminal.js";
import { errorMessage, isMcpvmError } from "../../../util/errors.js";
import { didYouMean } from "../../../util/suggest.js";
import { argumentsFromPairs, classifyCallArguments, parseJsonArguments } from "./call-args.js";
import { renderToolResult } from "./call-output.js";
import { connecting } from "./connecting.js";
import { loginOnDemand } from "./login.js";
import { onSignal } from "../../../util/signals.js";

export const CALL_OPTIONS = { timeout: { type: "string" }, login: { type: "boolean" } } as const;

export const CALL_USAGE = `Usage: mcpvm mcp call <server> <tool> ['<json object>' | - | key=value...] [options]

Calls one tool and prints its result: text as text, other content summarised. The call goes the
way a guest script's call goes: the server must be approved, the tool's definition must match its
pin (held tools are refused), the arguments are checked against its schema, and a tool that is
not read-only asks for confirmation (--yes answers it).

Arguments: one JSON object, - to read it from stdin, or key=value pairs (a value is parsed as JSON
unless the tool's schema says it is a string: count=3, tags='["a","b"]', name=Ada).

Options:
  --timeout <duration>   the whole call, server start included (default: the server's own timeouts)
  --login                a remote server that needs an OAuth login gets one (opens a browser)
                         without asking first; without it a terminal asks, and elsewhere the
                         call fails with "run \`mcpvm mcp login <server>\`"
  --json                 print the CallToolResult as the server sent it (secrets masked)

Exit codes: 0 ok, 1 the tool reported an error (isError), 2 usage, 5 approval or confirmation needed, 6 the server crashed or could not start, 130 interrupted.

Examples:
  mcpvm mcp call memory read_graph
  mcpvm mcp call everything echo message=hello
  mcpvm mcp call filesystem list_directory '{"path": "/tmp"}'`;

// Without --timeout only the server's connect and call timeouts apply.
const NO_DEADLINE_MS = 24 * 60 * 60 * 1000;

async function readStdin(context: CommandContext): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of context.io.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString("utf8");
}

function findTool(catalog: ServerCatalog, server: string, name: string): string {
  const tool = catalog.find(name);
  if (tool !== undefined) return tool.jsName;
  // A held tool goes on, so that the call is refused the way a guest's is (with how to review it).
  if (catalog.heldTool(name) !== undefined) return name;
  // Suggested by the server's own names (both those and the guest's JS names are accepted).
  const names = catalog.tools.map((t) => t.originalName);
  throw new UsageError(
    "USAGE",
    `mcpvm mcp call: server "${server}" has no tool "${name}"${didYouMean(name, names) || "."} Its tools: ${catalog.tools.map((t) => t.originalName).join(", ") || "none"} (\`mcpvm mcp info ${server}\` describes them).`,
  );
}

/**
 * The caller's budget here is this command's --timeout, start included; the manager's wording names
 * a run's (`mcpvm run --timeout`), or nothing when the start used it all up.
 */
function ownTimeout(error: unknown, flag: string): unknown {
  if (!isMcpvmError(error) || error.code !== "MCP_CALL_TIMEOUT" || error.data?.timeoutSource !== "caller") return error;
  const what = error.message.replace(/ That was what was left of the caller's time budget: .*$/s, "").replace("the caller's time budget", `--timeout ${flag}`);
  return new McpTimeoutError("MCP_CALL_TIMEOUT", `${what} --timeout ${flag} bounds the whole call, the server's start included: give it more (e.g. --timeout 2m).`, { data: error.data, cause: error });
}

/** `mcpvm mcp call <server> <tool> [args]` (args are everything after `call`). */
export async function callCommand(args: readonly string[], context: CommandContext): Promise<ExitCodeValue> {
  const { values, positionals } = parseCommandArgs("mcp call", args, CALL_OPTIONS);
  const server = requirePositional("mcp call", positionals, 0, "a server name");
  const toolName = requirePositional("mcp call", positionals, 1, "a tool name (see `mcpvm mcp info <server>`)");
  const raw = classifyCallArguments(positionals.slice(2));
  const timeoutMs = typeof values.timeout === "string" ? parseDuration("mcp call", "--timeout", values.timeout) : NO_DEADLINE_MS;
  // JSON from the command line is checked before anything starts.
  const jsonArgs = raw.kind === "json" && raw.text !== "-" ? parseJsonArguments(raw.text, raw.source) : undefined;
  const stdinArgs = raw.kind === "json" && raw.text === "-" ? parseJsonArguments(await readStdin(context), "stdin") : undefined;

  const host = await context.host();
  const service = await host.requireMcp();
  service.entry(server);
  host.setLoginInteraction(loginOnDemand(context, values.login === true));
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  const stopSigint = onSignal("SIGINT", onSigint, { once: true });
  // Ctrl-C at the call's question (or an ${input:…} value) stops the command like Ctrl-C elsewhere.
  const stopListening = onPromptInterrupt(onSigint);
  // In the REPL, Ctrl-C reaches a slash command as its step's abort.
  context.signal?.addEventListener("abort", onSigint, { once: true });
  try {
    const budget = { signal: controller.signal, deadline: Date.now() + timeoutMs };
    const catalog = await connecting(context, server, () => service.catalog(server, budget));
    const jsName = findTool(catalog, server, toolName);
    const inputSchema = catalog.find(jsName)?.definition.inputSchema;
    const toolArgs = raw.kind === "pairs" ? argumentsFromPairs(raw.pairs, inputSchema) : (jsonArgs ?? stdinArgs ?? {});
    const result = await callToolOnce(service, server, jsName, toolArgs, budget, host.mcpCallOptions(askOnTerminal(context))).catch((error: unknown) => {
      // Wrong arguments typed on the command line are a usage error, not a failed tool.
      if (isMcpvmError(error) && error.code === "MCP_INVALID_ARGUMENTS") throw new UsageError("USAGE", `mcpvm mcp call: ${error.message}`);
      throw error;
    });
    const failed = result.isError === true;
    if (context.json) writeJson(context.io.stdout, result);
    else {
      const text = renderToolResult(result);
      if (failed) writeLine(context.io.stderr, `${context.colours.red("error")} ${server}.${displayInline(catalog.find(jsName)?.originalName ?? toolName)} reported an error${text === "" ? "" : ":"}`);
      if (text !== "") writeLine(failed ? context.io.stderr : context.io.stdout, text);
    }
    return failed ? ExitCode.GuestError : ExitCode.Ok;
  } catch (error) {
    // Interrupted (SIGINT, or Ctrl-C at a question, which declines the call): exit 130, not the call's own failure.
    if (controller.signal.aborted && !(error instanceof CancelledError)) throw new CancelledError("CANCELLED", `interrupted: ${errorMessage(error)}`);
    if (typeof values.timeout === "string") throw ownTimeout(error, values.timeout);
    throw error;
  } finally {
    stopSigint();
    stopListening();
    context.signal?.removeEventListener("abort", onSigint);
  }
}
