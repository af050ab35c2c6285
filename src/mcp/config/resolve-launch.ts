import { isAbsolute, resolve } from "node:path";
import { formatJsonPath } from "../../config/config-file.js";
import { defaultConnectTimeoutMs } from "../client-manager/connect-timeout.js";
import { DEFAULT_SERVER_LIMITS, type McpResolvedOAuth, type McpServerLaunch, type McpServerLimits } from "../types.js";
import { scopeString } from "./oauth-schema.js";
import { McpConfigError } from "./errors.js";
import { InputCache, type PromptInput } from "./input-cache.js";
import { parseTemplate } from "./placeholders.js";
import { firstRelativePath } from "./relative-paths.js";
import type { McpServerEntry } from "./schema.js";
import { isMaskedValue } from "./secret-values.js";

export interface ResolveLaunchOptions {
  /** The environment `${VAR}` reads (normally process.env, passed in by the entry point). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The session's input answers; one per session so each id is asked for once. */
  readonly inputs?: InputCache;
  readonly promptInput?: PromptInput;
  /**
   * Where a stdio server starts when its entry sets no `cwd` (the config home), and what a relative
   * `cwd` is resolved against. Never the caller's working directory: what runs must not depend on
   * where mcpvm was started (an MCP client starts it in the open project, whose node_modules npx
   * would otherwise prefer).
   */
  readonly defaultCwd?: string;
}

class Substituter {
  readonly secrets = new Set<string>();

  constructor(
    private readonly server: string,
    private readonly entry: McpServerEntry,
    private readonly options: ResolveLaunchOptions,
    private readonly inputs: InputCache,
  ) {}

  async render(path: readonly (string | number)[], template: string): Promise<string> {
    const field = formatJsonPath(path);
    const parsed = parseTemplate(template);
    if (!parsed.ok) {
      throw new McpConfigError("MCP_CONFIG_INVALID", `server "${this.server}", ${field}: ${parsed.problem} [placeholder]`, {
        data: { server: this.server, field },
        issues: [{ path: field, rule: "placeholder", message: parsed.problem }],
      });
    }
    let out = "";
    for (const part of parsed.parts) {
      if (part.kind === "text") out += part.value;
      else if (part.kind === "env") out += this.variable(part.name, part.fallback, field);
      else out += await this.input(part.id, field);
    }
    return out;
  }

  private variable(name: string, fallback: string | undefined, field: string): string {
    const value = this.options.env[name];
    if (value !== undefined && value !== "") {
      // Every value counts, except public variables (HOME, PATH, …, which every child gets anyway) and public shapes.
      if (isMaskedValue(name, value)) this.secrets.add(value);
      return value;
    }
    if (fallback !== undefined) return fallback;
    throw new McpConfigError(
      "MCP_CONFIG_MISSING_VARIABLE",
      `environment variable ${name} is not set (or empty); server "${this.server}" uses it in ${field}. Set it, or write \${${name}:-default} to allow a default`,
      { data: { server: this.server, field, variable: name } },
    );
  }

  private async input(id: string, field: string): Promise<string> {
    const definition = this.entry.inputs?.find((input) => input.id === id);
    if (!definition) {
      throw new McpConfigError("MCP_CONFIG_UNKNOWN_INPUT", `server "${this.server}" uses \${input:${id}} in ${field} but declares no input "${id}" in its "inputs"`, {
        data: { server: this.server, field, input: id },
      });
    }
    const value = await this.inputs.value(definition, this.server, this.options.promptInput, this.options.env);
    this.secrets.add(value);
    return value;
  }

  async record(base: "env" | "headers", values: Readonly<Record<string, string>> | undefined): Promise<Record<string, string>> {
    const out: [string, string][] = [];
    for (const [key, template] of Object.entries(values ?? {})) {
      const value = await this.render([base, key], template);
      out.push([key, value]);
      if (isMaskedValue(key, value, base === "env" ? "env" : "header")) this.secrets.add(value);
    }
    return Object.fromEntries(out);
  }
}

function limitsOf(entry: McpServerEntry): McpServerLimits {
  return {
    // npx/uvx/docker servers download themselves on their first start: a longer default.
    connectTimeoutMs: entry.connectTimeoutMs ?? defaultConnectTimeoutMs(entry),
    callTimeoutMs: entry.callTimeoutMs ?? DEFAULT_SERVER_LIMITS.callTimeoutMs,
    maxResponseBytes: entry.maxResponseBytes ?? DEFAULT_SERVER_LIMITS.maxResponseBytes,
  };
}

// Longest first, so a redactor replacing in order never leaves the tail of a longer secret behind.
function secretList(values: ReadonlySet<string>): string[] {
  return [...values].filter((value) => value !== "").sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
}

