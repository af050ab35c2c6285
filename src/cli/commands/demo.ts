import { COMMAND_SUMMARIES } from "./summaries.js";
import { rmSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join, resolve } from "node:path";
import { updateConfigFile } from "../../config/config-file.js";
import { McpvmHost } from "../../host/index.js";
import { packageRoot } from "../../util/package-root.js";
import { parseCommandArgs } from "../../terminal/args.js";
import type { Command, CommandContext } from "../../terminal/command.js";
import { ExitCode, type ExitCodeValue } from "../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../terminal/io.js";
import { formatLogs, formatRunError, formatStats, formatValue } from "../../terminal/render/run-result.js";
import { Spinner } from "../../terminal/spinner.js";
import { chooseDemoHome, DEMO_SERVER_NAMES, demoHomeInUse, markDemoHome, removeDemoHome, type DemoHome } from "../demo/demo-home.js";
import { DEMO_FLOWS, embeddedDemoServers } from "../demo/embedded-config.js";
import { askOnTerminal } from "./confirm-on-terminal.js";

const USAGE = `Usage: mcpvm demo [--home <dir>] [--keep] [--script <file>] [--json]

Runs the tour (examples/tour.js) against two real MCP servers from npm (server-everything and
server-memory) in a throw-away config home, so your own ~/.mcpvm is never touched.

The home is a fresh temporary folder, removed at the end (--keep keeps it and says where).
--home <dir> uses a new or empty folder, or one an earlier demo made; a folder holding anything
else (a real config home) is refused and left as it is (exit 3).

The demo approves its own built-in definitions (shown below as they are approved): they ship with
mcpvm. Servers you add yourself are only approved by you (\`mcpvm mcp approve <name>\`).`;

export const demoCommand: Command = {
  name: "demo",
  summary: COMMAND_SUMMARIES.demo,
  usage: USAGE,
  async run(args, context) {
    const { values } = parseCommandArgs("demo", args, { home: { type: "string" }, keep: { type: "boolean" }, script: { type: "string" } }, 0);
    const script = resolve(context.io.cwd, typeof values.script === "string" ? values.script : join(packageRoot(), "examples", "tour.js"));
    const versions = await devDependencyVersions();
    const demoHome = await chooseDemoHome(typeof values.home === "string" ? values.home : undefined, context.io.cwd, (dir) => embeddedDemoServers(dir, versions));
    // Ctrl-C, SIGTERM or SIGHUP end the CLI with process.exit once its servers are stopped
    // (src/cli/signal-guard.ts), so the finally below never runs: the temporary home goes on 'exit' too.
    const removeOnExit = () => rmSync(demoHome.dir, { recursive: true, force: true });
    if (demoHome.temporary && values.keep !== true) process.on("exit", removeOnExit);
    try {
      return await runTour(demoHome, script, versions, context);
    } finally {
      process.off("exit", removeOnExit);
      if (values.keep === true || !demoHome.temporary) {
        if (demoHome.temporary) writeLine(context.io.stderr, `The demo home is kept at ${demoHome.dir} (try: MCPVM_HOME=${demoHome.dir} npx mcpvm mcp list).`);
      } else {
        await removeDemoHome(demoHome);
      }
    }
  },
};

/** Set up the demo home, approve the built-in servers, run the tour script and print its result. */
async function runTour(demoHome: DemoHome, script: string, versions: Record<string, string>, context: CommandContext): Promise<ExitCodeValue> {
  const home = demoHome.dir;
  const err = context.io.stderr;
  const { bold, dim, green } = context.colours;
  await rm(join(home, "demo-memory.jsonl"), { force: true });
  const env = { ...context.io.env, MCPVM_HOME: home };
  await updateConfigFile(join(home, "config.json"), (config) => {
    // Checked again inside the lock: a server someone added since the check is never replaced.
    const foreign = Object.keys(config.mcpServers ?? {}).filter((name) => !DEMO_SERVER_NAMES.includes(name));
    if (foreign.length > 0) throw demoHomeInUse(home, `${foreign.length === 1 ? "an MCP server" : "MCP servers"} the demo did not add (${foreign.join(", ")})`);
    config.mcpServers = { ...embeddedDemoServers(home, versions) };
    // The tour stores forecasts from "everything" in "memory": a flow between two servers, allowed by name.
    config.flows = DEMO_FLOWS;
    config.plugins = { ...config.plugins, mcp: { ...config.plugins?.mcp, enabled: true } };
  });
  await markDemoHome(home);
  const host = await McpvmHost.open({ env, face: "demo" });
  try {
    writeLine(err, bold(`mcpvm demo — config home ${home}`) + (demoHome.temporary ? dim(" (temporary)") : ""));
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
    // Calls are confirmed as in `mcpvm run`: the tour needs no terminal because its only writes go to
    // memory, whose built-in definition says `confirm: "never"` (shown in the approval text above).
    host.setConfirmCall(askOnTerminal(context));
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
      if (result.ok) writeLine(err, `\nNext: \`npx mcpvm --help\`, docs/MCP.md for your own servers, docs/USAGE.md for the agent REPL.`);
    }
    return result.ok ? ExitCode.Ok : ExitCode.GuestError;
  } finally {
    await host.close();
  }
}

/** Pin npx fallbacks to the versions this checkout was tested with. */
async function devDependencyVersions(): Promise<Record<string, string>> {
  const pkg = JSON.parse(await readFile(join(packageRoot(), "package.json"), "utf8")) as { devDependencies?: Record<string, string> };
  return Object.fromEntries(Object.entries(pkg.devDependencies ?? {}).map(([name, range]) => [name, range.replace(/^[\^~]/, "")]));
}
