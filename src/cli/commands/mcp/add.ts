import { enabledIn } from "../../../plugin-system/plan.js";
import { resolveConfigPaths } from "../../../config/paths.js";
import { addMcpServer, checkServerArgument, DEFAULT_NATIVE_PLUGIN_NAMES, mcpOffWarning, RESERVED_SERVER_NAMES } from "../../../mcp/config/index.js";
import { entryFromKnownServer, findKnownServer, KNOWN_SERVERS, type KnownServer } from "../../../mcp/known-servers.js";
import { parseDuration, UsageError } from "../../../terminal/args.js";
import type { CommandContext } from "../../../terminal/command.js";
import { commandHint } from "../../../terminal/hints.js";
import { displayInline } from "../../../terminal/display.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { maskedEntry } from "../../../terminal/render/mcp.js";
import { didYouMean } from "../../../util/suggest.js";
import { missingCommandWarning } from "./add-command-check.js";
import { absoluteCommand, checkAgainstCwd, existingFolder } from "./add-paths.js";
import { parseAddRequest, type AddRequest } from "./add-request.js";

const MAX_CONNECT_TIMEOUT_MS = 600_000;

interface BuiltEntry {
  readonly name: string;
  readonly entry: Record<string, unknown>;
  /** Said on stderr (and in --json): renames, resolved paths, what a catalog server needs. */
  readonly notes: readonly string[];
}

function usage(message: string): UsageError {
  return new UsageError("USAGE", `mcpvm mcp add: ${message}. See \`mcpvm mcp add --help\`.`);
}

function checkUrl(flag: string, url: string): void {
  if (url.includes("${")) return; // checked once the variables are filled in
  let protocol = "";
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = "";
  }
  if (protocol !== "http:" && protocol !== "https:") throw usage(`${flag} needs an absolute http:// or https:// URL (got "${url}")`);
}

function common(request: AddRequest): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (request.description !== undefined) out.description = request.description;
  if (request.connectTimeout !== undefined) {
    const ms = parseDuration("mcp add", "--connect-timeout", request.connectTimeout);
    if (ms > MAX_CONNECT_TIMEOUT_MS) throw usage(`--connect-timeout is at most 10m (got ${request.connectTimeout})`);
    out.connectTimeoutMs = ms;
  }
  return out;
}

/**
 * A catalog name that cannot be a server name (`fetch` is also a native plugin) gets `-server`
 * appended, as `mcp import` does; `--as` picks any other name.
 */
function catalogName(known: KnownServer, as: string | undefined): { name: string; note?: string } {
  if (as !== undefined) return { name: as };
  const taken = DEFAULT_NATIVE_PLUGIN_NAMES.includes(known.name) ? "the name of a native plugin" : RESERVED_SERVER_NAMES.includes(known.name) ? "reserved" : undefined;
  if (taken === undefined) return { name: known.name };
  const name = `${known.name}-server`;
  return { name, note: `"${known.name}" is ${taken}, so the catalog server was added as "${name}" (choose another name with --as <name>)` };
}

function fromCatalog(request: AddRequest, cwd: string, home: string): BuiltEntry {
  const known = findKnownServer(request.name);
  if (known === undefined) {
    const catalog = KNOWN_SERVERS.map((s) => s.name);
    throw usage(
      `"${request.name}" is not in the catalog${didYouMean(request.name, catalog)} (catalog: ${catalog.join(", ")}). ` +
        `Add any other server with \`mcpvm mcp add ${request.name} -- <command> [args…]\` or \`--transport http <url>\``,
    );
  }
  const takesDir = known.args.some((arg) => arg.includes("{dir}"));
  if (request.dir !== undefined && !takesDir) throw usage(`--dir applies to catalog servers that work on a folder (${KNOWN_SERVERS.filter((s) => s.args.some((a) => a.includes("{dir}"))).map((s) => s.name).join(", ")}); ${known.name} takes none`);
  const dir = takesDir ? existingFolder("--dir", request.dir ?? ".", cwd) : undefined;
  const base = entryFromKnownServer(known, dir === undefined ? {} : { "{dir}": dir }, home);
  const env = { ...(base.env as Record<string, string> | undefined), ...request.env };
  const { name, note } = catalogName(known, request.as);
  const notes: string[] = [];
  if (note !== undefined) notes.push(note);
  // The folder a server may read and change, chosen without being typed: said, with how to choose another.
  if (dir !== undefined && request.dir === undefined) notes.push(`${name} works on ${dir} (the current folder, as no --dir was given); another: \`mcpvm mcp add ${request.name}${request.as === undefined ? "" : ` --as ${request.as}`} --dir <folder> --overwrite\`.`);
  // server-filesystem takes a client's roots as its allowed folders in place of its arguments: offered
  // the folder a run starts in (or a gateway client's roots), run from / it could read /etc. So the
  // folder chosen here is also the only root this server is offered.
  const ownRoots = known.name === "filesystem" && dir !== undefined ? { roots: [dir] } : {};
  if (known.name === "filesystem" && dir !== undefined) notes.push(rootsNote(name, dir));
  if (known.requiredEnv.length > 0) notes.push(`${name} reads ${known.requiredEnv.map((v) => `\${${v}}`).join(", ")} from your environment when it starts.`);
  if (known.notes !== undefined) notes.push(known.notes);
  return { name, entry: { ...base, ...(Object.keys(env).length === 0 ? {} : { env }), ...ownRoots, ...common(request) }, notes };
}

