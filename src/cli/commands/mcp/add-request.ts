import { parseCommandArgs, requirePositional, UsageError } from "../../../terminal/args.js";

/**
 * `mcpvm mcp add` arguments, in mcpvm's own syntax (`--stdio -- cmd`, `--http <url>`) and the one
 * people know from other MCP clients (`--transport http <name> <url>`, `-H "Authorization: Bearer …"`,
 * `-e KEY=VALUE`, `<name> -- <command>` meaning stdio). Pure: flags that contradict each other or
 * that would have no effect are refused here, before anything is read or written.
 */
export const ADD_OPTIONS = {
  stdio: { type: "boolean" },
  http: { type: "string" },
  sse: { type: "string" },
  transport: { type: "string", short: "t" },
  header: { type: "string", multiple: true, short: "H" },
  env: { type: "string", multiple: true, short: "e" },
  dir: { type: "string" },
  cwd: { type: "string" },
  as: { type: "string" },
  description: { type: "string" },
  "connect-timeout": { type: "string" },
  "client-id": { type: "string" },
  "callback-port": { type: "string" },
  overwrite: { type: "boolean" },
} as const;

export const ADD_USAGE = `Usage: mcpvm mcp add <name> [options]                       a server from the catalog
       mcpvm mcp add <name> [options] -- <command> [args...]  any stdio server
       mcpvm mcp add <name> --transport http|sse <url> [-H …]  any HTTP (or SSE) server

Writes the server to config.json; it starts only after \`mcpvm mcp approve <name>\`.

Options:
  -t, --transport <kind>   stdio, http or sse (stdio is implied by a command after --)
  --stdio | --http <url> | --sse <url>    the same, mcpvm's older spelling
  -e, --env KEY=VALUE      environment of a stdio server (repeatable); \${VAR} reads your environment
  -H, --header "Name: value" | Name=value   header of an http/sse server (repeatable)
  --cwd <dir>              where a stdio server starts (default: the config home, never your current folder)
  --dir <path>             (catalog: filesystem, git) the folder the server works on (default: current folder)
  --as <name>              (catalog) add it under another name
  --description <text>     shown in \`mcp list\` and to the model
  --connect-timeout <dur>  start-up time allowed (e.g. 60s)
  --client-id <id>         (http/sse) OAuth client registered for mcpvm at the server's authorization server
  --callback-port <port>   (http/sse) fixed port of the login redirect, http://127.0.0.1:<port>/callback
  --overwrite              replace an existing server of that name

Relative paths in the command (\`node ./server.mjs\`) are stored as absolute paths resolved against
the current folder, unless --cwd is given.

Examples:
  mcpvm mcp add memory
  mcpvm mcp add fetch --as web
  mcpvm mcp add notes -e NOTES_DIR=~/notes -- node ./notes-server.mjs
  mcpvm mcp add api --transport http https://api.example.com/mcp -H "Authorization: Bearer \${API_TOKEN}"`;

export type AddTransport = "stdio" | "http" | "sse";

export interface AddRequest {
  readonly name: string;
  /** Undefined: a catalog server. */
  readonly transport: AddTransport | undefined;
  readonly url: string | undefined;
  /** The command after `--` (stdio). */
  readonly command: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string>>;
  readonly cwd: string | undefined;
  readonly dir: string | undefined;
  readonly as: string | undefined;
  readonly description: string | undefined;
  readonly connectTimeout: string | undefined;
  /** `oauth.clientId` / `oauth.callbackPort` of an http/sse server (a client registered by hand). */
  readonly oauth: { readonly clientId?: string; readonly callbackPort?: number } | undefined;
  readonly overwrite: boolean;
}

const COMMAND = "mcp add";

function problem(message: string): UsageError {
  return new UsageError("USAGE", `mcpvm mcp add: ${message}. See \`mcpvm mcp add --help\`.`);
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

function text(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `KEY=VALUE` pairs (`--env`). */
export function parseEnvPairs(pairs: readonly string[]): Record<string, string> {
  const out: [string, string][] = [];
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at <= 0) throw problem(`--env takes KEY=VALUE (got "${pair}")`);
    out.push([pair.slice(0, at).trim(), pair.slice(at + 1)]);
  }
  return Object.fromEntries(out);
}

// RFC 9110 token characters: what may stand before the ":" of a header line.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** `Name: value` (curl, Claude Code) or `Name=value` (mcpvm's older form). */
export function parseHeader(header: string): [string, string] {
  const colon = header.indexOf(":");
  const before = colon > 0 ? header.slice(0, colon).trim() : "";
  if (HEADER_NAME.test(before)) return [before, header.slice(colon + 1).trim()];
  const equals = header.indexOf("=");
  const name = equals > 0 ? header.slice(0, equals).trim() : "";
  if (HEADER_NAME.test(name)) return [name, header.slice(equals + 1).trim()];
  throw problem(`--header takes "Name: value" or Name=value, with a name of letters, digits and -_.!#$%&'*+^\`|~ (got "${header}")`);
}

