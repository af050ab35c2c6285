import { COMMAND_SUMMARIES } from "./summaries.js";
import { activeProfiles, applyProfiles, availableProfiles, type ApplyReport, type NamedProfile } from "../../agent/profiles/index.js";
import type { McpvmHost } from "../../host/index.js";
import { parseCommandArgs, usageError } from "../../terminal/args.js";
import { McpvmError } from "../../util/errors.js";
import { didYouMean } from "../../util/suggest.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { ExitCode } from "../../terminal/exit-codes.js";
import { formatTable, writeJson, writeLine } from "../../terminal/io.js";
// Descriptions, plugin names and applied names are hand-written in config.json: shown through display.ts.
import { displayBlock, displayInline } from "../../terminal/display.js";

const USAGE = `Usage: mcpvm profile <command> [names...]

A profile is a named preset of sandbox limits, enabled plugins and enabled MCP servers (with
optional env overrides per server). Built-in: default, strict, long-running; define your own under
"profiles" in config.json (see docs/PROFILES.md).

Commands:
  list                 every profile, where it comes from, and whether it is applied
  show [name]          one profile's definition, or (no name) what is applied now
  apply <name>...      apply one or more profiles, stacked: union of servers and plugins,
                       the strictest of each limit unless a profile says limitsMode "override"

Options: --json`;

const SUBCOMMANDS: readonly string[] = ["list", "show", "apply"];

/** PROFILE_UNKNOWN with a did-you-mean; a usage error (exit 2) like every unknown name. */
function unknownProfile(name: string, available: readonly NamedProfile[]): McpvmError {
  const names = available.map((p) => p.name);
  return new McpvmError("PROFILE_UNKNOWN", `no profile named "${name}"${didYouMean(name, names)} (available: ${names.join(", ")}). Define your own under "profiles" in config.json.`, {
    data: { profile: name },
  });
}

function maskEnv(profile: NamedProfile["profile"]): Record<string, unknown> {
  if (profile.env === undefined) return profile;
  return { ...profile, env: Object.fromEntries(Object.entries(profile.env).map(([server, vars]) => [server, Object.fromEntries(Object.keys(vars).map((k) => [k, "****"]))])) };
}

/**
 * Applied names (config.json activeProfiles) whose profile no longer exists: deleted from "profiles"
 * after it was applied. Its settings stay as they were written; only the name is stale.
 */
function missingApplied(active: readonly string[], available: readonly NamedProfile[]): string[] {
  return active.filter((name) => !available.some((p) => p.name === name));
}

function missingNote(missing: readonly string[], active: readonly string[], available: readonly NamedProfile[], configFile: string): string {
  const kept = active.filter((name) => !missing.includes(name));
  const reapply = kept.length > 0 ? `\`mcpvm profile apply ${kept.join(" ")}\`` : `\`mcpvm profile apply <name>\` (\`mcpvm profile list\` shows them)`;
  const names = missing.map((name) => `"${name}"`).join(", ");
  return `applied profile ${names} no longer exists in ${configFile}${missing.length === 1 ? didYouMean(missing[0] ?? "", available.map((p) => p.name)) : ""}: the settings it applied are still in effect; run ${reapply} to re-apply what you want, or define it again under "profiles"`;
}

async function needingApproval(host: McpvmHost): Promise<string[]> {
  const service = await host.mcpIfOn().catch(() => undefined);
  if (service === undefined) return [];
  const states = await Promise.all(service.enabledServers().map(async (name) => ({ name, state: (await service.approvalStatus(name).catch(() => undefined))?.state })));
  return states.filter((s) => s.state !== "approved").map((s) => s.name);
}

function renderApply(report: ApplyReport, pending: readonly string[], context: CommandContext): void {
  const out = context.io.stdout;
  const { green, yellow } = context.colours;
  const l = report.limits;
  writeLine(out, `${green("applied")} ${report.active.join(" + ")}`);
  writeLine(out, `  limits:      cpu ${l.cpuMs} ms, wall ${l.wallMs} ms, memory ${Math.round(l.memoryBytes / 1024 / 1024)} MB, output ${Math.round(l.outputBytes / 1024)} KB`);
  writeLine(out, `  MCP servers: ${report.enabledServers.join(", ") || "none"} enabled${report.disabledServers.length > 0 ? `; ${report.disabledServers.join(", ")} disabled` : ""}`);
  if (report.envOverrides.length > 0) writeLine(out, `  env overrides for: ${report.envOverrides.join(", ")}`);
  if (report.pluginsEnabled.length + report.pluginsDisabled.length > 0) writeLine(out, `  plugins:     enabled ${displayInline(report.pluginsEnabled.join(", ") || "none")}; disabled ${displayInline(report.pluginsDisabled.join(", ") || "none")}`);
  for (const r of report.pluginsRefused) writeLine(context.io.stderr, yellow(`  plugin ${displayInline(r.plugin)} not enabled [${r.code}]: ${displayBlock(r.message)}`));
  for (const name of pending) writeLine(context.io.stderr, yellow(`  ${name} needs approval before it starts (its definition is new or changed): mcpvm mcp approve ${name}`));
  writeLine(out, "Takes effect from the next run.");
}

