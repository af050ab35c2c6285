import { randomBytes } from "node:crypto";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { assertConfigHomeSecure, describeHomeProblems, HomeSecurityError, readOwnFile } from "../config/home-security.js";
import { STATE_FILE_LIMITS } from "../util/state-file-limits.js";
import { writeFileAtomic } from "../util/atomic-file.js";
import { withFileLock } from "../util/file-lock.js";
import { GatewayError } from "./errors.js";

/**
 * The HTTP gateway's bearer token. Loopback is not "only this person" on a machine with several
 * accounts, so a token is required by default: kept 0600 in the config home (made at the first
 * `serve --http`, printed once), or given as a file or in the environment; argv shows in `ps` and
 * only gets a warning. `--no-auth` is the explicit, loopback-only way out.
 */
export const GATEWAY_TOKEN_FILE_NAME = "gateway-token";

/** Shorter tokens are refused: the token is the only thing between other local accounts and your servers. */
export const MIN_TOKEN_LENGTH = 16;

export type TokenSource = "argv" | "token-file" | "env" | "home";

export interface GatewayAuth {
  /** undefined only with --no-auth. */
  readonly token: string | undefined;
  readonly source: TokenSource | "none";
  /** The file the token came from (token-file, home). */
  readonly file?: string;
  /** The home token was made just now (print it once). */
  readonly created?: boolean;
  /** What the person should know (argv token visible in ps, --no-auth, a token file others can read). */
  readonly warnings: readonly string[];
}

export interface TokenRequest {
  readonly home: string;
  readonly argvToken?: string;
  readonly tokenFile?: string;
  readonly envToken?: string;
  readonly noAuth?: boolean;
}

function checkedToken(token: string, where: string): string {
  const trimmed = token.trim();
  if (trimmed.length < MIN_TOKEN_LENGTH || /\s/.test(trimmed)) {
    throw new GatewayError("GATEWAY_TOKEN_INVALID", `the gateway token from ${where} must be at least ${MIN_TOKEN_LENGTH} characters without spaces; make one with: openssl rand -hex 32`, {
      data: { where },
    });
  }
  return trimmed;
}

/**
 * Who else may read a token file, if anyone. Group read is fine when the group is the gateway's own
 * (a Kubernetes Secret mounted with fsGroup is root:<pod group> 0440: nobody else is in that group).
 */
export function tokenFileReadableBy(mode: number, fileGid: number, ownGid: number | undefined): string | undefined {
  if ((mode & 0o004) !== 0) return "every user";
  if ((mode & 0o040) !== 0 && fileGid !== ownGid) return "other users (its group)";
  return undefined;
}

/** A token file the person names: theirs, not writable by others (who could set a token they know). */
export async function readTokenFile(file: string): Promise<{ token: string; warnings: string[] }> {
  const read = await readOwnFile(file, STATE_FILE_LIMITS.secretLine).catch((error: unknown) => {
    throw new GatewayError("GATEWAY_TOKEN_INVALID", `cannot read the token file ${file}: ${(error as Error).message}`, { data: { file } });
  });
  if (read === undefined) throw new GatewayError("GATEWAY_TOKEN_INVALID", `the token file ${file} does not exist`, { data: { file } });
  if ("problem" in read) throw new GatewayError("GATEWAY_TOKEN_INVALID", `the token file ${file} ${read.problem.problem}; fix: ${read.problem.fix}`, { data: { file } });
  const token = checkedToken(read.text.split("\n")[0] ?? "", file);
  const info = await stat(file);
  const readers = tokenFileReadableBy(info.mode, info.gid, process.getgid?.());
  return { token, warnings: readers === undefined ? [] : [`the token file ${file} is readable by ${readers} (mode ${(info.mode & 0o777).toString(8)}); fix: chmod 600 ${file}`] };
}

/** The home's token, made (random, 0600) when there is none yet. */
export async function ensureHomeToken(home: string): Promise<{ token: string; file: string; created: boolean }> {
  await assertConfigHomeSecure(home);
  const file = join(home, GATEWAY_TOKEN_FILE_NAME);
  return withFileLock(file, async () => {
    const read = await readOwnFile(file, STATE_FILE_LIMITS.secretLine);
    if (read !== undefined && "problem" in read) throw new HomeSecurityError("CONFIG_HOME_INSECURE", describeHomeProblems(home, [read.problem]), { data: { home } });
    if (read !== undefined) return { token: checkedToken(read.text, file), file, created: false };
    const token = randomBytes(32).toString("base64url");
    await writeFileAtomic(file, `${token}\n`, 0o600);
    return { token, file, created: true };
  });
}

/** Which token the HTTP gateway requires, in order: --token-file, --token, MCPVM_GATEWAY_TOKEN, the home's. */
export async function resolveGatewayAuth(request: TokenRequest): Promise<GatewayAuth> {
  const given = [request.argvToken !== undefined && "--token", request.tokenFile !== undefined && "--token-file", request.noAuth === true && "--no-auth"].filter(Boolean);
  if (given.length > 1) throw new GatewayError("GATEWAY_TOKEN_CONFLICT", `${given.join(" and ")} contradict each other; give one`, { data: { given } });
  if (request.noAuth === true) {
    return { token: undefined, source: "none", warnings: ["--no-auth: every account and process on this machine can use the gateway, and your servers through it"] };
  }
  if (request.tokenFile !== undefined) {
    const { token, warnings } = await readTokenFile(request.tokenFile);
    return { token, source: "token-file", file: request.tokenFile, warnings };
  }
  if (request.argvToken !== undefined) {
    return {
      token: checkedToken(request.argvToken, "--token"),
      source: "argv",
      warnings: ["--token on the command line is visible to every account on this machine (ps); use --token-file <file> or MCPVM_GATEWAY_TOKEN"],
    };
  }
  if (request.envToken !== undefined && request.envToken !== "") return { token: checkedToken(request.envToken, "MCPVM_GATEWAY_TOKEN"), source: "env", warnings: [] };
  const made = await ensureHomeToken(request.home);
  return { token: made.token, source: "home", file: made.file, created: made.created, warnings: [] };
}