/** Which transport each flag asks for; more than one distinct answer is a contradiction. */
function transportsAsked(values: Readonly<Record<string, unknown>>, command: readonly string[], dashdash: boolean): { flag: string; transport: AddTransport }[] {
  const asked: { flag: string; transport: AddTransport }[] = [];
  if (values.stdio === true) asked.push({ flag: "--stdio", transport: "stdio" });
  if (typeof values.http === "string") asked.push({ flag: "--http", transport: "http" });
  if (typeof values.sse === "string") asked.push({ flag: "--sse", transport: "sse" });
  const kind = text(values.transport);
  if (kind !== undefined) {
    if (kind !== "stdio" && kind !== "http" && kind !== "sse") throw problem(`--transport takes stdio, http or sse (got "${kind}")`);
    asked.push({ flag: `--transport ${kind}`, transport: kind });
  }
  if (dashdash && command.length > 0) asked.push({ flag: `a command after --`, transport: "stdio" });
  return asked;
}

/** Reads the arguments of `mcpvm mcp add` (everything after `add`). */
export function parseAddRequest(args: readonly string[]): AddRequest {
  const at = args.indexOf("--");
  const dashdash = at !== -1;
  const command = dashdash ? args.slice(at + 1) : [];
  const { values, positionals } = parseCommandArgs(COMMAND, dashdash ? args.slice(0, at) : args, ADD_OPTIONS);
  const name = requirePositional(COMMAND, positionals, 0, "a server name");

  const asked = transportsAsked(values, command, dashdash);
  const distinct = [...new Set(asked.map((a) => a.transport))];
  if (distinct.length > 1) {
    const flags = asked.map((a) => a.flag);
    throw problem(`${flags.slice(0, -1).join(", ")} and ${flags[flags.length - 1]} contradict each other: a server is either stdio (a command) or http/sse (a URL)`);
  }
  const transport = distinct[0];
  if ((transport === "stdio" || (dashdash && transport === undefined)) && command.length === 0) throw problem("give the command after --, e.g. `mcpvm mcp add my-server -- npx -y my-mcp-server`");

  const flagUrl = text(values.http) ?? text(values.sse);
  const extra = positionals.slice(1);
  let url = flagUrl;
  if ((transport === "http" || transport === "sse") && flagUrl === undefined && extra.length > 0) url = extra.shift();
  if (extra.length > 0) {
    const first = extra[0] as string;
    const hint = /^https?:\/\//i.test(first) ? `; for an HTTP server write --transport http ${first}` : transport === "stdio" || transport === undefined ? "; put a command and its arguments after --" : "";
    throw problem(`unexpected argument "${first}"${hint}`);
  }
  if ((transport === "http" || transport === "sse") && url === undefined) throw problem(`--transport ${transport} needs the server's URL, e.g. --transport ${transport} https://example.com/mcp`);

  const env = strings(values.env);
  const headers = strings(values.header);
  const cwd = text(values.cwd);
  const dir = text(values.dir);
  const as = text(values.as);
  if (transport === "http" || transport === "sse") {
    if (env.length > 0) throw problem(`--env sets the environment of a stdio server; this one is ${transport} (send values as headers with -H)`);
    if (cwd !== undefined) throw problem(`--cwd applies to stdio servers; this one is ${transport}`);
  } else if (values["client-id"] !== undefined || values["callback-port"] !== undefined) {
    throw problem(`--${values["client-id"] !== undefined ? "client-id" : "callback-port"} applies to http and sse servers (their OAuth login); ${transport === "stdio" ? "this one is stdio" : `"${name}" from the catalog is stdio`}`);
  } else if (headers.length > 0) {
    throw problem(`--header applies to http and sse servers; ${transport === "stdio" ? "this one is stdio" : `"${name}" from the catalog is stdio`} (use --env for a stdio server)`);
  }
  if (transport !== undefined) {
    if (dir !== undefined) throw problem("--dir applies to the catalog servers filesystem and git; for your own server put the folder in its arguments");
    if (as !== undefined) throw problem(`--as renames a catalog server; for your own server the name is the first argument ("${name}")`);
  } else if (cwd !== undefined) {
    throw problem("--cwd applies to your own stdio servers (after --); catalog servers start in the config home");
  }
  return {
    name,
    transport,
    url,
    command,
    env: parseEnvPairs(env),
    headers: Object.fromEntries(headers.map(parseHeader)),
    cwd,
    dir,
    as,
    description: text(values.description),
    connectTimeout: text(values["connect-timeout"]),
    oauth: oauthFlags(text(values["client-id"]), text(values["callback-port"])),
    overwrite: values.overwrite === true,
  };
}

function oauthFlags(clientId: string | undefined, port: string | undefined): AddRequest["oauth"] {
  if (clientId === undefined && port === undefined) return undefined;
  const callbackPort = port === undefined ? undefined : Number(port);
  if (callbackPort !== undefined && (!/^\d+$/.test(port ?? "") || callbackPort < 1 || callbackPort > 65535)) throw problem(`--callback-port takes a port number from 1 to 65535 (got "${port}")`);
  return { ...(clientId === undefined ? {} : { clientId }), ...(callbackPort === undefined ? {} : { callbackPort }) };
}
