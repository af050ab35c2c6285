import { resolveModel } from "../../agent/llm/model-config.js";
import { modelConfigSchema } from "../../agent/llm/model-config.js";
import { probeHyperlight } from "../../sandbox/engines/hyperlight/index.js";
import { isMcpvmError } from "../../util/errors.js";
import { parseCommandArgs } from "../../terminal/args.js";
import type { Command } from "../../terminal/command.js";
import { ExitCode } from "../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../terminal/io.js";

const USAGE = `Usage: mcpvm doctor [--json]

Checks this machine and mcpvm's set-up: which sandbox engine runs and why, the config home and
its files, the plugins, MCP, and the LLM configuration.`;

export const doctorCommand: Command = {
  name: "doctor",
  summary: "Show the engine chosen and why, config paths, plugins, MCP and LLM status",
  usage: USAGE,
  async run(args, context) {
    parseCommandArgs("doctor", args, {}, 0);
    const host = await context.host();
    const { engine, selection } = await host.engine();
    const probe = await probeHyperlight();
    const { plugins, errors } = await host.plugins.list();
    let llm: { configured: boolean; detail: string };
    try {
      const model = resolveModel(modelConfigSchema.optional().parse(host.config.model), context.io.env);
      llm = { configured: true, detail: `${model.provider}:${model.model} at ${model.baseUrl ?? "(provider default)"}, key from ${model.apiKeySource ?? "nowhere (none needed?)"}` };
    } catch (error) {
      llm = { configured: false, detail: isMcpvmError(error) ? error.message : String(error) };
    }
    const mcp = host.config.plugins?.mcp?.enabled === true ? "enabled" : "off (mcp plugin not enabled)";
    const report = {
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      engine: { chosen: engine.kind, requested: selection.requested, reason: selection.reason, unavailable: selection.unavailable, hyperlightProbe: probe },
      paths: host.paths,
      limits: host.limits(),
      plugins: plugins.map((p) => ({ name: p.name, state: p.state, approval: p.approval })),
      pluginErrors: errors.map((e) => ({ code: e.code, message: e.message })),
      mcp,
      mcpServers: Object.keys(host.config.mcpServers ?? {}),
      llm,
    };
    if (context.json) {
      writeJson(context.io.stdout, report);
      return ExitCode.Ok;
    }
    const { bold, green, yellow } = context.colours;
    const out = context.io.stdout;
    writeLine(out, bold("mcpvm doctor"));
    writeLine(out, `  node        ${report.node} on ${report.platform}`);
    writeLine(out, `  engine      ${green(engine.kind)} (requested ${selection.requested}): ${selection.reason}`);
    for (const [kind, why] of Object.entries(selection.unavailable)) writeLine(out, `              ${kind} unavailable: ${why}`);
    writeLine(out, `  hyperlight  ${probe.ok ? green("boots") : yellow(`does not boot here: ${probe.reason}`)}`);
    writeLine(out, `  home        ${host.paths.home}`);
    writeLine(out, `  config      ${host.paths.configFile}`);
    writeLine(out, `  approvals   ${host.paths.approvedPluginsFile}, ${host.paths.approvedMcpFile}`);
    writeLine(out, `  pins        ${host.paths.pinsFile}`);
    writeLine(out, `  logs        ${host.paths.logsDir}`);
    const l = report.limits;
    writeLine(out, `  limits      cpu ${l.cpuMs} ms, wall ${l.wallMs} ms, memory ${Math.round(l.memoryBytes / 2 ** 20)} MB, output ${Math.round(l.outputBytes / 1024)} KB`);
    writeLine(out, `  plugins     ${plugins.map((p) => `${p.name} (${p.state})`).join(", ") || "none"}`);
    for (const e of errors) writeLine(out, yellow(`              [${e.code}] ${e.message}`));
    writeLine(out, `  mcp         ${mcp}; ${report.mcpServers.length} server(s) configured`);
    writeLine(out, `  llm         ${llm.configured ? green(llm.detail) : yellow(llm.detail)}`);
    return ExitCode.Ok;
  },
};
