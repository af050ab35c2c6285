import { connectCheck, type ConnectResult } from "../../../host/diagnose/index.js";
import type { McpService } from "../../../mcp/service/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { displayInline } from "../../../terminal/display.js";
import { firstLine } from "../../../mcp/service/server-state.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { commandHint } from "../../../terminal/hints.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { renderServerList } from "../../../terminal/render/mcp.js";
import { Spinner } from "../../../terminal/spinner.js";
import { McpvmError } from "../../../util/errors.js";
import { counted } from "../../../util/counted.js";

function checkLine(result: ConnectResult, context: CommandContext): string {
  const { green, red, yellow } = context.colours;
  if (!result.ok) return `${red("✗")} ${displayInline(result.name)}: ${red("failed")} (${result.ms} ms) ${displayInline(firstLine(result.error?.message ?? ""))}`;
  const held = result.heldCount ? yellow(`, ${result.heldCount} held`) : "";
  return `${green("✓")} ${displayInline(result.name)}: ${green("connected")}, ${result.toolCount} tools${held} (${result.ms} ms)`;
}

/**
 * `mcp list`: every server's state without starting anything (live in this process, else the last
 * recorded result). `--check` first starts every enabled, approved server once, as `claude mcp
 * list` does, and exits 6 when one fails.
 */
export async function listCommand(service: McpService, check: boolean, context: CommandContext): Promise<ExitCodeValue> {
  let checks: ConnectResult[] | undefined;
  if (check) {
    const before = await service.summaries();
    const names = before.filter((s) => s.enabled && s.approval === "approved").map((s) => s.name);
    const spinner = new Spinner(context.io.stderr);
    spinner.start(`checking ${counted(names.length, "server")}…`);
    try {
      checks = await connectCheck(service, names, {
        onDone: (result) => {
          if (context.json) return;
          spinner.stop();
          writeLine(context.io.stderr, checkLine(result, context));
          spinner.start("checking…");
        },
      });
    } finally {
      spinner.stop();
    }
  }
  const list = await service.summaries();
  // A corrupt approvals, pins or logins file is the command's failure (exit 3, with the file and the
  // fix), as in `mcpvm doctor`; a table with a gap and exit 0 would read as an answer.
  const broken = list.find((s) => s.stateError !== undefined)?.stateError;
  if (broken !== undefined) throw new McpvmError(broken.code, broken.message);
  if (context.json) writeJson(context.io.stdout, checks === undefined ? { servers: list } : { servers: list, checks });
  else {
    // The notes name what to type: in the REPL that is /mcp approve, not a command line.
    const shown = list.map((s) => (s.next?.startsWith("mcpvm ") === true ? { ...s, next: commandHint(context, s.next.slice("mcpvm ".length)) } : s));
    writeLine(context.io.stdout, renderServerList(shown, context.colours));
  }
  return checks?.some((c) => !c.ok) === true ? ExitCode.Unavailable : ExitCode.Ok;
}
