import { readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { updateConfigFile } from "../../config/config-file.js";
import { McpvmHost } from "../../host/index.js";
import { packageRoot } from "../../util/package-root.js";
import { parseCommandArgs } from "../../terminal/args.js";
import type { Command } from "../../terminal/command.js";
import { ExitCode } from "../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../terminal/io.js";
import { formatLogs, formatRunError, formatStats, formatValue } from "../../terminal/render/run-result.js";
import { Spinner } from "../../terminal/spinner.js";
import { embeddedDemoServers } from "../demo/embedded-config.js";

const USAGE = `Usage: mcpvm demo [--home <dir>] [--script <file>] [--json]

Runs the tour (examples/tour.js) against two real MCP servers from npm (server-everything and
server-memory) in a throw-away config home, so your own ~/.mcpvm is never touched.

The demo approves its own built-in definitions (shown below as they are approved): they ship with
mcpvm. Servers you add yourself are only approved by you (\`mcpvm mcp approve <name>\`).`;

export const demoCommand: Command = {
  name: "demo",
  summary: "The 60-second tour: guest code calling real MCP servers from npm (no keys needed)",
  usage: USAGE,
  async run(args, context) {
    const { values } = parseCommandArgs("demo", args, { home: { type: "string" }, script: { type: "string" } }, 0);
    const home = resolve(context.io.cwd, typeof values.home === "string" ? values.home : join(tmpdir(), `mcpvm-demo-${process.getuid?.() ?? "user"}`));
    const script = resolve(context.io.cwd, typeof values.script === "string" ? values.script : join(packageRoot(), "examples", "tour.js"));
    const err = context.io.stderr;
    const { bold, dim, green } = context.colours;
    await rm(join(home, "demo-memory.jsonl"), { force: true });
    const env = { ...context.io.env, MCPVM_HOME: home };
    const versions = await devDependencyVersions();
    await updateConfigFile(join(home, "config.json"), (config) => {
      config.mcpServers = { ...embeddedDemoServers(home, versions) };
      config.plugins = { ...config.plugins, mcp: { ...config.plugins?.mcp, enabled: true } };
    });
    const host = await McpvmHost.open({ env });
    try {
      writeLine(err, bold(`mcpvm demo — config home ${home}`));
      const { engine, selection } = await host.engine();
      writeLine(err, `${dim("engine:")} ${engine.kind} ${dim(`(${selection.reason})`)}`);
      await host.plugins.approve("mcp");
      await host.plugins.enable("mcp");
      await host.reload();
      const mcp = await host.requireMcp();
      for (const name of mcp.enabledServers()) {
        if ((await mcp.approvalStatus(name)).state !== "approved") {
          writeLine(err, dim(await mcp.approvalPrompt(name)));
          await mcp.approve(name);
          writeLine(err, `${green("approved")} ${name} (built-in demo definition)\n`);
        }
      }
      writeLine(err, `${dim("running")} ${script}`);
      const spinner = new Spinner(err);
      spinner.start("starting MCP servers on first use…");
      const code = await readFile(script, "utf8");
      const result = await host.run(code, { filename: script });
      spinner.stop();
      if (context.json) {
        writeJson(context.io.stdout, result.ok ? { ok: true, result: result.value, logs: result.logs, stats: result.stats } : { ok: false, error: result.error, logs: result.logs, stats: result.stats });
      } else {
        for (const line of formatLogs(result, context.colours)) writeLine(err, line);
        if (result.ok) writeLine(context.io.stdout, formatValue(result.value));
        else writeLine(err, formatRunError(result, context.colours));
        writeLine(err, dim(formatStats(result)));
        const status = (await mcp.summaries()).map((s) => `${s.name}: ${s.state}`).join(", ");
        writeLine(err, dim(`servers: ${status}`));
        if (result.ok) writeLine(err, `\nNext: \`mcpvm --help\`, docs/MCP.md for your own servers, docs/USAGE.md for the agent REPL.`);
      }
      return result.ok ? ExitCode.Ok : ExitCode.GuestError;
    } finally {
      await host.close();
    }
  },
};

/** Pin npx fallbacks to the versions this checkout was tested with. */
async function devDependencyVersions(): Promise<Record<string, string>> {
  const pkg = JSON.parse(await readFile(join(packageRoot(), "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
  return Object.fromEntries(Object.entries(pkg.devDependencies ?? {}).map(([name, range]) => [name, range.replace(/^[\^~]/, "")]));
}