export const profileCommand: Command = {
  name: "profile",
  summary: COMMAND_SUMMARIES.profile,
  usage: USAGE,
  subcommands: SUBCOMMANDS,
  async run(args, context) {
    const { positionals } = parseCommandArgs("profile", args, {});
    const sub = positionals[0] ?? "list";
    if (!SUBCOMMANDS.includes(sub)) throw usageError("profile", `unknown command "${sub}"${didYouMean(sub, SUBCOMMANDS)}`);
    const host = await context.host();
    const out = context.io.stdout;
    switch (sub) {
      case "list": {
        const profiles = availableProfiles(host.config, host.paths.configFile);
        const active = activeProfiles(host.config);
        const missing = missingApplied(active, profiles);
        if (context.json) {
          writeJson(out, {
            active,
            missing,
            profiles: profiles.map((p) => ({ name: p.name, source: p.source, active: active.includes(p.name), description: p.profile.description })),
          });
        } else {
          const rows = profiles.map((p) => [p.name, p.source, active.includes(p.name) ? context.colours.green("applied") : "", displayInline(p.profile.description ?? "")]);
          for (const name of missing) rows.push([displayInline(name), "-", context.colours.yellow("applied, missing"), "deleted from config.json after it was applied"]);
          writeLine(out, formatTable(rows, ["NAME", "SOURCE", "STATE", "DESCRIPTION"].map((h) => context.colours.bold(h))));
          if (missing.length > 0) writeLine(context.io.stderr, context.colours.yellow(displayInline(missingNote(missing, active, profiles, host.paths.configFile))));
        }
        return ExitCode.Ok;
      }
      case "show": {
        const name = positionals[1];
        if (name !== undefined) {
          const available = availableProfiles(host.config, host.paths.configFile);
          const found = available.find((p) => p.name === name);
          if (found === undefined) throw unknownProfile(name, available);
          const shown = { name: found.name, source: found.source, ...maskEnv(found.profile) };
          if (context.json) writeJson(out, shown);
          else writeLine(out, displayBlock(JSON.stringify(shown, null, 2)));
          return ExitCode.Ok;
        }
        const active = activeProfiles(host.config);
        const missing = missingApplied(active, availableProfiles(host.config, host.paths.configFile));
        const servers = Object.entries(host.config.mcpServers ?? {}).filter(([, e]) => (e as { enabled?: unknown }).enabled !== false).map(([n]) => n);
        const plugins = Object.entries(host.config.plugins ?? {}).filter(([, s]) => s.enabled === true).map(([n]) => n);
        const limits = host.limits();
        if (context.json) writeJson(out, { active, missing, limits, enabledServers: servers, enabledPlugins: plugins });
        else {
          const shownActive = active.map((name) => (missing.includes(name) ? `${name} (missing)` : name));
          writeLine(out, `applied profiles: ${displayInline(shownActive.join(" + ")) || "none (config.json as written)"}`);
          writeLine(out, `limits:           cpu ${limits.cpuMs} ms, wall ${limits.wallMs} ms, memory ${Math.round(limits.memoryBytes / 1024 / 1024)} MB, output ${Math.round(limits.outputBytes / 1024)} KB`);
          writeLine(out, `MCP servers on:   ${servers.join(", ") || "none"}`);
          writeLine(out, `plugins on:       ${displayInline(plugins.join(", ")) || "none"}`);
          if (missing.length > 0) {
            const available = availableProfiles(host.config, host.paths.configFile);
            writeLine(context.io.stderr, context.colours.yellow(displayInline(missingNote(missing, active, available, host.paths.configFile))));
          }
        }
        return ExitCode.Ok;
      }
      case "apply": {
        const names = positionals.slice(1);
        if (names.length === 0) throw usageError("profile apply", "name at least one profile to apply (e.g. `mcpvm profile apply strict`; `mcpvm profile list` shows them)");
        const available = availableProfiles(host.config, host.paths.configFile);
        for (const wanted of names) if (!available.some((p) => p.name === wanted)) throw unknownProfile(wanted, available);
        const report = await applyProfiles({ configFile: host.paths.configFile, home: host.paths.home, plugins: host.plugins, reload: () => host.reload() }, names);
        const pending = report.enabledServers.length > 0 ? await needingApproval(host) : [];
        if (context.json) writeJson(out, { ...report, needsApproval: pending });
        else renderApply(report, pending, context);
        return ExitCode.Ok;
      }
      default:
        throw usageError("profile", `unknown command "${sub}"`);
    }
  },
};

