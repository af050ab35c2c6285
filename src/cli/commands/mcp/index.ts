import { COMMAND_SUMMARIES } from "../summaries.js";
import { DEFAULT_NATIVE_PLUGIN_NAMES, setMcpServerEnabled } from "../../../mcp/config/index.js";
import { KNOWN_SERVERS } from "../../../mcp/known-servers.js";
import { parseCommandArgs, requirePositional, usageError, UsageError } from "../../../terminal/args.js";
import { didYouMean } from "../../../util/suggest.js";
import type { Command } from "../../../terminal/command.js";
import { ExitCode } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { addCommand } from "./add.js";
import { ADD_USAGE } from "./add-request.js";
import { CALL_USAGE, callCommand } from "./call.js";
import { approve } from "./approve.js";
import { callerOf, connecting } from "./connecting.js";
import { importCommand } from "./import.js";
import { info } from "./info.js";
import { listCommand } from "./list.js";
import { removeCommand } from "./remove.js";
import { LOGIN_USAGE, LOGOUT_USAGE, loginCommand, logoutCommand } from "./login.js";

const USAGE = `Usage: mcpvm mcp <command> [name] [options]

MCP servers appear in guest code as host:mcp-<name> modules. Needs the mcp plugin enabled.

Commands:
  list [--check]           servers with state (idle, connected, failed …, with the last error and when),
                           approval and tool count; --check starts each approved server once (✓/✗)
  info <name>              definition (secrets masked), approval, and its tools (connects)
  types <name>             the generated TypeScript declarations (connects)
  approve <name>           approve the launch definition, then review and accept its tools
  revoke <name>            withdraw approval; disconnects at once
  enable <name> | disable <name>
  add <name>               add a well-known server (${KNOWN_SERVERS.map((s) => s.name).join(", ")})
  add <name> [-e K=V]... -- <command> [args...]              add any stdio server
  add <name> --transport http|sse <url> [-H "Name: value"]...  add any HTTP (or SSE) server
                           (\`mcpvm mcp add --help\` for every option)
  call <name> <tool> ['<json>' | key=value...]   call one tool and print its result
  login <name> [--no-browser]   log in to a remote server that uses OAuth (opens a browser)
  logout <name>            remove the server's login (and revoke its tokens where supported)
  remove <name>            delete the server from config.json
  import <file>            import VS Code mcp.json, Claude/Cursor .mcp.json or command-array configs

Options:
  --overwrite          (add, import) replace existing entries
  --tools              (approve) only review and accept held tools
  --accept-blocked a,b (approve) also accept these held tools although their audit finding is block-level
                       (--yes never does; on a terminal you can type the tool's name instead)
  --accept-launch-env  (approve) the definition sets code-loading env (NODE_OPTIONS, LD_PRELOAD, PATH, …)
                       and you expect it (--yes alone refuses it; on a terminal you can type the server name)
  --json`;

const IMPORT_USAGE = `Usage: mcpvm mcp import <file> [--only a,b] [--dry-run] [--overwrite] [--json]

Reads another MCP client's config and adds its servers to config.json. Understood formats: VS Code
(.vscode/mcp.json, settings.json "mcp.servers"), Claude Desktop, Claude Code and Cursor (.mcp.json,
"mcpServers"), Windsurf, and command-array configs. Names are normalised ("My Server" -> my-server),
and every rename, skipped entry and note is reported. Imported servers start only after approval.

  --only a,b     import only these servers (names as in the file, or as mcpvm renames them)
  --dry-run      report what would change, write nothing
  --overwrite    replace servers that already exist with a different definition

Examples:
  mcpvm mcp import ~/.cursor/mcp.json
  mcpvm mcp import .vscode/mcp.json --only github,memory
  mcpvm mcp import ~/Library/Application\\ Support/Claude/claude_desktop_config.json --dry-run`;

/** Aliases people know from other CLIs (ls, rm, get) and a did-you-mean for typos, before anything starts. */
const SUBCOMMAND_ALIASES: Readonly<Record<string, string>> = { ls: "list", rm: "remove", get: "info" };
function subcommandOf(word: string, known: readonly string[]): string {
  const resolved = SUBCOMMAND_ALIASES[word] ?? word;
  if (resolved === "help" || known.includes(resolved)) return resolved;
  throw usageError("mcp", `unknown command "${word}"${didYouMean(word, known)}`);
}

const MCP_STORE = { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };

export const mcpCommand: Command = {
  name: "mcp",
  summary: COMMAND_SUMMARIES.mcp,
  usage: USAGE,
  subcommands: ["list", "info", "types", "approve", "revoke", "enable", "disable", "add", "call", "login", "logout", "remove", "import"],
  helpFor: (args) =>
    args[0] === "add" ? ADD_USAGE : args[0] === "call" ? CALL_USAGE : args[0] === "login" ? LOGIN_USAGE : args[0] === "logout" ? LOGOUT_USAGE : args[0] === "import" ? IMPORT_USAGE : args[0] === "help" ? USAGE : undefined,
  async run(args, context) {
    // add and call read their own options (-e, -H, --transport, key=value …): nothing of theirs is shared.
    if (args[0] === "add") return addCommand(args.slice(1), context);
    if (args[0] === "call") return callCommand(args.slice(1), context);
    if (args[0] === "login" || args[0] === "logout") {
      const service = await (await context.host()).requireMcp();
      return args[0] === "login" ? loginCommand(service, args.slice(1), context) : logoutCommand(service, args.slice(1), context);
    }
    // The command word before the options too: `mcp ad x -e K=V -- cmd` and `mcp cal fx echo --timeout 5s`
    // are typos of add and call, whose options the other subcommands do not know ("unknown option -e").
    if (args[0] !== undefined && !args[0].startsWith("-")) subcommandOf(args[0], mcpCommand.subcommands ?? []);
    const { values, positionals } = parseCommandArgs(
      "mcp",
      args,
      {
        overwrite: { type: "boolean" },
        tools: { type: "boolean" },
        "accept-blocked": { type: "string", multiple: true },
        "accept-launch-env": { type: "boolean" },
        only: { type: "string", multiple: true },
        "dry-run": { type: "boolean" },
        check: { type: "boolean" },
      },
    );
    // The command word is checked before the count: `mcp cal fx echo` is a typo of call, not "unexpected argument echo".
    const sub = subcommandOf(positionals[0] ?? "list", mcpCommand.subcommands ?? []);
    if (positionals.length > 2) throw usageError("mcp", `unexpected argument "${positionals[2]}"`);
    if (sub === "help") {
      writeLine(context.io.stdout, mcpCommand.helpFor?.(positionals.slice(1)) ?? USAGE);
      return ExitCode.Ok;
    }
    if (sub === "list" && positionals.length > 1) throw usageError("mcp list", `unexpected argument "${positionals[1]}"`);
    const host = await context.host();
    // Before the MCP service: it does not load while an entry is broken, and removing one is a way out.
    if (sub === "remove") return removeCommand(host, requirePositional("mcp", positionals, 1, "a server name"), context);
    const service = await host.requireMcp();
    const name = () => requirePositional("mcp", positionals, 1, "a server name");
    const configFile = host.paths.configFile;
    switch (sub) {
      case "list":
        return listCommand(service, values.check === true, context);
      case "info":
        return info(service, name(), context);
      case "types": {
        const catalog = await connecting(context, name(), () => service.catalog(name(), callerOf(context)));
        const text = await catalog.declarations();
        if (context.json) writeJson(context.io.stdout, { server: catalog.server, module: catalog.module, declarations: text });
        else writeLine(context.io.stdout, text);
        return ExitCode.Ok;
      }
      case "approve":
        return approve(service, name(), { toolsOnly: values.tools === true, acceptBlocked: (values["accept-blocked"] as string[] | undefined) ?? [], acceptLaunchEnv: values["accept-launch-env"] === true }, context);
      case "revoke": {
        const target = name();
        const revoked = await service.revoke(target);
        // An approval left behind by a removed server can still be revoked; a name that is neither is a typo.
        if (!revoked && !service.serverNames().includes(target)) service.entry(target);
        if (context.json) writeJson(context.io.stdout, { revoked: target, changed: revoked });
        else writeLine(context.io.stdout, revoked ? `revoked ${target}; it is disconnected and will not start until approved again` : `${target} had no approval`);
        return ExitCode.Ok;
      }
      case "enable":
      case "disable": {
        const target = name();
        await setMcpServerEnabled(configFile, target, sub === "enable", MCP_STORE);
        await host.reload();
        if (context.json) writeJson(context.io.stdout, { [`${sub}d`]: target });
        else writeLine(context.io.stdout, `${sub}d ${target}`);
        return ExitCode.Ok;
      }
      case "import":
        return importCommand(host, service, requirePositional("mcp", positionals, 1, "a file to import"), values, context);
      default:
        throw new UsageError("USAGE", `mcp: unknown command "${sub}". See \`mcpvm mcp --help\`.`);
    }
  },
};