function checkUrl(server: string, template: string, url: string): void {
  let protocol = "";
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = "";
  }
  if (protocol !== "http:" && protocol !== "https:") {
    // The resolved URL may hold a secret, so only the template is shown.
    throw new McpConfigError("MCP_CONFIG_RESOLVED_URL_INVALID", `server "${server}": url "${template}" is not an absolute http:// or https:// URL once its variables are filled in`, {
      data: { server, url: template },
    });
  }
}

function workingDirectory(server: string, cwd: string, defaultCwd: string | undefined): string {
  if (isAbsolute(cwd)) return cwd;
  if (defaultCwd !== undefined) return resolve(defaultCwd, cwd);
  throw new McpConfigError("MCP_CONFIG_RELATIVE_PATH", `server "${server}": cwd "${cwd}" is relative; write an absolute path`, { data: { server, field: "cwd" } });
}

/**
 * Without a `cwd` the server starts in the config home, where `./server.js` is not the file the
 * person meant: refuse rather than run something else (or nothing) from there.
 */
function refuseRelativePaths(server: string, command: string, args: readonly string[]): void {
  const relative = firstRelativePath(command, args);
  if (relative === undefined) return;
  throw new McpConfigError(
    "MCP_CONFIG_RELATIVE_PATH",
    `server "${server}": ${relative.field} "${relative.value}" is a relative path, and the server has no "cwd" (servers never start in mcpvm's current directory). ` +
      `Write an absolute path, set "cwd" in its entry, or add it again from the right folder with \`mcpvm mcp add ${server} --overwrite -- …\` (relative paths are made absolute).`,
    { data: { server, field: relative.field } },
  );
}

async function resolveOAuth(oauth: NonNullable<McpServerEntry["oauth"]>, substituter: Substituter): Promise<McpResolvedOAuth> {
  const clientId = oauth.clientId === undefined ? undefined : await substituter.render(["oauth", "clientId"], oauth.clientId);
  const clientSecret = oauth.clientSecret === undefined ? undefined : await substituter.render(["oauth", "clientSecret"], oauth.clientSecret);
  const privateKey = oauth.privateKey === undefined ? undefined : await substituter.render(["oauth", "privateKey"], oauth.privateKey);
  const privateKeyFile = oauth.privateKeyFile === undefined ? undefined : await substituter.render(["oauth", "privateKeyFile"], oauth.privateKeyFile);
  // A client secret or key is a secret whatever its shape.
  if (clientSecret !== undefined) substituter.secrets.add(clientSecret);
  if (privateKey !== undefined) substituter.secrets.add(privateKey);
  const scopes = scopeString(oauth.scopes);
  return {
    ...(oauth.grant === "client_credentials" ? { grant: "client_credentials" as const } : {}),
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(privateKey === undefined ? {} : { privateKey }),
    ...(privateKeyFile === undefined ? {} : { privateKeyFile }),
    ...(oauth.signingAlgorithm === undefined ? {} : { signingAlgorithm: oauth.signingAlgorithm }),
    ...(oauth.issuer === undefined ? {} : { issuer: oauth.issuer }),
    ...(scopes === undefined ? {} : { scopes }),
    ...(oauth.callbackPort === undefined ? {} : { callbackPort: oauth.callbackPort }),
    ...(oauth.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: oauth.clientMetadataUrl }),
  };
}

/**
 * Turn a validated entry into exactly what the client manager launches: placeholders filled in
 * (command, args, env, cwd, url, headers), limits defaulted, and every value that must be
 * redacted listed in `secrets`. Nothing here is written anywhere.
 */
export async function resolveLaunch(name: string, entry: McpServerEntry, options: ResolveLaunchOptions): Promise<McpServerLaunch> {
  const substituter = new Substituter(name, entry, options, options.inputs ?? new InputCache());
  const limits = limitsOf(entry);
  const roots = entry.roots === undefined ? {} : { roots: entry.roots };
  if (entry.type === "stdio") {
    const command = await substituter.render(["command"], entry.command ?? "");
    const args: string[] = [];
    for (const [index, arg] of (entry.args ?? []).entries()) args.push(await substituter.render(["args", index], arg));
    const env = await substituter.record("env", entry.env);
    const cwd = entry.cwd === undefined ? undefined : workingDirectory(name, await substituter.render(["cwd"], entry.cwd), options.defaultCwd);
    if (entry.cwd === undefined) refuseRelativePaths(name, command, args);
    const startIn = cwd ?? options.defaultCwd;
    return {
      transport: "stdio",
      name,
      command,
      args,
      env,
      ...(startIn === undefined ? {} : { cwd: startIn }),
      limits,
      secrets: secretList(substituter.secrets),
      ...roots,
    };
  }
  const template = entry.url ?? "";
  const url = await substituter.render(["url"], template);
  checkUrl(name, template, url);
  const headers = await substituter.record("headers", entry.headers);
  const oauth = entry.oauth === undefined ? undefined : await resolveOAuth(entry.oauth, substituter);
  return { transport: entry.type, name, url, headers, ...(oauth === undefined ? {} : { oauth }), limits, secrets: secretList(substituter.secrets), ...roots };
}
