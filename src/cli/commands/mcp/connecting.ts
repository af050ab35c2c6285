import type { CommandContext } from "../../../terminal/command.js";
import { Spinner } from "../../../terminal/spinner.js";

/** A spinner on stderr while a server starts (first connection lists and audits its tools). */
export async function connecting<T>(context: CommandContext, name: string, work: () => Promise<T>): Promise<T> {
  const spinner = new Spinner(context.io.stderr);
  spinner.start(`starting MCP server ${name}…`);
  try {
    return await work();
  } finally {
    spinner.stop();
  }
}
