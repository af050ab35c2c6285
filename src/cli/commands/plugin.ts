import { COMMAND_SUMMARIES } from "./summaries.js";
import type { AuditReport, PluginInfo, PluginStatus } from "../../plugin-system/index.js";
import type { McpvmHost } from "../../host/index.js";
import { parseCommandArgs, requirePositional, usageError } from "../../terminal/args.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { ExitCode, type ExitCodeValue } from "../../terminal/exit-codes.js";
import { isMcpvmError, McpvmError } from "../../util/errors.js";
import { didYouMean } from "../../util/suggest.js";
import { formatTable, writeJson, writeLine } from "../../terminal/io.js";
import { commandHint, noTerminalHint, sentence } from "../../terminal/hints.js";
import { confirm } from "../../terminal/prompt.js";
// Manifests, file names and audit messages come from the plugin's author: shown through display.ts.
import { displayBlock, displayInline } from "../../terminal/display.js";
import { counted } from "../../util/counted.js";

const USAGE = `Usage: mcpvm plugin <command> [name] [options]

Plugins add host modules to the sandbox. Each goes discovered -> audited -> approved -> enabled.

Commands:
  list                 every plugin with its state, approval and audit risk
  info <name>          manifest, modules, capabilities, config and approval
  audit <name>         the static audit's findings (file, line, rule, risk)
  approve <name>       approve the plugin's current code (asks first, unless started with --yes)
  revoke <name>        withdraw approval (also disables)
  enable <name>        load the plugin in future runs (needs a valid approval)
  disable <name>       stop loading it
  config <name> [key=value ...] [--unset key]...
                       show or change the plugin's config (values are JSON, else strings),
                       e.g. mcpvm plugin config fs-read baseDir=/home/me/notes maxReadBytes=1048576
                            mcpvm plugin config fetch 'allowDomains=["api.github.com"]'
                            mcpvm plugin config fs-read --unset maxReadBytes

Options: --json`;

const SUBCOMMANDS: readonly string[] = ["list", "info", "audit", "approve", "revoke", "enable", "disable", "config"];

export const pluginCommand: Command = {
  name: "plugin",
  summary: COMMAND_SUMMARIES.plugin,
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  async run(args, context) {
    // The command word is checked before the options and the count: `plugin confg mcp --unset x` and
    // `plugin aprove mcp x` are typos, not "unknown option --unset" (config's own) or "unexpected argument x".
    if (args[0] !== undefined && !args[0].startsWith("-")) unknownSubcommand(args[0]);
    const { values, positionals } = parseCommandArgs("plugin", args, args[0] === "config" ? { unset: { type: "string", multiple: true } } : {});
    const sub = positionals[0] ?? "list";
    unknownSubcommand(sub);
    if (sub !== "config" && positionals.length > 2) throw usageError("plugin", `unexpected argument "${positionals[2]}"`);
    const host = await context.host();
    try {
      return await runSubcommand(sub, positionals, (values.unset as string[] | undefined) ?? [], host, context);
    } catch (error) {
      throw await withPluginSuggestion(error, host);
    }
  },
};

function unknownSubcommand(sub: string): void {
  if (!SUBCOMMANDS.includes(sub)) throw usageError("plugin", `unknown command "${sub}"${didYouMean(sub, SUBCOMMANDS)}`);
}

/** PLUGIN_NOT_FOUND with the plugin that was probably meant. */
async function withPluginSuggestion(error: unknown, host: McpvmHost): Promise<unknown> {
  if (!isMcpvmError(error) || error.code !== "PLUGIN_NOT_FOUND" || typeof error.data?.plugin !== "string") return error;
  const names = (await host.plugins.list().catch(() => ({ plugins: [] }))).plugins.map((p) => p.name);
  const hint = didYouMean(error.data.plugin, names);
  const named = `"${error.data.plugin}"`;
  const message = error.message.includes(named) ? error.message.replace(named, `${named}${hint}`) : `${error.message}${hint}`;
  return hint === "" ? error : new McpvmError("PLUGIN_NOT_FOUND", message, { data: error.data, cause: error });
}

