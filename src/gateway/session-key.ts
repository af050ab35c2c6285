import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { readOwnFile } from "../config/home-security.js";
import { StateFileTooLargeError } from "../util/own-file.js";
import { STATE_FILE_LIMITS } from "../util/state-file-limits.js";
import { writeFileAtomic } from "../util/atomic-file.js";
import { withFileLock } from "../util/file-lock.js";
import { GatewayError } from "./errors.js";

/** The key replicas sign session ids with: in the shared config home, or a mounted secret. */
export const SESSION_KEY_FILE_NAME = "gateway-session-key";
const MIN_KEY_BYTES = 32;

export interface SessionKey {
  readonly key: Buffer;
  readonly source: "env" | "home" | "process";
  /** Why sessions are bound to this replica, when the key could not be shared. */
  readonly warning?: string;
}

function decode(text: string, where: string): Buffer {
  const key = Buffer.from(text.trim(), "base64url");
  if (key.length < MIN_KEY_BYTES) {
    throw new GatewayError("GATEWAY_TOKEN_INVALID", `the session key from ${where} must hold at least ${MIN_KEY_BYTES} bytes (base64url); make one with: openssl rand -base64 48 | tr '+/' '-_' | tr -d '='`, { data: { where } });
  }
  return key;
}

/**
 * MCPVM_GATEWAY_SESSION_KEY, else <home>/gateway-session-key (made, 0600, by the first replica that
 * finds none). A home that cannot be written (read-only mount without the file) gets a key of this
 * process only, with a warning: 2025-era sessions then work only on the replica that began them.
 */
export async function resolveSessionKey(home: string, env: Readonly<Record<string, string | undefined>>): Promise<SessionKey> {
  const fromEnv = env.MCPVM_GATEWAY_SESSION_KEY;
  if (fromEnv !== undefined && fromEnv !== "") return { key: decode(fromEnv, "MCPVM_GATEWAY_SESSION_KEY"), source: "env" };
  const file = join(home, SESSION_KEY_FILE_NAME);
  try {
    const existing = await readOwnFile(file, STATE_FILE_LIMITS.secretLine);
    if (existing !== undefined && "problem" in existing) throw new GatewayError("GATEWAY_TOKEN_INVALID", `${file} ${existing.problem.problem}; fix: ${existing.problem.fix}`, { data: { file } });
    if (existing !== undefined) return { key: decode(existing.text, file), source: "home" };
    return await withFileLock(file, async () => {
      const again = await readOwnFile(file, STATE_FILE_LIMITS.secretLine);
      if (again !== undefined && !("problem" in again)) return { key: decode(again.text, file), source: "home" as const };
      const key = randomBytes(MIN_KEY_BYTES);
      await writeFileAtomic(file, `${key.toString("base64url")}\n`, 0o600);
      return { key, source: "home" as const };
    });
  } catch (error) {
    // A key file grown past a line is refused (exit 3), not replaced by a key of this process only.
    if (error instanceof GatewayError || error instanceof StateFileTooLargeError) throw error;
    return {
      key: randomBytes(MIN_KEY_BYTES),
      source: "process",
      warning: `cannot read or make ${file} (${(error as Error).message}); 2025-era sessions will work only on this replica. Mount a shared key there or set MCPVM_GATEWAY_SESSION_KEY.`,
    };
  }
}
