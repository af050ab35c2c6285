import { McpOAuthError } from "./errors.js";
import type { LoginInteraction } from "./interaction.js";
import { parsePastedRedirect, type RedirectListener } from "./redirect-listener.js";

const DEFAULT_WAIT_MS = 5 * 60_000;

/**
 * The browser step of a login: show or open the authorization URL, then wait for the redirect to
 * the loopback listener (or a pasted one), the timeout, or a cancel, whichever comes first.
 */
export async function waitForRedirect(server: string, interaction: LoginInteraction, listener: RedirectListener, url: URL): Promise<URLSearchParams> {
  const shown = url.toString();
  const redirected = listener.next();
  const waits: Promise<URLSearchParams>[] = [redirected];
  if (interaction.readPastedRedirect !== undefined) {
    interaction.say(`Open this URL in a browser to log in to ${server}:\n\n  ${shown}\n\nthen paste the address the browser was sent to (it starts with ${listener.redirectUri}):`);
    waits.push(interaction.readPastedRedirect().then((line) => parsePastedRedirect(server, line, listener.port)));
  } else {
    const used = await interaction.browser.open(shown);
    interaction.say(
      used === undefined
        ? `No browser could be opened here. Open this URL in a browser on this machine to log in to ${server}:\n\n  ${shown}\n\n(A browser on another machine cannot reach this one's 127.0.0.1: press Ctrl-C and run \`mcpvm mcp login ${server} --no-browser\` to paste the address back.)`
        : `Opened the login page of ${server} (with ${used}). If no browser appeared, open:\n\n  ${shown}\n`,
    );
  }
  interaction.say(`Waiting for the login to finish (redirect to ${listener.redirectUri}) …`);
  const timeoutMs = interaction.timeoutMs ?? DEFAULT_WAIT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new McpOAuthError("MCP_OAUTH_TIMEOUT", `server ${server}: the login did not finish within ${Math.round(timeoutMs / 1000)} s; nothing was stored. Run \`mcpvm mcp login ${server}\` to try again.`, { data: { server } })),
      timeoutMs,
    );
    // Not unref'd: the redirect listener is (a face that ends must not wait on it), so this timer is
    // what keeps `mcpvm mcp login` alive while the browser is away; without it the process ended
    // at once with exit 0 and nothing stored. It is cleared as soon as the wait settles.
  });
  const signal = interaction.signal;
  let onAbort: (() => void) | undefined;
  const cancelled = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(new McpOAuthError("MCP_OAUTH_CANCELLED", `server ${server}: the login was cancelled before the browser came back; nothing was stored.`, { data: { server } }));
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([...waits, timeout, cancelled]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
  }
}
