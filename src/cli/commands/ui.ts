import { missingCommandWarning } from "./mcp/add-command-check.js";
import { COMMAND_SUMMARIES } from "./summaries.js";
import { browserOpener } from "../../mcp/oauth/index.js";
import { startUi, type UiBridge } from "../../ui/index.js";
import { parseCommandArgs, UsageError } from "../../terminal/args.js";
import type { Command } from "../../terminal/command.js";
import { ExitCode } from "../../terminal/exit-codes.js";
import { writeLine } from "../../terminal/io.js";
import { McpvmError } from "../../util/errors.js";
import { buildEntry } from "./mcp/add.js";
import { parseAddRequest } from "./mcp/add-request.js";
import { importJson } from "./mcp/import-report.js";
import { runLimitFlags } from "./run.js";
import { onSignal } from "../../util/signals.js";

const USAGE = `Usage: mcpvm ui [--port N] [--no-open]

A local web dashboard: servers (state, tools, add, enable, disable, remove), approvals (what will
run, held tools side by side with their findings), toolsets, the activity of every face, and a
script editor. It reads and writes the same files as the CLI, and shows changes made elsewhere.

  --port N     listen on 127.0.0.1:N (default: a free port). Never any other address.
  --no-open    print the URL only; otherwise it is opened with $BROWSER or the system's opener

The URL holds a random token: anyone with it can use your servers, so do not share it.
MCPVM_UI_ASSETS=<dir> serves a dashboard built with \`node ui/build.mjs <dir>\` (for working on it).
Stop with Ctrl-C: the dashboard closes and so does every server it started. See docs/UI.md.`;

/** The CLI pieces the dashboard reuses, so a page form is checked exactly like the command line. */
export function cliBridge(): UiBridge {
  return {
    buildAddEntry: (args, cwd, home) => buildEntry(parseAddRequest(args), cwd, home),
    missingCommandWarning,
    importJson: (outcome) => importJson(outcome),
    runLimits: (values) => runLimitFlags(values),
  };
}

function port(value: unknown): number {
  if (value === undefined) return 0;
  const text = String(value);
  const n = Number(text);
  if (!/^\d+$/.test(text) || n > 65535) throw new UsageError("USAGE", `ui: --port takes a port number 0-65535 (got "${text}"). See \`mcpvm ui --help\`.`);
  return n;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      stopInt();
      stopTerm();
      resolve();
    };
    const stopInt = onSignal("SIGINT", stop, { once: true });
    const stopTerm = onSignal("SIGTERM", stop, { once: true });
  });
}

export const uiCommand: Command = {
  name: "ui",
  summary: COMMAND_SUMMARIES.ui,
  usage: USAGE,
  async run(args, context) {
    const { values } = parseCommandArgs("ui", args, { port: { type: "string" }, "no-open": { type: "boolean" } }, 0);
    const host = await context.host();
    // One opener for the dashboard and the OAuth logins started from it, the same as `mcpvm mcp login`'s.
    const opener = browserOpener(context.io.env);
    // MCPVM_UI_ASSETS: a dashboard built elsewhere (`node ui/build.mjs <dir>`), for working on the page itself.
    const assets = context.io.env.MCPVM_UI_ASSETS;
    const running = await startUi({ host, bridge: cliBridge(), cwd: context.io.cwd, port: port(values.port), opener, ...(assets === undefined || assets === "" ? {} : { assetsDir: assets }) }).catch(async (error: unknown) => {
      await host.close();
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      if (code === "EADDRINUSE") throw new McpvmError("UI_PORT_IN_USE", `ui: port ${String(values.port)} on 127.0.0.1 is in use; give another --port, or leave it out for a free one.`);
      throw error;
    });
    writeLine(context.io.stdout, `mcpvm dashboard: ${running.url}`);
    writeLine(context.io.stderr, "Anyone with this URL can use your MCP servers; keep it to yourself. Stop with Ctrl-C.");
    if (values["no-open"] !== true && (await opener.open(running.url).catch(() => undefined)) === undefined) {
      writeLine(context.io.stderr, "Could not start a browser ($BROWSER, or the system's opener); open the URL above yourself.");
    }
    await untilSignal();
    await running.close();
    return ExitCode.Ok;
  },
};
