import type { AuditEvent } from "../../audit-log/index.js";
import { McpvmError } from "../../util/errors.js";
import type { McpApprovalStore } from "../approval/index.js";
import type { CallerOptions } from "../client-manager/index.js";
import { resolveLaunch, type InputCache, type McpServerEntry } from "../config/index.js";
import type { LoginInteraction, LoginStatus, LoginTarget, OAuthLogins, RevocationOutcome } from "../oauth/index.js";
import { approvalSubject } from "./approval-subject.js";

export class McpLoginUsageError extends McpvmError<"USAGE"> {}

export interface ServerLoginsDeps {
  readonly oauth: OAuthLogins | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly inputs: InputCache;
  readonly approvals: McpApprovalStore;
  readonly entry: (name: string) => McpServerEntry;
  /** Connects (and lists) the server, which is when the SDK's OAuth flow runs. */
  readonly connect: (name: string, caller: CallerOptions) => Promise<unknown>;
  /** Drops the server's catalog and connection, so the next use connects again under the new login. */
  readonly disconnect: (name: string) => Promise<void>;
  readonly recordAudit: (event: AuditEvent) => Promise<void>;
}

/**
 * Logins to http/sse servers (`mcpvm mcp login/logout`, the dashboard's buttons): approval first, as
 * for every contact with the server's URL; every login and logout goes to the audit log, never a token.
 */
export class ServerLogins {
  constructor(private readonly deps: ServerLoginsDeps) {
    deps.oauth?.onLoginEvent((event) =>
      deps.recordAudit({
        event: "login",
        subject: event.server,
        decision: event.decision,
        details: { ...(event.subject === undefined ? {} : { account: event.subject }), ...(event.scopes === undefined ? {} : { scopes: event.scopes }), ...(event.reason === undefined ? {} : { reason: event.reason }) },
      }),
    );
  }

  /** Forgets the stored tokens and connects, so the SDK's flow runs with the browser the face gives. */
  async login(name: string, interaction: LoginInteraction, caller: CallerOptions = {}): Promise<LoginStatus> {
    const entry = this.deps.entry(name);
    const oauth = this.requireRemote(name, entry);
    await this.deps.approvals.require(approvalSubject(name, entry));
    await this.deps.disconnect(name);
    const replaced = await oauth.forgetTokens(name);
    const previous = oauth.currentInteraction();
    oauth.setInteraction(interaction);
    try {
      await this.deps.connect(name, caller);
    } catch (error) {
      await oauth.restoreLogin(name, replaced);
      throw error;
    } finally {
      oauth.setInteraction(previous);
    }
    return this.status(name);
  }

  /** Disconnects, removes the tokens, and revokes them where the server supports it. */
  async logout(name: string): Promise<RevocationOutcome | undefined> {
    const entry = this.deps.entry(name);
    const oauth = this.requireRemote(name, entry);
    await this.deps.disconnect(name);
    const outcome = await oauth.logout(name, await this.target(name, entry));
    const revocation = outcome === undefined ? "none" : typeof outcome === "string" ? outcome : "failed";
    await this.deps.recordAudit({ event: "logout", subject: name, decision: outcome === undefined ? "no-login" : "logged-out", details: { revocation } });
    return outcome;
  }

  /** The stored login of an http/sse server ("none" for stdio servers and servers never logged in). */
  async status(name: string): Promise<LoginStatus> {
    const entry = this.deps.entry(name);
    if (entry.type === "stdio" || this.deps.oauth === undefined) return { state: "none", refreshable: false };
    return this.deps.oauth.status(name, await this.target(name, entry));
  }

  /** Lets the face open a browser for logins that servers ask for during connects and calls. */
  setInteraction(interaction: LoginInteraction | undefined): void {
    this.deps.oauth?.setInteraction(interaction);
  }

  private requireRemote(name: string, entry: McpServerEntry): OAuthLogins {
    if (entry.type === "stdio") throw new McpLoginUsageError("USAGE", `server ${name} is a stdio server; login applies to http and sse servers only.`, { data: { server: name } });
    if (this.deps.oauth === undefined) throw new Error("internal: no OAuth logins configured");
    return this.deps.oauth;
  }

  /** The URL and client id the login is bound to, with ${VAR} filled in from the environment (nothing is prompted for). */
  private async target(name: string, entry: McpServerEntry): Promise<LoginTarget> {
    try {
      const launch = await resolveLaunch(name, entry, { env: this.deps.env, inputs: this.deps.inputs });
      if (launch.transport !== "stdio") {
        return {
          url: launch.url,
          ...(launch.oauth?.clientId === undefined ? {} : { clientId: launch.oauth.clientId }),
          ...(launch.oauth?.clientSecret === undefined ? {} : { clientSecret: launch.oauth.clientSecret }),
          ...(launch.oauth?.grant === undefined ? {} : { grant: launch.oauth.grant }),
        };
      }
    } catch {
      // An unset variable or an unanswered input: the status reads "none".
    }
    return { url: entry.url ?? "" };
  }
}
