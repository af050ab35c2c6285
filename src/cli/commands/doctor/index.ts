import { COMMAND_SUMMARIES } from "../summaries.js";
import { resolveConfigPaths } from "../../../config/paths.js";
import { checkPluginLoads, connectCheck, diagnoseHome, type ConnectResult, type Problem } from "../../../host/diagnose/index.js";
import { PluginManager } from "../../../plugin-system/index.js";
import { connectProblems } from "../../../host/diagnose/connect-check.js";
import type { EngineChoice } from "../../../sandbox/types.js";
import { parseCommandArgs } from "../../../terminal/args.js";
import type { Command, CommandContext } from "../../../terminal/command.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { Spinner } from "../../../terminal/spinner.js";
import { renderDoctor } from "./render.js";
import { doctorExitCode, engineReport, gatewayProblems, limitsReport, llmReport, type DoctorReport } from "./report.js";
import { counted } from "../../../util/counted.js";

const USAGE = `Usage: mcpvm doctor [--connect] [--json]

Checks what can break, without changing anything: config.json (a typo in mcpServers included),
the approvals, pins and toolsets files (a toolset naming a server no longer configured), the mcp
plugin, every enabled plugin (loaded as a run would, then unloaded), every server's approval, its command on
PATH (npx, uvx, docker, …), unset \${VAR}s and \${input:…} prompts, the last recorded start of
each server, the sandbox engine (and why Hyperlight is not used), the gateway section, and the
LLM configuration.
Each problem says what to run next.

  --connect   also start every approved, enabled server once (spawn, initialize, tools/list)
              and report ✓ or ✗ with its error
  --json      the whole report, with "problems": [{severity, kind, subject, message, next, code}]

Exit codes: 0 nothing broken (warnings allowed) · 3 a config or state file problem · 5 approval
needed (a server or the mcp plugin) · 6 something unavailable (a command not found, a failed
start). When several are found, the first in that order wins.`;

/** Servers worth starting: enabled, approved, and without a problem that makes the start fail anyway. */
function connectable(report: Pick<DoctorReport, "servers" | "problems">): string[] {
  const blocked = new Set(report.problems.filter((p) => p.severity === "error").map((p) => p.subject));
  return report.servers.filter((s) => s.enabled && s.approval === "approved" && !blocked.has(`server ${s.name}`)).map((s) => s.name);
}

async function runConnectCheck(context: CommandContext, names: readonly string[]): Promise<ConnectResult[]> {
  if (names.length === 0) return [];
  const host = await context.host();
  const service = await host.requireMcp();
  const spinner = new Spinner(context.io.stderr);
  const pending = new Set<string>();
  const show = () => spinner.update(`starting ${[...pending].join(", ")}…`);
  spinner.start(`starting ${counted(names.length, "server")}…`);
  try {
    return await connectCheck(service, names, {
      onStart: (name) => {
        pending.add(name);
        show();
      },
      onDone: (result) => {
        pending.delete(result.name);
        show();
      },
    });
  } finally {
    spinner.stop();
  }
}

export const doctorCommand: Command = {
  name: "doctor",
  summary: COMMAND_SUMMARIES.doctor,
  usage: USAGE,
  async run(args, context) {
    const { values } = parseCommandArgs("doctor", args, { connect: { type: "boolean" } }, 0);
    const env = context.io.env;
    const paths = resolveConfigPaths(env);
    const diagnosis = await diagnoseHome({ paths, env });
    const problems: Problem[] = [...diagnosis.problems];
    const loads = diagnosis.config === undefined ? undefined : await checkPluginLoads(new PluginManager({ paths, env }));
    problems.push(...(loads?.problems ?? []));
    const choice: EngineChoice = context.engine ?? diagnosis.config?.engine ?? "auto";
    const engine = await engineReport(choice);
    if (engine.error !== undefined) problems.push({ severity: "error", kind: "unavailable", subject: "engine", message: engine.error, next: "use --engine quickjs, or set \"engine\": \"quickjs\" in config.json", code: undefined });
    const limits = limitsReport(diagnosis.config, problems);
    gatewayProblems(diagnosis.config, problems);
    const llm = llmReport(diagnosis.config, env, paths.configFile, problems);
    let connects: ConnectResult[] = [];
    if (values.connect === true && diagnosis.mcp.state === "on") {
      connects = await runConnectCheck(context, connectable(diagnosis));
      problems.push(...connectProblems(connects));
    }
    const sorted = [...problems.filter((p) => p.severity === "error"), ...problems.filter((p) => p.severity === "warning")];
    const exitCode = doctorExitCode(sorted);
    const report: DoctorReport = {
      ok: exitCode === 0,
      exitCode,
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      engine,
      paths,
      limits,
      plugins: diagnosis.plugins.map((p) => {
        const loadError = loads?.loadErrors.get(p.name);
        return { name: p.name, state: p.state, approval: p.approval, ...(loadError === undefined ? {} : { loadError }) };
      }),
      mcp: diagnosis.mcp,
      configuredServers: Object.keys(diagnosis.config?.mcpServers ?? {}).length,
      servers: diagnosis.servers.map((server) => {
        const connect = connects.find((c) => c.name === server.name);
        return connect === undefined ? server : { ...server, connect };
      }),
      llm,
      problems: sorted,
    };
    if (context.json) writeJson(context.io.stdout, report);
    else writeLine(context.io.stdout, renderDoctor(report, context.colours));
    return exitCode;
  },
};