async function runSubcommand(sub: string, positionals: readonly string[], unset: readonly string[], host: McpvmHost, context: CommandContext): Promise<ExitCodeValue> {
  const plugins = host.plugins;
  const name = () => requirePositional("plugin", positionals, 1, "a plugin name");
  switch (sub) {
    case "list": {
      const { plugins: list, errors } = await plugins.list();
      if (context.json) writeJson(context.io.stdout, { plugins: list, errors: errors.map((e) => ({ code: e.code, message: e.message })) });
      else {
        writeLine(context.io.stdout, renderList(list, context));
        for (const error of errors) writeLine(context.io.stderr, `${context.colours.yellow("warning")} [${error.code}] ${displayBlock(error.message)}`);
      }
      return ExitCode.Ok;
    }
    case "info": {
      const info = await plugins.info(name());
      if (context.json) writeJson(context.io.stdout, info);
      else writeLine(context.io.stdout, renderInfo(info, context));
      return ExitCode.Ok;
    }
    case "audit": {
      const report = await plugins.audit(name());
      if (context.json) writeJson(context.io.stdout, report);
      else writeLine(context.io.stdout, renderAudit(report, context));
      return report.blocked ? ExitCode.GuestError : ExitCode.Ok;
    }
    case "approve": {
      const target = name();
      const info = await plugins.info(target);
      if (!context.json) writeLine(context.io.stderr, `${renderModelView(info, context)}\n${renderAudit(info.audit, context)}`);
      if (!(await confirm(context, `Approve plugin "${target}" with the code shown above?`))) {
        writeLine(context.io.stderr, context.interactive ? "Not approved." : `Not approved: no terminal to ask on. ${sentence(noTerminalHint(context, `plugin approve ${target}`, "approve it unattended"))}.`);
        return ExitCode.ApprovalRequired;
      }
      const record = await plugins.approve(target, { expectedHash: info.hash });
      await host.reload();
      if (context.json) writeJson(context.io.stdout, { approved: target, record });
      else writeLine(context.io.stdout, `${context.colours.green("approved")} ${target} (hash ${record.hash.slice(0, 12)}…). Enable it with \`${commandHint(context, `plugin enable ${target}`)}\`.`);
      return ExitCode.Ok;
    }
    case "revoke": {
      const target = name();
      const revoked = await plugins.revoke(target);
      if (!revoked) await plugins.info(target); // PLUGIN_NOT_FOUND for a name that is no plugin at all
      await host.reload();
      if (context.json) writeJson(context.io.stdout, { revoked: target, changed: revoked });
      else writeLine(context.io.stdout, revoked ? `revoked ${target} (and disabled it)` : `${target} had no approval`);
      return ExitCode.Ok;
    }
    case "enable":
    case "disable": {
      const target = name();
      await (sub === "enable" ? plugins.enable(target) : plugins.disable(target));
      await host.reload();
      if (context.json) writeJson(context.io.stdout, { [sub === "enable" ? "enabled" : "disabled"]: target });
      else writeLine(context.io.stdout, `${sub}d ${target}`);
      return ExitCode.Ok;
    }
    case "config": {
      const target = name();
      const current = { ...(await plugins.info(target)).config };
      const settings = positionals.slice(2);
      if (settings.length === 0 && unset.length === 0) {
        if (context.json) writeJson(context.io.stdout, { plugin: target, config: current });
        else writeLine(context.io.stdout, JSON.stringify(current, null, 2));
        return ExitCode.Ok;
      }
      const next: Record<string, unknown> = { ...current, ...parseSettings(settings) };
      for (const key of unset) {
        if (!Object.hasOwn(next, key)) throw usageError("plugin config", `${target} has no setting "${key}" to unset${didYouMean(key, Object.keys(next))}`);
        delete next[key];
      }
      const { validated } = await plugins.setConfig(target, next).catch((error: unknown) => {
        throw withUnsetHint(error, target, context);
      });
      await host.reload();
      if (context.json) writeJson(context.io.stdout, { plugin: target, config: next, validated });
      else writeLine(context.io.stdout, `${target} config saved${validated ? "" : " (it is checked when the plugin is approved and loaded)"}:\n${JSON.stringify(next, null, 2)}`);
      return ExitCode.Ok;
    }
    default:
      throw usageError("plugin", `unknown command "${sub}"`);
  }
}

/** A config refused because of a key already stored (a typo from before) can be fixed from here. */
function withUnsetHint(error: unknown, plugin: string, context: CommandContext): unknown {
  if (!isMcpvmError(error) || error.code !== "PLUGIN_CONFIG_INVALID") return error;
  return new McpvmError(error.code, `${error.message}\nRemove a bad setting with \`${commandHint(context, `plugin config ${plugin} --unset <key>`)}\`.`, { ...(error.data === undefined ? {} : { data: { ...error.data } }), cause: error });
}

