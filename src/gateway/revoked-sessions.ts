import type { Logger } from "pino";
import { errorMessage } from "../util/errors.js";
import type { RequestAuthenticator } from "./clients/authenticate.js";

/**
 * The 2025-era sessions opened with a named client token, checked every second against the tokens
 * the home holds now: a revoked (or replaced) token's sessions are closed, notification streams
 * included. Without this its open GET stream kept delivering log messages and updates after the
 * revocation, since only new requests are authenticated. One `stat` per check while such sessions live.
 */
export class RevokedSessions {
  private readonly byId = new Map<string, string>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly authenticator: Pick<RequestAuthenticator, "clientCredentials">,
    private readonly logger: Logger,
    /** Closes the session (the pool, owner and transport); this class has already forgotten it. */
    private readonly close: (id: string) => void,
    intervalMs = 1_000,
    /** What the log line says was closed, and under which key its id is logged: sessions, or the HTTP server's open responses. */
    private readonly what: { readonly key: string; readonly noun: string } = { key: "session", noun: "client session" },
  ) {
    this.timer = setInterval(() => void this.check().catch((error: unknown) => this.logger.warn({}, `revoked client tokens not checked: ${errorMessage(error)}`)), intervalMs);
    this.timer.unref();
  }

  track(id: string, credential: string): void {
    this.byId.set(id, credential);
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async check(): Promise<void> {
    if (this.byId.size === 0 || this.authenticator.clientCredentials === undefined) return;
    const valid = await this.authenticator.clientCredentials();
    for (const [id, credential] of this.byId) {
      if (valid.has(credential)) continue;
      this.byId.delete(id);
      this.logger.info({ [this.what.key]: id }, `${this.what.noun} closed: its client token was revoked`);
      this.close(id);
    }
  }
}
