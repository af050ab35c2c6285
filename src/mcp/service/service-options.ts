import type { Logger } from "pino";
import type { ActivityLog } from "../../logging/activity-log.js";
import type { Redactor } from "../../logging/redact.js";
import type { AuditSink } from "../../audit-log/index.js";
import type { McpApprovalStore } from "../approval/index.js";
import type { ClientManagerLimitsInput, SpawnFunction } from "../client-manager/index.js";
import type { McpServers, PromptInput } from "../config/index.js";
import type { OAuthLogins } from "../oauth/index.js";
import type { McpPinStore } from "../pins/index.js";
import type { ListingCaps } from "./listing-caps.js";
import type { SecondOpinionReviewer } from "./second-opinion.js";

export interface McpServiceOptions {
  /** Every configured server (validated); disabled ones are listed but never started. */
  readonly servers: McpServers;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly approvals: McpApprovalStore;
  readonly pins: McpPinStore;
  readonly redactor: Redactor;
  readonly logger: Logger;
  /** Asks the person for a VS Code `${input:id}` value; absent where nothing can ask. */
  readonly promptInput?: PromptInput;
  readonly clientLimits?: ClientManagerLimitsInput;
  readonly listingCaps?: ListingCaps;
  /** Opt-in: tool calls per second per server. Unset: no rate limit (the run's toolCalls budget bounds loops). */
  readonly callsPerSecond?: number | undefined;
  /** The optional LLM second opinion on new and changed tool definitions (off unless configured). */
  readonly secondOpinion?: SecondOpinionReviewer;
  readonly spawn?: SpawnFunction;
  readonly now?: () => number;
  /** Where stdio servers without a `cwd` start (the config home); never the caller's working directory. */
  readonly childCwd?: string;
  /** server-status.json: each server's last connect result is recorded there for `mcp list` and `doctor`. */
  readonly statusFile?: string;
  /** Where sha256 digests of server executables are cached across processes (<config home>/exec-digests.json). */
  readonly executableDigestsFile?: string;
  /** config.json, named in messages that say which setting to change. */
  readonly configFile?: string;
  /** The shared log of tool calls (<config home>/activity.jsonl) and which face this process is. */
  readonly activity?: { readonly log: ActivityLog; readonly face: () => string };
  /** Approvals, revocations, held and accepted tools, confirmations and flow decisions are recorded here. */
  readonly audit?: AuditSink;
  /** OAuth logins of http/sse servers (oauth-tokens.json); without it no server can log in. */
  readonly oauth?: OAuthLogins;
}

/** Which configured servers a config.json edit added, removed and changed (the gateway's src/gateway/config-diff.ts works it out). */
export interface ServerChange {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}
