import { addMcpServer, DEFAULT_NATIVE_PLUGIN_NAMES, removeMcpServer, setMcpServerEnabled } from "../../../mcp/config/index.js";
import { KNOWN_SERVERS } from "../../../mcp/known-servers.js";
import { parseCommandArgs, requirePositional, UsageError } from "../../../terminal/args.js";
import type { Command } from "../../../terminal/command.js";
import { ExitCode } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { maskedEntry, renderServerList } from "../../../terminal/render/mcp.js";
import { buildEntry } from "./add.js";
import { approve } from "./approve.js";
import { connecting } from "./connecting.js";
import { importCommand } from "./import.js";
import { info } from "./info.js";

const USAGE = `Usage: mcpvm mcp <command> [name] [options]

MCP servers appear in guest code as host:mcp-<name> modules. Needs the mcp plugin enabled.

Commands:
  list                     servers with transport, state, approval and tool count
  info <name>              definition (secrets masked), approval, and its tools (connects)
  types <name>             the generated TypeScript declarations (connects)
  approve <name>           approve the launch definition, then review and accept its tools
  revoke <name>            withdraw approval; disconnects at once
  enable <name> | disable <name>
  add <name>               add a well-known server (${KNOWN_SERVERS.map((s) => s.name).join(", ")})
  add <name> --stdio -- <command> [args...]    add any stdio server
  add <name> --http <url> [--header K=V]...    add any streamable HTTP (or --sse) server
  remove <name>            delete the server from config.json
  import <file>            import VS Code mcp.json, Claude/Cursor .mcp.json or command-array configs

Options:
  --env K=V            (add) environment for a stdio server; use \${VAR} to reference your environment
  --dir <path>         (add) the directory for filesystem/git (default: current directory)
  --overwrite          (add, import) replace existing entries
  --tools              (approve) only review and accept held tools
  --json`;

const MCP_STORE = { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };

export const mcpCommand: Command = {
  name: "mcp",
  summary: "Manage MCP servers: list, info, types, approve, revoke, enable, disable, add, import",
  usage: USAGE,
  subcommands: ["list", "info", "types", "approve", "revoke", "enable", "disable", "add", "remove", "import"],
  async run(args, context) {
    const dashdash = args.indexOf("--");
    const command = dashdash === -1 ? [] : args.slice(dashdash + 1);
    const { values, positionals } = parseCommandArgs(
      "mcp",
      dashdash === -1 ? args : args.slice(0, dashdash),
      {
        stdio: { type: "boolean" },
        http: { type: "string" },
        sse: { type: "string" },
        header: { type: "string", multiple: true },
        env: { type: "string", multiple: true },
        dir: { type: "string" },
        overwrite: { type: "boolean" },
        tools: { type: "boolean" },
        only: { type: "string", multiple: true },
        "dry-run": { type: "boolean" },
        description: { type: "string" },
      },
      2,
    );
    const sub = positionals[0] ?? "list";
    const host = await context.host();
    const service = await host.requireMcp();
    const name = () => requirePositional("mcp", positionals, 1, "a server name");
    const configFile = host.paths.configFile;
    switch (sub) {
      case "list": {
        const list = await service.summaries();
        if (context.json) writeJson(context.io.stdout, { servers: list });
        else writeLine(context.io.stdout, renderServerList(list, context.colours));
        return ExitCode.Ok;
      }
      case "info":
        return info(service, name(), context);
      case "types": {
        const catalog = await connecting(context, name(), () => service.catalog(name()));
        const text = await catalog.declarations();
        if (context.json) writeJson(context.io.stdout, { server: catalog.server, module: catalog.module, declarations: text });
        else writeLine(context.io.stdout, text);
        return ExitCode.Ok;
      }
      case "approve":
        return approve(service, name(), values.tools === true, context);
      case "revoke": {
        const target = name();
        const revoked = await service.revoke(target);
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
      case "remove": {
        const target = name();
        await removeMcpServer(configFile, target, MCP_STORE);
        await service.revoke(target);
        await host.reload();
        if (context.json) writeJson(context.io.stdout, { removed: target });
        else writeLine(context.io.stdout, `removed ${target} (and its approval)`);
        return ExitCode.Ok;
      }
      case "add": {
        const target = name();
        const entry = buildEntry(target, values, command, context);
        const saved = await addMcpServer(configFile, target, entry, { ...MCP_STORE, overwrite: values.overwrite === true });
        await host.reload();
        if (context.json) writeJson(context.io.stdout, { added: target, entry: maskedEntry(saved) });
        else writeLine(context.io.stdout, `added ${target} to ${configFile}. It will not start until you approve it: \`mcpvm mcp approve ${target}\`.`);
        return ExitCode.Ok;
      }
      case "import":
        return importCommand(host, service, requirePositional("mcp", positionals, 1, "a file to import"), values, context);
      default:
        throw new UsageError("USAGE", `mcp: unknown command "${sub}". See \`mcpvm mcp --help\`.`);
    }
  },
};
