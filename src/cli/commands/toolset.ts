import { COMMAND_SUMMARIES } from "./summaries.js";
import { loadConfigFile } from "../../config/config-file.js";
import { resolveConfigPaths } from "../../config/paths.js";
// The parts themselves, not gateway/index.js, which loads the HTTP server and the MCP server SDK.
import { ToolDirectory } from "../../gateway/directory.js";
import { parseToolRef } from "../../gateway/flatten.js";
import { sanitizeToolName } from "../../mcp/sanitise/names.js";
import { configHomeNames } from "../completion/names.js";
import { resolveToolRefs, type MissingTool } from "../../gateway/equipment.js";
import { ToolsetStore, type NamedToolset } from "../../gateway/toolsets/store.js";
import { parseCommandArgs, requirePositional, unknownCommandWord, usageError } from "../../terminal/args.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { ExitCode, type ExitCodeValue } from "../../terminal/exit-codes.js";
import { isMcpvmError, McpvmError } from "../../util/errors.js";
import { didYouMean } from "../../util/suggest.js";
import { formatTable, writeJson, writeLine } from "../../terminal/io.js";

const USAGE = `Usage: mcpvm toolset <subcommand>

Toolsets are named lists of MCP tools ("server.tool") that \`mcpvm serve\` can expose directly to
an MCP client under flattened names (git.status -> git_status). They live in <config home>/toolsets.json.

  list                                       saved toolsets
  show <name> [--check]                      one toolset; --check resolves every tool (starts approved servers)
  build <name> <server.tool>... [--description <text>] [--check]
                                             create or replace a toolset (a tool the server's approved
                                             tools lack is warned about; --check starts the servers)
  delete <name>                              delete a toolset

Equip one when serving: \`mcpvm serve --toolset <name>\`, or from the client with equip-toolset.`;

const SUBCOMMANDS = ["list", "show", "build", "delete"] as const;

function store(context: CommandContext): ToolsetStore {
  return new ToolsetStore(resolveConfigPaths(context.io.env).toolsetsFile);
}

/** Resolves references against the approved servers; unapproved ones are reported, never started. */
async function check(context: CommandContext, tools: readonly string[]): Promise<MissingTool[]> {
  const host = await context.host();
  const service = await host.requireMcp();
  return (await resolveToolRefs(new ToolDirectory(service, host.logger), tools, {})).missing;
}

/**
 * Every `server.tool` must name a configured server, checked from config.json alone (nothing
 * starts), so a typo is refused before anything is saved.
 */
async function refuseUnknownServers(context: CommandContext, tools: readonly string[]): Promise<void> {
  const config = await loadConfigFile(resolveConfigPaths(context.io.env).configFile);
  const configured = Object.keys(config.mcpServers ?? {});
  for (const ref of tools) {
    const dot = ref.indexOf(".");
    // Malformed references are the store's to refuse (its GATEWAY_TOOLSET_INVALID names the rule; build makes it a usage error).
    if (dot <= 0) continue;
    const server = ref.slice(0, dot);
    if (!configured.includes(server)) {
      throw usageError(
        "toolset build",
        `"${ref}": no MCP server named "${server}" is configured${didYouMean(server, configured)} (configured: ${configured.join(", ") || "none"}). Nothing was saved.`,
      );
    }
  }
}

/**
 * A tool that the server's pins (its approved tools, read from the file: nothing starts) lack is
 * most likely a typo: said on stderr with the closest name. It is saved all the same, as a build
 * without --check resolves nothing (the server may have gained the tool since); a server that never
 * connected has no pins and is not judged.
 */
function warnUnpinnedTools(context: CommandContext, tools: readonly string[]): void {
  const names = configHomeNames(resolveConfigPaths(context.io.env), () => "");
  for (const text of tools) {
    const ref = parseToolRef(text);
    if (ref === undefined) continue;
    const pinned = names.tools(ref.server);
    if (pinned.length === 0 || pinned.some((tool) => tool === ref.tool || sanitizeToolName(tool) === ref.tool)) continue;
    writeLine(
      context.io.stderr,
      `mcpvm: warning: ${text}: ${ref.server} has no approved tool "${ref.tool}"${didYouMean(ref.tool, pinned)} (saved anyway; \`--check\` resolves it against the running server).`,
    );
  }
}

function printToolset(context: CommandContext, toolset: NamedToolset, missing: readonly MissingTool[] | undefined): void {
  const out = context.io.stdout;
  const { bold, yellow, dim } = context.colours;
  writeLine(out, `${bold(toolset.name)}${toolset.description === undefined ? "" : ` — ${toolset.description}`}`);
  for (const ref of toolset.tools) {
    const problem = missing?.find((m) => m.ref === ref);
    writeLine(out, `  ${ref}${problem === undefined ? "" : `  ${yellow(`missing: ${problem.reason}`)}`}`);
  }
  writeLine(out, dim(`  updated ${toolset.updatedAt}`));
  // After --check, a clean result is said too: the listing alone looks the same as without --check.
  if (missing !== undefined && missing.length === 0) writeLine(out, `  checked: every tool resolves (${toolset.tools.length} of ${toolset.tools.length})`);
}

