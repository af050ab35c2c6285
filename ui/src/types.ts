/** Shapes of the API's answers (src/ui/api/*). */
export interface ServerSummary {
  name: string;
  transport: "stdio" | "http" | "sse";
  enabled: boolean;
  description?: string;
  approval: string;
  state: string;
  detail?: string;
  next?: string;
  toolCount?: number;
  heldCount?: number;
  lastConnect?: { result: string; at: string; error?: { code: string; message: string } };
  /** The stored OAuth login of an http/sse server. */
  login?: LoginStatus;
  /** Whether the page offers "Log in" (an http/sse server using OAuth, see src/ui/api/servers.ts). */
  loginOffered?: boolean;
  /** The stored login in the CLI's words ("logged in to x as y (scopes …; expires in 59 min, refreshable)"). */
  loginLine?: string;
}

export interface LoginStatus {
  state: "none" | "valid" | "expired";
  expiresAt?: number;
  refreshable: boolean;
  scope?: string;
  subject?: string;
}

/** A login started from the page (src/ui/api/logins.ts). */
export interface LoginFlowView {
  server: string;
  state: "none" | "starting" | "waiting" | "done" | "failed" | "cancelled";
  url?: string;
  opened?: string;
  line?: string;
  status?: LoginStatus;
  error?: { code: string; message: string };
}

export interface StateAnswer {
  configFile: string;
  servers: ServerSummary[];
  mcpOff?: string;
}

export interface Finding {
  rule: string;
  family: string;
  severity: "info" | "warn" | "block";
  location: { tool?: string; field: string; jsonPath: string };
  evidence: string;
}

export interface HeldToolView {
  name: string;
  hash: string;
  reason: string;
  blocked: boolean;
  findings: Finding[];
  changes: Array<{ path: string; before: string; after: string }>;
  approved: unknown;
  current: unknown;
}

export interface ApprovalsAnswer {
  warning: string;
  launches: Array<{
    name: string;
    transport: string;
    enabled: boolean;
    approval: string;
    /** The definition's approval hash: an approval sends it back, so it approves what was shown. */
    hash: string;
    prompt: string;
    definition: Record<string, unknown>;
    launchFindings: Array<{ name: string }>;
  }>;
  held: Array<{ server: string; tools: HeldToolView[]; neverExposed: string[]; error?: { code: string; message: string } }>;
}

export interface ActivityRecord {
  at: string;
  face: string;
  /** The gateway client the call was made for. */
  client?: string;
  pid: number;
  server: string;
  tool: string;
  durationMs: number;
  outcome: "ok" | "isError" | "failed";
  errorCode?: string;
  args: string;
  truncated?: boolean;
}
