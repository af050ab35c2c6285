import type { McpService } from "../../../mcp/service/index.js";
import { parseCommandArgs, requirePositional } from "../../../terminal/args.js";
import type { CommandContext } from "../../../terminal/command.js";
import { describeLoginOutcome, describeLogout } from "../../../terminal/render/login.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { connecting } from "./connecting.js";
import { terminalLoginInteraction } from "./login-interaction.js";

export { loginOnDemand, terminalLoginInteraction } from "./login-interaction.js";

export const LOGOUT_USAGE = `Usage: mcpvm mcp logout <server> [--json]

Removes the server's OAuth login from oauth-tokens.json and revokes its tokens at the server
(RFC 7009) where the server offers a revocation endpoint. The next call needs \`mcpvm mcp login\`.`;

export const LOGIN_USAGE = `Usage: mcpvm mcp login <server> [--no-browser] [--json]

Logs in to a remote (http or sse) MCP server that uses OAuth: the server must be approved first.
The login page opens with $BROWSER when it is set, else the system's opener, else the URL is
printed; mcpvm listens for the redirect on 127.0.0.1 (a random port, or the server's
"oauth.callbackPort"). Tokens are kept in oauth-tokens.json in the config home (mode 0600) and
refreshed before they expire; \`mcpvm mcp logout <server>\` removes (and revokes) them.

  --no-browser   print the URL and paste back the address the browser was sent to
                 (for SSH sessions, where the browser cannot reach this machine)

Examples:
  mcpvm mcp login linear
  mcpvm mcp login github --no-browser`;

export async function loginCommand(service: McpService, args: readonly string[], context: CommandContext): Promise<ExitCodeValue> {
  const { values, positionals } = parseCommandArgs("mcp login", args, { "no-browser": { type: "boolean" } });
  const server = requirePositional("mcp login", positionals, 0, "a server name");
  // A stdio server is refused by the login itself; announcing one first read as if it had begun.
  const remote = service.entry(server).type !== "stdio";
  const interaction = terminalLoginInteraction(context, { noBrowser: values["no-browser"] === true });
  if (remote) interaction.say(`Logging in to ${server} …`);
  const status = await connecting(context, server, () => service.login(server, interaction));
  if (context.json) writeJson(context.io.stdout, { server, ...status });
  else writeLine(context.io.stdout, describeLoginOutcome(server, status, Date.now()));
  return ExitCode.Ok;
}

export async function logoutCommand(service: McpService, args: readonly string[], context: CommandContext): Promise<ExitCodeValue> {
  const { positionals } = parseCommandArgs("mcp logout", args, {});
  const server = requirePositional("mcp logout", positionals, 0, "a server name");
  const outcome = await service.logout(server);
  const revoked = outcome === undefined ? "none" : typeof outcome === "string" ? outcome : "failed";
  if (context.json) writeJson(context.io.stdout, { server, loggedOut: outcome !== undefined, revocation: revoked, ...(typeof outcome === "object" ? { revocationError: outcome.failed } : {}) });
  else writeLine(context.io.stdout, describeLogout(server, outcome));
  return ExitCode.Ok;
}
