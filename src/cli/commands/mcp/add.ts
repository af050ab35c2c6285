import { resolve } from "node:path";
import { entryFromKnownServer, findKnownServer, KNOWN_SERVERS } from "../../../mcp/known-servers.js";
import { UsageError } from "../../../terminal/args.js";
import type { CommandContext } from "../../../terminal/command.js";
import { writeLine } from "../../../terminal/io.js";

/** The config entry `mcpvm mcp add` writes, from the catalog or from --stdio/--http/--sse flags. */
export function buildEntry(name: string, values: Readonly<Record<string, unknown>>, command: readonly string[], context: CommandContext): Record<string, unknown> {
  const pairs = (list: unknown, flag: string, separator: string) =>
    Object.fromEntries(
      ((list as string[] | undefined) ?? []).map((pair) => {
        const at = pair.indexOf(separator);
        if (at <= 0) throw new UsageError("USAGE", `mcp add: ${flag} takes NAME${separator}VALUE (got "${pair}")`);
        return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      }),
    );
  const description = typeof values.description === "string" ? { description: values.description } : {};
  if (values.stdio === true) {
    if (command.length === 0) throw new UsageError("USAGE", "mcp add --stdio: give the command after --, e.g. `mcpvm mcp add my-server --stdio -- npx -y my-mcp-server`");
    const env = pairs(values.env, "--env", "=");
    return { type: "stdio", command: command[0], args: command.slice(1), ...(Object.keys(env).length === 0 ? {} : { env }), ...description };
  }
  const url = typeof values.http === "string" ? values.http : typeof values.sse === "string" ? values.sse : undefined;
  if (url !== undefined) {
    const headers = pairs(values.header, "--header", "=");
    return { type: typeof values.http === "string" ? "http" : "sse", url, ...(Object.keys(headers).length === 0 ? {} : { headers }), ...description };
  }
  const known = findKnownServer(name);
  if (known === undefined) {
    throw new UsageError("USAGE", `mcp add: "${name}" is not in the catalog (${KNOWN_SERVERS.map((s) => s.name).join(", ")}); add any other server with --stdio -- <command> or --http <url>.`);
  }
  const dir = resolve(context.io.cwd, typeof values.dir === "string" ? values.dir : ".");
  const entry = entryFromKnownServer(known, { "{dir}": dir });
  if (known.requiredEnv.length > 0) writeLine(context.io.stderr, `${name} reads ${known.requiredEnv.map((v) => `\${${v}}`).join(", ")} from your environment when it starts.`);
  if (known.notes !== undefined) writeLine(context.io.stderr, known.notes);
  return { ...entry, ...description };
}
