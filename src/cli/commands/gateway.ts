import { COMMAND_SUMMARIES } from "./summaries.js";
import { loadConfigFile } from "../../config/config-file.js";
import { resolveConfigPaths } from "../../config/paths.js";
// The parts themselves, not gateway/index.js, which loads the HTTP server and the MCP server SDK.
import { clientNameProblem, ClientTokenStore, type ClientEntry } from "../../gateway/clients/store.js";
import { formatRate, parseRate } from "../../gateway/clients/scope.js";
import { ToolsetStore } from "../../gateway/toolsets/store.js";
import { OAUTH_USAGE, runOauth } from "./gateway-oauth.js";
import { parseCommandArgs, requirePositional, unknownCommandWord, usageError } from "../../terminal/args.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { displayInline } from "../../terminal/display.js";
import { ExitCode, type ExitCodeValue } from "../../terminal/exit-codes.js";
import { formatTable, writeJson, writeLine } from "../../terminal/io.js";
import { isMcpvmError } from "../../util/errors.js";
import { didYouMean } from "../../util/suggest.js";

const USAGE = `Usage: mcpvm gateway token <create|list|revoke> …
       mcpvm gateway oauth check [<access token> | -]

Named client tokens for \`mcpvm serve --http\`: one per person or service, each limited to what it
may call and revocable on its own. Kept in <config home>/gateway-clients.json as SHA-256 digests;
the token itself is printed once, by create. The gateway's own token keeps working alongside.

  token create <name> [--toolset <name>] [--servers <a,b>] [--rate <n/s>]
                         make a token for client <name> (printed once, on stdout)
      --toolset <name>   the client sees and calls only this toolset's tools (directly and in run_mcp_script)
      --servers <a,b>    the client reaches only these MCP servers
      --rate <n/s>       at most n requests a second (or n/m a minute); more get HTTP 429
  token list             clients with a token, their limits and token prefix (never the token)
  token revoke <name>    delete the client's token; a running gateway refuses its next request

Clients send "Authorization: Bearer <token>"; logs and the request log name the client.

Access tokens from an identity provider (config.json gateway.oauth, docs/GATEWAY.md):
${OAUTH_USAGE}`;

const ACTIONS = ["create", "list", "revoke"] as const;

function store(context: CommandContext): ClientTokenStore {
  return new ClientTokenStore(resolveConfigPaths(context.io.env).gatewayClientsFile);
}

function describeLimits(entry: ClientEntry): string {
  const parts = [
    entry.toolset === undefined ? undefined : `toolset ${entry.toolset}`,
    entry.servers === undefined ? undefined : `servers ${entry.servers.join(",")}`,
    entry.rate === undefined ? undefined : `rate ${formatRate(entry.rate)}`,
  ].filter((p): p is string => p !== undefined);
  return parts.join("; ") || "everything";
}

/** --servers must name configured servers and --toolset a saved toolset: a typo would make a token that can reach nothing. */
async function checkLimits(context: CommandContext, servers: readonly string[] | undefined, toolset: string | undefined): Promise<void> {
  const paths = resolveConfigPaths(context.io.env);
  if (servers !== undefined) {
    const configured = Object.keys((await loadConfigFile(paths.configFile)).mcpServers ?? {});
    for (const server of servers) {
      if (!configured.includes(server)) {
        throw usageError("gateway token create", `--servers: no MCP server named "${server}" is configured${didYouMean(server, configured)} (configured: ${configured.join(", ") || "none"}). No token was made.`);
      }
    }
  }
  if (toolset !== undefined) {
    try {
      await new ToolsetStore(paths.toolsetsFile).get(toolset);
    } catch (error) {
      if (isMcpvmError(error) && error.code === "GATEWAY_TOOLSET_UNKNOWN") {
        throw usageError("gateway token create", `--toolset: no toolset named "${toolset}" (make one with \`mcpvm toolset build ${toolset} <server.tool>...\`). No token was made.`);
      }
      throw error;
    }
  }
}

async function runToken(args: readonly string[], context: CommandContext): Promise<ExitCodeValue> {
  const [action, ...rest] = args;
  switch (action) {
    case "create": {
      const { values, positionals } = parseCommandArgs("gateway token create", rest, { toolset: { type: "string" }, servers: { type: "string" }, rate: { type: "string" } }, 1);
      const name = requirePositional("gateway token create", positionals, 0, "the client name");
      const nameProblem = clientNameProblem(name);
      if (nameProblem !== undefined) throw usageError("gateway token create", `${nameProblem}. No token was made.`);
      const servers = typeof values.servers === "string" ? values.servers.split(",").map((s) => s.trim()).filter((s) => s !== "") : undefined;
      if (servers !== undefined && servers.length === 0) throw usageError("gateway token create", "--servers needs at least one server name");
      const toolset = typeof values.toolset === "string" ? values.toolset : undefined;
      let rate;
      try {
        rate = typeof values.rate === "string" ? parseRate(values.rate) : undefined;
      } catch (error) {
        throw usageError("gateway token create", (error as Error).message);
      }
      await checkLimits(context, servers, toolset);
      const { token, entry } = await store(context).create(name, { ...(servers === undefined ? {} : { servers }), ...(toolset === undefined ? {} : { toolset }), ...(rate === undefined ? {} : { rate }) });
      if (context.json) writeJson(context.io.stdout, { client: entry, token });
      else {
        writeLine(context.io.stdout, token);
        writeLine(context.io.stderr, `Made a token for client ${entry.name} (${describeLimits(entry)}). It is shown only this once: give it to the client now.`);
      }
      return ExitCode.Ok;
    }
    case "list": {
      parseCommandArgs("gateway token list", rest, {}, 0);
      const clients = await store(context).list();
      if (context.json) writeJson(context.io.stdout, { clients });
      else if (clients.length === 0) writeLine(context.io.stdout, "No client tokens yet. Make one with `mcpvm gateway token create <name>`.");
      else writeLine(context.io.stdout, formatTable(clients.map((c) => [c.name, `${c.prefix}…`, displayInline(describeLimits(c)), c.createdAt]), ["CLIENT", "TOKEN", "ALLOWS", "CREATED"]));
      return ExitCode.Ok;
    }
    case "revoke": {
      const { positionals } = parseCommandArgs("gateway token revoke", rest, {}, 1);
      const name = requirePositional("gateway token revoke", positionals, 0, "the client name");
      await store(context).revoke(name);
      if (context.json) writeJson(context.io.stdout, { revoked: name });
      else writeLine(context.io.stdout, `Revoked the token of client ${name}; a running gateway refuses it from its next request.`);
      return ExitCode.Ok;
    }
    default:
      throw usageError("gateway token", unknownCommandWord("action", action, ACTIONS));
  }
}

export const gatewayCommand: Command = {
  name: "gateway",
  summary: COMMAND_SUMMARIES.gateway,
  usage: USAGE,
  subcommands: ["token", "oauth"],
  async run(args, context) {
    const [sub, ...rest] = args;
    if (sub === "token") return runToken(rest, context);
    if (sub === "oauth") return runOauth(rest, context);
    throw usageError("gateway", unknownCommandWord("subcommand", sub, ["token", "oauth"]));
  },
};