export const toolsetCommand: Command = {
  name: "toolset",
  summary: COMMAND_SUMMARIES.toolset,
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  async run(args, context) {
    try {
      return await runSubcommand(args, context);
    } catch (error) {
      throw await inCliTerms(error, context);
    }
  },
};

/** An unknown toolset, told to a CLI user (not "use build-toolset", a gateway tool) with a did-you-mean. */
async function inCliTerms(error: unknown, context: CommandContext): Promise<unknown> {
  if (!isMcpvmError(error) || error.code !== "GATEWAY_TOOLSET_UNKNOWN" || typeof error.data?.toolset !== "string") return error;
  const wanted = error.data.toolset;
  const names = (await store(context).list().catch(() => [])).map((t) => t.name);
  const listed = names.length === 0 ? "there are none yet" : `saved: ${names.join(", ")}`;
  return new McpvmError("GATEWAY_TOOLSET_UNKNOWN", `no toolset named "${wanted}"${didYouMean(wanted, names)} (${listed}). Create one with \`mcpvm toolset build ${wanted} <server.tool>...\`.`, {
    data: error.data,
    cause: error,
  });
}

async function runSubcommand(args: readonly string[], context: CommandContext): Promise<ExitCodeValue> {
  const [sub, ...rest] = args;
  switch (sub) {
    case "list": {
      parseCommandArgs("toolset list", rest, {}, 0);
      const toolsets = await store(context).list();
      if (context.json) writeJson(context.io.stdout, { toolsets });
      else if (toolsets.length === 0) writeLine(context.io.stdout, "No toolsets yet. Create one with `mcpvm toolset build <name> <server.tool>...`.");
      else writeLine(context.io.stdout, formatTable(toolsets.map((t) => [t.name, String(t.tools.length), t.description ?? ""]), ["NAME", "TOOLS", "DESCRIPTION"]));
      return ExitCode.Ok;
    }
    case "show": {
      const { values, positionals } = parseCommandArgs("toolset show", rest, { check: { type: "boolean" } }, 1);
      const toolset = await store(context).get(requirePositional("toolset show", positionals, 0, "the toolset name"));
      const missing = values.check === true ? await check(context, toolset.tools) : undefined;
      if (context.json) writeJson(context.io.stdout, { toolset, ...(missing === undefined ? {} : { missing }) });
      else printToolset(context, toolset, missing);
      return missing !== undefined && missing.length > 0 ? ExitCode.Unavailable : ExitCode.Ok;
    }
    case "build": {
      const { values, positionals } = parseCommandArgs("toolset build", rest, { description: { type: "string" }, check: { type: "boolean" } });
      const name = requirePositional("toolset build", positionals, 0, "the toolset name");
      const tools = positionals.slice(1);
      if (tools.length === 0) throw usageError("toolset build", "name at least one tool as server.tool");
      await refuseUnknownServers(context, tools);
      // --check resolves before saving: a toolset that fails its check is not saved.
      const missing = values.check === true ? await check(context, tools) : undefined;
      if (missing !== undefined && missing.length > 0) {
        if (context.json) writeJson(context.io.stdout, { saved: null, missing });
        else {
          writeLine(context.io.stderr, `Not saved: ${missing.length} of the tools cannot be resolved.`);
          for (const problem of missing) writeLine(context.io.stderr, `  ${problem.ref}  ${context.colours.yellow(`missing: ${problem.reason}`)}`);
          writeLine(context.io.stderr, "Fix the names (or approve the servers), or build without --check to save it anyway.");
        }
        return ExitCode.Unavailable;
      }
      const saved = await store(context)
        .save({ name, tools, ...(typeof values.description === "string" ? { description: values.description } : {}) })
        .catch((error: unknown) => {
          // Everything save() validates was typed on this command line: a usage error (2), not a broken file (3).
          if (isMcpvmError(error) && error.code === "GATEWAY_TOOLSET_INVALID") throw usageError("toolset build", `${error.message}\nNothing was saved.`);
          throw error;
        });
      if (missing === undefined) warnUnpinnedTools(context, saved.tools);
      if (context.json) writeJson(context.io.stdout, { saved, ...(missing === undefined ? {} : { missing }) });
      else {
        writeLine(context.io.stdout, `Saved toolset ${saved.name} (${saved.tools.length} tools).`);
        if (missing !== undefined) printToolset(context, saved, missing);
      }
      return ExitCode.Ok;
    }
    case "delete": {
      const { positionals } = parseCommandArgs("toolset delete", rest, {}, 1);
      const name = requirePositional("toolset delete", positionals, 0, "the toolset name");
      await store(context).delete(name);
      if (context.json) writeJson(context.io.stdout, { deleted: name });
      else writeLine(context.io.stdout, `Deleted toolset ${name}.`);
      return ExitCode.Ok;
    }
    default:
      throw usageError("toolset", unknownCommandWord("subcommand", sub, SUBCOMMANDS));
  }
}