function stateText(status: PluginStatus, context: CommandContext): string {
  const { green, yellow, dim } = context.colours;
  if (status.approval === "stale") return yellow("changed since approval");
  if (status.state === "enabled") return green("enabled");
  if (status.state === "approved") return "approved";
  if (status.state === "disabled") return dim("disabled");
  return yellow("not approved");
}

function renderList(list: readonly PluginStatus[], context: CommandContext): string {
  if (list.length === 0) return "No plugins found.";
  const rows = list.map((p) => [p.name, stateText(p, context), p.highestRisk ?? "none", p.modules.join(", "), p.source]);
  return formatTable(rows, ["NAME", "STATE", "RISK", "MODULES", "SOURCE"].map((h) => context.colours.bold(h)));
}

function renderInfo(info: PluginInfo, context: CommandContext): string {
  const lines = [
    `${context.colours.bold(info.name)} ${info.version} (${info.source}) — ${displayInline(info.description)}`,
    `  state:        ${stateText(info, context)}`,
    `  modules:      ${info.modules.map((m) => `host:${m}`).join(", ") || "(none)"}`,
    `  capabilities: ${info.capabilities.join(", ") || "(none)"}`,
    `  audit:        highest risk ${info.audit.highestRisk ?? "none"}, ${counted(info.audit.findings.length, "finding")}${info.audit.blocked ? ", BLOCKED" : ""}`,
    `  config:       ${info.config === undefined ? "(none)" : JSON.stringify(info.config)}`,
    `  folder:       ${displayInline(info.dir)}`,
  ];
  if (info.approvalRecord !== undefined) lines.push(`  approved:     ${info.approvalRecord.approvedAt} by ${info.approvalRecord.approvedBy}`);
  if (info.manifest.hints.length > 0) lines.push("  hints:", ...info.manifest.hints.map((h) => `    - ${displayInline(h)}`));
  return lines.join("\n");
}

/**
 * What the model reads once the plugin is on (description, modules, hints), shown at approval:
 * an approval covers this text as much as the code, and it is the author's words to the model.
 */
function renderModelView(info: PluginInfo, context: CommandContext): string {
  const lines = [
    `${context.colours.bold(info.name)} ${info.version} (${info.source}) — ${displayInline(info.description)}`,
    `  modules:      ${info.modules.map((m) => `host:${m}`).join(", ") || "(none)"}`,
    `  capabilities: ${info.capabilities.join(", ") || "(none)"}`,
  ];
  if (info.manifest.hints.length > 0) lines.push("  hints for the model:", ...info.manifest.hints.map((h) => `    - ${displayInline(h)}`));
  return lines.join("\n");
}

export function renderAudit(report: AuditReport, context: CommandContext): string {
  const { red, yellow, dim, bold } = context.colours;
  const packages = report.files.filter((file) => file.path.startsWith("node_modules/")).length;
  const pinned = packages > 0 ? ` (+ ${counted(packages, "package file")} in node_modules, pinned, not read)` : "";
  const head = `${bold(`Audit of ${report.plugin}`)}: ${counted(report.files.length - packages, "file")}${pinned}, highest risk ${report.highestRisk ?? "none"}${report.blocked ? red(" — BLOCKED, cannot be approved") : ""}`;
  const colour = (risk: string) => (risk === "critical" || risk === "high" ? red(risk) : risk === "medium" ? yellow(risk) : dim(risk));
  const rows = report.findings.map((f) => `  ${colour(f.risk).padEnd(8)} ${f.rule} ${dim(`${displayInline(f.file)}:${f.line}:${f.column}`)}${f.declared ? dim(" (declared)") : ""}\n      ${displayInline(f.message)}`);
  const undeclared = report.undeclaredCapabilities.length > 0 ? [yellow(`  undeclared capabilities: ${report.undeclaredCapabilities.join(", ")}`)] : [];
  return [head, ...undeclared, ...rows].join("\n");
}

/** key=value pairs; a value that parses as JSON is taken as JSON (numbers, arrays), else as a string. */
function parseSettings(pairs: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw usageError("plugin config", `settings are key=value (got "${pair}")`);
    const key = pair.slice(0, at);
    if (key === "__proto__" || key === "constructor" || key === "prototype") throw usageError("plugin config", `"${key}" is not a setting`);
    const text = pair.slice(at + 1);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      value = text;
    }
    out[key] = value;
  }
  return out;
}
