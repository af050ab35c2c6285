import { loadConfigFile } from "../../config/config-file.js";
import { resolveConfigPaths } from "../../config/paths.js";
import { GatewayError } from "../../gateway/errors.js";
import { formatRate, type ClientScope } from "../../gateway/clients/scope.js";
import type { OAuthCheck } from "../../gateway/oauth/check.js";
import { parseGatewaySettings } from "../../gateway/settings.js";
import { parseCommandArgs, unknownCommandWord, usageError } from "../../terminal/args.js";
import type { CommandContext } from "../../terminal/command.js";
import { displayInline } from "../../terminal/display.js";
import { ExitCode, type ExitCodeValue } from "../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../terminal/io.js";

export const OAUTH_USAGE = `  oauth check [<access token> | -] [--resource <url>]
                         read gateway.oauth's identity provider (metadata, key set) as the gateway
                         would, show the metadata it publishes, and with a token (- reads stdin)
                         say which client it counts as and what it may reach, or why it is refused
      --resource <url>   the gateway's URL, when gateway.oauth.resource is not set
                         Exit codes: 0 ok (token accepted), 1 token refused, 3 no or bad gateway.oauth, 6 provider unreachable`;

async function readStdin(context: CommandContext): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of context.io.stdin) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString("utf8").trim();
}

function allows(client: ClientScope): string {
  const parts = [
    client.toolset === undefined ? undefined : `toolset ${client.toolset}`,
    client.servers === undefined ? undefined : `servers ${client.servers.join(",")}`,
    client.rate === undefined ? undefined : `rate ${formatRate(client.rate)}`,
  ].filter((p): p is string => p !== undefined);
  return parts.join("; ") || "everything";
}

function printReport(context: CommandContext, report: OAuthCheck): void {
  const out = context.io.stdout;
  writeLine(out, `issuer     ${displayInline(report.issuer)}`);
  writeLine(out, `key set    ${displayInline(report.jwksUri)} (${report.kids.length} key${report.kids.length === 1 ? "" : "s"}: ${displayInline(report.kids.join(", ") || "none")})`);
  writeLine(out, `resource   ${displayInline(report.resource)} (tokens need it as their audience unless gateway.oauth.audience says otherwise)`);
  writeLine(out, `metadata   ${displayInline(report.metadataUrl)}`);
  const token = report.token;
  if (token === undefined) return;
  if (token.accepted) {
    writeLine(
      out,
      `token      accepted as client ${displayInline(token.client.name)} (${displayInline(allows(token.client))}); scopes ${displayInline(token.scopes.join(" ") || "none")}${token.expiresAt === undefined ? "" : `; expires ${token.expiresAt}`}`,
    );
  } else {
    writeLine(out, `token      refused (${token.status}${token.error === undefined ? "" : ` ${token.error}`}): ${displayInline(token.reason)}`);
  }
}

/** `mcpvm gateway oauth check`: the gateway's own checks, run from the command line. */
export async function runOauth(args: readonly string[], context: CommandContext): Promise<ExitCodeValue> {
  const [action, ...rest] = args;
  if (action !== "check") throw usageError("gateway oauth", unknownCommandWord("action", action, ["check"]));
  const { values, positionals } = parseCommandArgs("gateway oauth check", rest, { resource: { type: "string" } }, 1);
  const paths = resolveConfigPaths(context.io.env);
  const settings = parseGatewaySettings((await loadConfigFile(paths.configFile)).gateway, paths.configFile).oauth;
  if (settings === undefined) {
    throw new GatewayError("GATEWAY_CONFIG_INVALID", `${paths.configFile} has no gateway.oauth section: add one to accept access tokens from an identity provider (docs/GATEWAY.md).`, {
      data: { file: paths.configFile },
    });
  }
  const resource = typeof values.resource === "string" ? values.resource : settings.resource;
  if (resource === undefined) throw usageError("gateway oauth check", "gateway.oauth.resource is not set: give the gateway's URL with --resource <url> (e.g. http://127.0.0.1:8080/mcp)");
  try {
    new URL(resource);
  } catch {
    throw usageError("gateway oauth check", `--resource: "${resource}" is not a URL`);
  }
  const given = positionals[0];
  const token = given === "-" ? await readStdin(context) : given;
  // jose and the key-set code load only for this command.
  const { checkOAuth } = await import("../../gateway/oauth/check.js");
  const report = await checkOAuth(settings, resource, token === "" ? undefined : token);
  if (context.json) writeJson(context.io.stdout, report);
  else printReport(context, report);
  return report.token === undefined || report.token.accepted ? ExitCode.Ok : ExitCode.GuestError;
}
