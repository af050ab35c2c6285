import type { BrowserOpener } from "./browser.js";

/**
 * The person's side of a login, given by the face that may open a browser (`mcpvm mcp login`,
 * `mcp call --login`, a terminal that said yes). Without one a server that needs a login fails
 * with MCP_LOGIN_REQUIRED naming the command to run.
 */
export interface LoginInteraction {
  /** Progress and the URL, for the person (stderr on the CLI). */
  say(text: string): void;
  readonly browser: BrowserOpener;
  /**
   * --no-browser: the URL is printed and the redirected URL is pasted back (an SSH session's
   * browser runs elsewhere and cannot reach this machine's 127.0.0.1).
   */
  readonly readPastedRedirect?: () => Promise<string>;
  /**
   * Asked before a login that nobody requested explicitly (a REPL or terminal run meeting a server
   * that needs one); absent: the login goes ahead (\`mcp login\`, --login).
   */
  readonly confirmLogin?: (server: string) => Promise<boolean>;
  /** How long to wait for the redirect (default 5 minutes). */
  readonly timeoutMs?: number;
  /**
   * Ends the wait for the redirect with MCP_OAUTH_CANCELLED (the dashboard's "Cancel", or the
   * face closing while a login is open in a browser tab nobody will finish).
   */
  readonly signal?: AbortSignal;
}
