import { browserOpener } from "../../../mcp/oauth/browser.js";
import type { LoginInteraction } from "../../../mcp/oauth/interaction.js";
import type { CommandContext } from "../../../terminal/command.js";
import { displayBlock } from "../../../terminal/display.js";
import { writeLine } from "../../../terminal/io.js";
import { confirm } from "../../../terminal/prompt.js";
import { pauseSpinners } from "../../../terminal/spinner.js";

// Apart from the `mcp login` command (login.ts): `mcpvm run` installs this before every run, and it
// must not load the OAuth client and the MCP service with it (docs/ARCHITECTURE.md).

/** One line of stdin (the pasted redirect URL), also when stdin is not a terminal. */
async function readLine(context: CommandContext): Promise<string> {
  let text = "";
  for await (const chunk of context.io.stdin) {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8");
    const newline = text.indexOf("\n");
    if (newline >= 0) return text.slice(0, newline);
  }
  if (text.trim() !== "") return text;
  throw new Error("stdin ended before a redirect URL was pasted");
}

/** How this face opens a login page and talks to the person (stderr, spinners paused). */
export function terminalLoginInteraction(context: CommandContext, options: { readonly noBrowser?: boolean } = {}): LoginInteraction {
  return {
    say: (text) => {
      const resume = pauseSpinners();
      writeLine(context.io.stderr, displayBlock(text));
      resume();
    },
    browser: browserOpener(context.io.env),
    ...(options.noBrowser === true ? { readPastedRedirect: () => readLine(context) } : {}),
  };
}

/**
 * The login a face allows when a server asks for one mid-work: `--login` logs in without asking;
 * on a terminal the person is asked first; otherwise none (MCP_LOGIN_REQUIRED names the command).
 */
export function loginOnDemand(context: CommandContext, explicit: boolean): LoginInteraction | undefined {
  if (explicit) return terminalLoginInteraction(context);
  if (!context.interactive) return undefined;
  return {
    ...terminalLoginInteraction(context),
    confirmLogin: (server) => confirm(context, `server ${server} needs login. Log in now (opens a browser)?`),
  };
}
