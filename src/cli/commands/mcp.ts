import { resolve } from "node:path";
import { addMcpServer, DEFAULT_NATIVE_PLUGIN_NAMES, importMcpServers, readImportFile, removeMcpServer, setMcpServerEnabled } from "../../mcp/config/index.js";
import { entryFromKnownServer, findKnownServer, KNOWN_SERVERS } from "../../mcp/known-servers.js";
import type { McpService } from "../../mcp/service/index.js";
import { parseCommandArgs, requirePositional, UsageError } from "../args.js";
import type { Command, CommandContext } from "../command.js";
import { ExitCode, type ExitCodeValue } from "../exit-codes.js";
import { writeJson, writeLine } from "../io.js";
import { confirm } from "../prompt.js";
import { maskedEntry, renderCatalog, renderServerList } from "../render/mcp.js";
import { Spinner } from "../spinner.js";

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
      case "import": {
        const file = resolve(context.io.cwd, requirePositional("mcp", positionals, 1, "a file to import"));
        const report = await readImportFile(file, MCP_STORE);
        const merged = await importMcpServers(configFile, report, { ...MCP_STORE, overwrite: values.overwrite === true });
        await host.reload();
        if (context.json) writeJson(context.io.stdout, { format: report.format, ...merged, renames: report.renames, skipped: report.skipped, warnings: report.warnings });
        else {
          const out = context.io.stdout;
          writeLine(out, `Imported from ${file} (${report.format} format):`);
          writeLine(out, `  added: ${merged.added.join(", ") || "none"}; overwritten: ${merged.overwritten.join(", ") || "none"}; unchanged: ${merged.unchanged.join(", ") || "none"}`);
          for (const r of report.renames) writeLine(out, `  renamed ${r.from} -> ${r.to} (${r.reason})`);
          for (const c of merged.conflicts) writeLine(context.io.stderr, context.colours.yellow(`  conflict ${c.name}: ${c.reason}`));
          for (const s of report.skipped) writeLine(context.io.stderr, context.colours.yellow(`  skipped ${s.name}: ${s.reason}`));
          for (const w of report.warnings) writeLine(context.io.stderr, context.colours.dim(`  note ${w.name || "(file)"}: ${w.message}`));
          if (merged.added.length + merged.overwritten.length > 0) writeLine(out, "Imported servers start only after `mcpvm mcp approve <name>`.");
        }
        return merged.conflicts.length > 0 ? ExitCode.Config : ExitCode.Ok;
      }
      default:
        throw new UsageError("USAGE", `mcp: unknown command "${sub}". See \`mcpvm mcp --help\`.`);
    }
  },
};

async function info(service: McpService, name: string, context: CommandContext): Promise<ExitCodeValue> {
  const entry = service.entry(name);
  const approval = await service.approvalStatus(name);
  const out = context.io.stdout;
  if (approval.state !== "approved" || !entry.enabled) {
    const why = !entry.enabled ? "disabled" : approval.state === "changed" ? "changed since approval" : "not approved";
    if (context.json) writeJson(out, { name, definition: maskedEntry(entry), approval: approval.state, enabled: entry.enabled });
    else {
      writeLine(out, await service.approvalPrompt(name));
      writeLine(out, "");
      writeLine(out, context.colours.yellow(`${name} is ${why}, so it was not started and its tools are not listed.`));
    }
    return ExitCode.Ok;
  }
  const catalog = await connecting(context, name, () => service.catalog(name));
  if (context.json) {
    writeJson(out, {
      name,
      definition: maskedEntry(entry),
      approval: approval.state,
      module: catalog.module,
      tools: catalog.metadata().tools,
      held: catalog.held,
      dropped: catalog.dropped,
      hiddenByFilters: catalog.hiddenByFilters,
      unmatchedFilters: catalog.unmatchedFilters,
    });
  } else {
    writeLine(out, `${context.colours.bold(name)} (${entry.type}) — ${context.colours.green("approved")}`);
    writeLine(out, JSON.stringify(maskedEntry(entry), null, 2));
    writeLine(out, renderCatalog(catalog, context.colours));
  }
  return ExitCode.Ok;
}