function rootsNote(name: string, dir: string): string {
  return `${name} is offered ${dir} as its only root (its "roots" in config.json): server-filesystem takes the roots it is offered as the folders it may use, so the folder a run starts in or a gateway client's roots never widen it.`;
}

function stdioEntry(request: AddRequest, cwd: string): BuiltEntry {
  const notes: string[] = [];
  let command: string;
  let args: readonly string[];
  let workingDir: string | undefined;
  if (request.cwd !== undefined) {
    workingDir = existingFolder("--cwd", request.cwd, cwd);
    checkAgainstCwd(request.command, workingDir);
    [command = "", ...args] = request.command;
  } else {
    const resolved = absoluteCommand(request.command, cwd);
    ({ command, args } = resolved);
    for (const r of resolved.rewritten) notes.push(`stored ${r.from} as ${r.to} (servers never start in the folder you run mcpvm from)`);
  }
  const env = request.env;
  return {
    name: request.name,
    entry: {
      type: "stdio",
      command,
      args: [...args],
      ...(Object.keys(env).length === 0 ? {} : { env }),
      ...(workingDir === undefined ? {} : { cwd: workingDir }),
      ...common(request),
    },
    notes,
  };
}

function remoteEntry(request: AddRequest, transport: "http" | "sse"): BuiltEntry {
  const url = request.url as string;
  checkUrl(`--transport ${transport}`, url);
  const headers = request.headers;
  const oauth = request.oauth === undefined ? {} : { oauth: request.oauth };
  return { name: request.name, entry: { type: transport, url, ...(Object.keys(headers).length === 0 ? {} : { headers }), ...oauth, ...common(request) }, notes: [] };
}

/** The config entry `mcpvm mcp add` writes, and the name it goes under (`home`: the config home, for a catalog server's files). */
export function buildEntry(request: AddRequest, cwd: string, home: string): BuiltEntry {
  if (request.transport === undefined) return fromCatalog(request, cwd, home);
  if (request.transport === "stdio") return stdioEntry(request, cwd);
  return remoteEntry(request, request.transport);
}

/** `mcpvm mcp add …` (args are everything after `add`). */
export async function addCommand(args: readonly string[], context: CommandContext): Promise<ExitCodeValue> {
  const request = parseAddRequest(args);
  const home = resolveConfigPaths(context.io.env).home;
  const built = buildEntry(request, context.io.cwd, home);
  // An argument error (exit 2, with the name import would pick), never "config.json is not valid".
  checkServerArgument(built.name, built.entry, DEFAULT_NATIVE_PLUGIN_NAMES);
  const host = await context.host();
  const configFile = host.paths.configFile;
  const saved = await addMcpServer(configFile, built.name, built.entry, { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES, overwrite: request.overwrite });
  await host.reload();
  const missing = await missingCommandWarning(built.name, built.entry, context.io.env, home);
  // Skipping the tour's plugin step is easy; saying so here beats an approve that refuses later.
  const mcpOff = !enabledIn(host.config)("mcp");
  const warnings = missing === undefined ? [] : [missing];
  if (mcpOff) warnings.push(mcpOffWarning((words) => commandHint(context, words)));
  if (context.json) {
    writeJson(context.io.stdout, { added: built.name, entry: maskedEntry(saved), notes: built.notes, warnings });
    return ExitCode.Ok;
  }
  for (const note of built.notes) writeLine(context.io.stderr, displayInline(note));
  for (const warning of warnings) writeLine(context.io.stderr, displayInline(warning));
  const enable = mcpOff ? `the mcp plugin is enabled (above) and ` : "";
  writeLine(context.io.stdout, `added ${built.name} to ${configFile}. It will not start until ${enable}you approve it: \`${commandHint(context, `mcp approve ${built.name}`)}\`.`);
  return ExitCode.Ok;
}