async function approve(service: McpService, name: string, toolsOnly: boolean, context: CommandContext): Promise<ExitCodeValue> {
  const err = context.io.stderr;
  if (!toolsOnly) {
    const status = await service.approvalStatus(name);
    if (status.state !== "approved") {
      writeLine(err, await service.approvalPrompt(name));
      if (!(await confirm(context, `Approve MCP server "${name}"?`))) {
        writeLine(err, context.interactive ? "Not approved." : "Not approved: no terminal to ask on. Rerun with --yes to approve unattended.");
        return ExitCode.ApprovalRequired;
      }
      await service.approve(name);
      writeLine(context.io.stdout, `${context.colours.green("approved")} ${name}`);
    } else {
      writeLine(context.io.stdout, `${name} is already approved`);
    }
  }
  // First connection: list and audit the tools; anything held must be confirmed here.
  const catalog = await connecting(context, name, () => service.catalog(name));
  if (catalog.held.length === 0) {
    writeLine(context.io.stdout, `${catalog.tools.length} tool(s) available as host:${catalog.module}; nothing held.`);
    return ExitCode.Ok;
  }
  writeLine(err, renderCatalog(catalog, context.colours));
  if (!(await confirm(context, `Accept the ${catalog.held.length} held tool(s) shown above, findings and changes included?`))) {
    writeLine(err, "Held tools stay hidden from guest code and the model.");
    return ExitCode.ApprovalRequired;
  }
  const { accepted, changedSinceReview, notListed } = await service.acceptTools(name, catalog.held);
  if (accepted.length > 0) writeLine(context.io.stdout, `accepted ${accepted.join(", ")}`);
  if (notListed.length > 0) writeLine(err, context.colours.yellow(`not accepted, no longer listed under that name (or its name holds a secret): ${notListed.join(", ")}`));
  if (changedSinceReview.length > 0) {
    writeLine(err, context.colours.yellow(`not accepted, changed again since shown: ${changedSinceReview.join(", ")}; review them with \`mcpvm mcp approve ${name} --tools\``));
    return ExitCode.ApprovalRequired;
  }
  return ExitCode.Ok;
}

async function connecting<T>(context: CommandContext, name: string, work: () => Promise<T>): Promise<T> {
  const spinner = new Spinner(context.io.stderr);
  spinner.start(`starting MCP server ${name}…`);
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}

function buildEntry(name: string, values: Readonly<Record<string, unknown>>, command: readonly string[], context: CommandContext): Record<string, unknown> {
  const pairs = (list: unknown, flag: string, separator: string) =>
    Object.fromEntries(
      ((list as string[] | undefined) ?? []).map((pair) => {
        const at = pair.indexOf(separator);
        if (at <= 0) throw new UsageError("USAGE", `mcp add: ${flag} takes NAME${separator}VALUE (got "${pair}")`);
        return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      }),
    );
  const description = typeof values.description === "string" ? { description: values.description } : {};
  if (values.stdio === true) {
    if (command.length === 0) throw new UsageError("USAGE", "mcp add --stdio: give the command after --, e.g. `mcpvm mcp add my-server --stdio -- npx -y my-mcp-server`");
    const env = pairs(values.env, "--env", "=");
    return { type: "stdio", command: command[0], args: command.slice(1), ...(Object.keys(env).length === 0 ? {} : { env }), ...description };
  }
  const url = typeof values.http === "string" ? values.http : typeof values.sse === "string" ? values.sse : undefined;
  if (url !== undefined) {
    const headers = pairs(values.header, "--header", "=");
    return { type: typeof values.http === "string" ? "http" : "sse", url, ...(Object.keys(headers).length === 0 ? {} : { headers }), ...description };
  }
  const known = findKnownServer(name);
  if (known === undefined) {
    throw new UsageError("USAGE", `mcp add: "${name}" is not in the catalog (${KNOWN_SERVERS.map((s) => s.name).join(", ")}); add any other server with --stdio -- <command> or --http <url>.`);
  }
  const dir = resolve(context.io.cwd, typeof values.dir === "string" ? values.dir : ".");
  const entry = entryFromKnownServer(known, { "{dir}": dir });
  if (known.requiredEnv.length > 0) writeLine(context.io.stderr, `${name} reads ${known.requiredEnv.map((v) => `\${${v}}`).join(", ")} from your environment when it starts.`);
  if (known.notes !== undefined) writeLine(context.io.stderr, known.notes);
  return { ...entry, ...description };
}
