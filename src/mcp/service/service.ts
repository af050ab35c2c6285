import type { Tool } from "@modelcontextprotocol/client";
import { FileDigestCache, type ApprovalStatus } from "../approval/index.js";
import { ClientManager, type CallerOptions } from "../client-manager/index.js";
import { buildChildEnv, filterTools, InputCache, resolveLaunch, type McpServerEntry, type McpServers } from "../config/index.js";
import { maskedParts } from "../config/secret-values.js";
import { pinServer } from "../pins/index.js";
import { McpvmError } from "../../util/errors.js";
import { didYouMean } from "../../util/suggest.js";
import { approvalSubject } from "./approval-subject.js";
import { ApprovalGate } from "./approval-gate.js";
import { ApprovalRecheck } from "./approval-recheck.js";
import type { ServerCatalog } from "./catalog.js";
import { CatalogCache } from "./catalog-cache.js";
import { CatalogBuilder, type Listing } from "./catalog-builder.js";
import { LaunchPin } from "./launch-pin.js";
import { applyListingCaps, DEFAULT_LISTING_CAPS, type ListingCaps } from "./listing-caps.js";
import type { CallRateLimiter } from "./rate-limit.js";
import { CallSlots } from "./call-slots.js";
import { sortAcceptance, type ReviewedTool, type ToolAcceptance } from "./accept.js";
import { ServerStatusStore } from "./server-status.js";
import { ServerStatusTracker } from "./status-tracker.js";
import type { LoginInteraction, LoginStatus, RevocationOutcome } from "../oauth/index.js";
import { ServerLogins } from "./server-logins.js";
import { ServerApprovals } from "./server-approvals.js";
import { summarizeServers, type ServerSummary } from "./summaries.js";
import type { AuditEvent } from "../../audit-log/index.js";
import type { McpServiceOptions, ServerChange } from "./service-options.js";
import { recordCallActivity } from "./call-activity.js";

export type { ServerSummary } from "./summaries.js";
export type { McpServiceOptions } from "./service-options.js";

export class McpServiceError extends McpvmError<"MCP_SERVER_UNKNOWN" | "MCP_SERVER_DISABLED"> {
  override readonly name = "McpServiceError";
}

export { McpLoginUsageError } from "./server-logins.js";


/**
 * Everything MCP behind one object: approval before spawn, lazy connections, the trust decision
 * on every listing, and the catalogs the guest modules, the LLM tools and the gateway read. No face
 * talks to the client manager directly, so nothing bypasses approval or pins.
 */
export class McpService {
  readonly clients: ClientManager;
  private readonly inputs = new InputCache();
  private readonly listings = new Map<string, Listing>();
  private readonly catalogs = new CatalogCache();
  private readonly caps: ListingCaps;
  private readonly recheck: ApprovalRecheck<McpServerEntry>;
  private readonly approvalGate: ApprovalGate;
  private readonly slots: CallSlots;
  private readonly status: ServerStatusStore | undefined;
  private readonly tracker: ServerStatusTracker;
  private readonly launchPin: LaunchPin;
  private readonly logins: ServerLogins;
  private readonly approvalsOf: ServerApprovals;
  private readonly builder: CatalogBuilder;
  /** The configured servers: those of options.servers until a running gateway applies a config.json edit (reconfigure). */
  private servers: McpServers;
  /** Servers config.json no longer has, removed while this service ran: named as such when asked for. */
  private readonly removed = new Set<string>();

  constructor(private readonly options: McpServiceOptions) {
    this.servers = options.servers;
    this.caps = options.listingCaps ?? DEFAULT_LISTING_CAPS;
    this.launchPin = new LaunchPin({
      env: options.env,
      inputs: this.inputs,
      childCwd: options.childCwd,
      approvals: options.approvals,
      logger: options.logger,
      entry: (name) => this.entry(name),
      recordAudit: (event) => this.recordAudit(event),
      digests: new FileDigestCache(options.executableDigestsFile),
    });
    this.status = options.statusFile === undefined ? undefined : new ServerStatusStore(options.statusFile, (message) => options.logger.warn({ file: options.statusFile }, message));
    this.tracker = new ServerStatusTracker(this.status, (name) => (Object.hasOwn(this.servers, name) ? this.servers[name] : undefined), options.logger);
    const gate = new ApprovalGate((name) => options.approvals.require(approvalSubject(name, this.entry(name))));
    this.approvalGate = gate;
    this.recheck = new ApprovalRecheck({ file: options.approvals.file, check: (name) => gate.require(name) });
    this.slots = new CallSlots({
      recheck: this.recheck,
      entry: (name) => this.entry(name),
      callsPerSecond: options.callsPerSecond,
      now: options.now,
      revoked: async (name) => {
        this.catalogs.delete(name);
        if (this.clients.serverNames().includes(name)) await this.clients.close(name);
      },
    });
    this.approvalsOf = new ServerApprovals({
      approvals: options.approvals,
      launchPin: this.launchPin,
      recheck: this.recheck,
      env: options.env,
      entry: (name) => this.entry(name),
      disconnect: (name) => this.disconnect(name),
      recordAudit: (event) => this.recordAudit(event),
    });
    const resolvers: Record<string, () => Promise<import("../types.js").McpServerLaunch>> = {};
    for (const name of this.enabledServers()) resolvers[name] = () => this.launch(name);
    this.clients = new ClientManager({
      servers: resolvers,
      ...(options.clientLimits === undefined ? {} : { limits: options.clientLimits }),
      ...(options.spawn === undefined ? {} : { spawn: options.spawn }),
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
      ...(options.oauth === undefined ? {} : { login: (launch) => options.oauth?.driverFor(launch) }),
      childEnv: (launch) => buildChildEnv(options.env, launch.transport === "stdio" ? { ...launch.env } : {}),
      logger: { warn: (data: Record<string, unknown>, message: string) => options.logger.warn(data, message) },
      hooks: {
        // Checked again right before spawn, in case an approval was revoked while resolving.
        beforeConnect: async (launch) => gate.require(launch.name),
        onToolsListed: async (name, tools, identity) => this.onToolsListed(name, tools, identity.instructions),
        redact: (text) => options.redactor.redact(text),
      },
    });
    this.tracker.attach(this.clients);
    this.builder = new CatalogBuilder({
      connect: (name, caller) => this.clients.connect(name, caller),
      listing: (name) => this.listings.get(name),
      serverNames: () => this.serverNames(),
      pins: options.pins,
      secondOpinion: options.secondOpinion,
      redactor: options.redactor,
      logger: options.logger,
      recordAudit: (event) => this.recordAudit(event),
      connected: (name, counts) => this.tracker.connected(name, counts),
    });
    this.logins = new ServerLogins({
      oauth: options.oauth,
      env: options.env,
      inputs: this.inputs,
      approvals: options.approvals,
      entry: (name) => this.entry(name),
      connect: (name, caller) => this.catalog(name, caller),
      disconnect: (name) => this.disconnect(name),
      recordAudit: (event) => this.recordAudit(event),
    });
    this.clients.subscribe((event) => {
      if (event.type === "tools" || (event.type === "state" && event.state !== "connected")) this.catalogs.delete(event.server);
      if (event.type === "stderr") options.logger.debug({ server: event.server }, event.line);
      if (event.type === "call" && options.activity !== undefined) recordCallActivity(options.activity, options.redactor, event);
    });
  }

  serverNames(): string[] {
    return Object.keys(this.servers).sort();
  }

  enabledServers(): string[] {
    return this.serverNames().filter((name) => this.servers[name]?.enabled !== false);
  }

  entry(name: string): McpServerEntry {
    // Own names only: "constructor" or "__proto__" typed by a person is an unknown server, not Object's.
    const entry = Object.hasOwn(this.servers, name) ? this.servers[name] : undefined;
    if (entry === undefined && this.removed.has(name)) {
      throw new McpServiceError("MCP_SERVER_UNKNOWN", `MCP server "${name}" was removed from config.json while mcpvm was running; add it back there to use it again (configured: ${this.serverNames().join(", ") || "none"}).`, { data: { server: name } });
    }
    if (entry === undefined) {
      throw new McpServiceError("MCP_SERVER_UNKNOWN", `No MCP server named "${name}" is configured${didYouMean(name, this.serverNames())} (configured: ${this.serverNames().join(", ") || "none"}).`, { data: { server: name } });
    }
    return entry;
  }

  /** See ServerApprovals.status: "changed" also when the definition still runs a different program. */
  approvalStatus(name: string): Promise<ApprovalStatus> {
    return this.approvalsOf.status(name);
  }

  /** The exact text a person sees before approving (CLI, REPL and refusals to the model alike). */
  approvalPrompt(name: string): Promise<string> {
    return this.approvalsOf.prompt(name);
  }

  /** Stores the approval of the launch definition (code-loading variables need `acceptLaunchEnv`). */
  approve(name: string, options: { readonly acceptLaunchEnv?: boolean } = {}): Promise<void> {
    return this.approvalsOf.approve(name, options);
  }

  /** Revoking disconnects at once; nothing reconnects without a new approval. */
  revoke(name: string): Promise<boolean> {
    return this.approvalsOf.revoke(name);
  }

  /**
   * Accept held tools (changed, new, or with findings) as the person reviewed them: each is pinned only
   * if its definition still has the hash that was shown, so a server that changes it again while the
   * prompt is open gets nothing accepted. A tool with a block-level finding is accepted only when named
   * in `acceptBlocked`; one whose name holds control characters never is (see sortAcceptance). Server
   * instructions are not re-trusted as a side effect.
   */
  async acceptTools(name: string, reviewed: readonly ReviewedTool[], options: { readonly acceptBlocked?: Iterable<string> } = {}): Promise<ToolAcceptance> {
    const listing = this.listings.get(name);
    const outcome = sortAcceptance({
      listing: listing?.tools ?? [],
      lastHeld: this.builder.lastHeld(name),
      reviewed,
      acceptBlocked: new Set(options.acceptBlocked ?? []),
    });
    // The audit entry first, the pin second: a log that cannot be written leaves the tool held, never
    // callable with no entry (as approvals do; SECURITY.md, "The audit log").
    if (reviewed.length > 0) {
      await this.recordAudit({
        event: "mcp.tool.accept",
        subject: name,
        decision: outcome.accepted.length > 0 ? "accepted" : "none-accepted",
        details: { accepted: [...outcome.accepted], ...Object.fromEntries(Object.entries(outcome).filter(([key, value]) => key !== "accepted" && Array.isArray(value) && value.length > 0)) },
      });
    }
    if (listing !== undefined && outcome.accepted.length > 0) await this.options.pins.accept(name, pinServer(listing.instructions, listing.tools), outcome.accepted);
    this.catalogs.delete(name);
    return outcome;
  }

  /**
   * A tool as the server last listed it (after filters and caps), masked like everything shown:
   * the "new" side of a held tool's diff in the dashboard. Undefined when not listed in this process.
   */
  listedTool(name: string, tool: string): Tool | undefined {
    const found = this.listings.get(name)?.tools.find((t) => t.name === tool);
    return found === undefined ? undefined : this.options.redactor.redactValue(found);
  }

  /** Every server's state (live here, else as last recorded by any process), tool counts, and what to do next. Starts nothing. */
  async summaries(): Promise<ServerSummary[]> {
    return summarizeServers({
      names: this.serverNames(),
      entry: (name) => this.entry(name),
      approvalStatus: (name) => this.approvalStatus(name),
      live: (name) => (this.entry(name).enabled && this.clients.serverNames().includes(name) ? this.clients.status(name) : undefined),
      catalog: async (name) => {
        const catalog = this.catalogs.has(name) ? await this.catalogs.get(name)?.catch(() => undefined) : undefined;
        return catalog === undefined ? undefined : { tools: catalog.tools.length, held: catalog.held.length };
      },
      pins: this.options.pins,
      status: this.status,
      env: this.options.env,
      answered: (id) => this.inputs.has(id),
      login: (name) => this.loginStatus(name),
    });
  }

  /** Connects if needed (approval first), lists, decides trust. Shared by concurrent callers. */
  async catalog(name: string, caller: CallerOptions = {}): Promise<ServerCatalog> {
    const entry = this.entry(name);
    if (!entry.enabled) {
      throw new McpServiceError("MCP_SERVER_DISABLED", `MCP server "${name}" is disabled; enable it with \`mcpvm mcp enable ${name}\` (or /mcp enable ${name}).`, { data: { server: name } });
    }
    let pending = this.catalogs.get(name);
    if (pending === undefined) {
      pending = this.builder.build(name, entry, caller);
      this.catalogs.set(name, pending);
    }
    return pending;
  }

  /**
   * The server's current catalog if it is built and nothing has made it stale since (what `catalog`
   * would resolve to at once); undefined otherwise, and then `catalog` builds or waits. Lets a tool
   * call check the current catalog on every call without a turn of the event loop.
   */
  currentCatalog(name: string): ServerCatalog | undefined {
    return this.catalogs.settled(name);
  }

  /** Before every tool call (see CallSlots): the approval re-checked, then any opt-in rate limit. */
  acquireCallSlot(name: string, caller: CallerOptions): Promise<void> {
    return this.slots.acquire(name, caller);
  }

  /** True when a call may go ahead without awaiting `acquireCallSlot` (see CallSlots.free). */
  callSlotFree(name: string): boolean {
    return this.slots.free(name);
  }

  /** Appends to the audit log (when there is one). Names and decisions only: callers never pass arguments or results. */
  async recordAudit(event: AuditEvent): Promise<void> {
    await this.options.audit?.record(event);
  }

  /** The server's rate limiter, which exists only once a call met an opt-in `callsPerSecond`. */
  rateLimiter(name: string): CallRateLimiter | undefined {
    return this.slots.rateLimiter(name);
  }

  async close(): Promise<void> {
    await this.clients.closeAll();
    await this.tracker.flush();
    await this.options.activity?.log.close();
    await this.options.oauth?.dispose();
  }

  /**
   * Applies a config.json edit while running (the gateway's follower): removed and changed servers
   * are taken out at once and closed once their calls in flight finish (`drainMs` at most); added
   * and changed ones are served from their next use, approval first, as at start. `servers` keeps
   * the entry objects of unchanged servers (see mergeEntries), whose connections are not touched.
   * Resolves when the servers taken out are closed.
   */
  reconfigure(servers: McpServers, change: ServerChange, drainMs: number): Promise<void> {
    this.servers = servers;
    const closing: Promise<void>[] = [];
    for (const name of [...change.removed, ...change.changed]) {
      this.catalogs.delete(name);
      this.listings.delete(name);
      if (this.clients.serverNames().includes(name)) closing.push(this.clients.retire(name, drainMs));
    }
    for (const name of change.removed) this.removed.add(name);
    for (const name of [...change.added, ...change.changed]) {
      this.removed.delete(name);
      if (servers[name]?.enabled !== false) this.clients.setServer(name, () => this.launch(name));
    }
    return Promise.all(closing).then(() => undefined);
  }

  /** Drops the server's catalog and closes its connection; the next use connects afresh. */
  private async disconnect(name: string): Promise<void> {
    this.catalogs.delete(name);
    if (this.clients.serverNames().includes(name)) await this.clients.close(name);
  }

  /** `mcpvm mcp login`: see ServerLogins. */
  login(name: string, interaction: LoginInteraction, caller: CallerOptions = {}): Promise<LoginStatus> {
    return this.logins.login(name, interaction, caller);
  }

  /** `mcpvm mcp logout`: disconnects, removes the tokens, and revokes them where the server supports it. */
  logout(name: string): Promise<RevocationOutcome | undefined> {
    return this.logins.logout(name);
  }

  /** The stored login of an http/sse server ("none" for stdio servers and servers never logged in). */
  loginStatus(name: string): Promise<LoginStatus> {
    return this.logins.status(name);
  }

  /** Lets the face open a browser for logins that servers ask for during connects and calls (`--login`, a yes on a terminal). */
  setLoginInteraction(interaction: LoginInteraction | undefined): void {
    this.logins.setInteraction(interaction);
  }

  private async launch(name: string) {
    const entry = this.entry(name);
    // Approval before anything else: before ${input:…} prompts, before spawn, before any URL is contacted.
    await this.approvalGate.require(name);
    const launch = await resolveLaunch(name, entry, {
      env: this.options.env,
      inputs: this.inputs,
      ...(this.options.promptInput === undefined ? {} : { promptInput: this.options.promptInput }),
      ...(this.options.childCwd === undefined ? {} : { defaultCwd: this.options.childCwd }),
    });
    // "Bearer <token>" is the configured value, but the token alone can appear too (echoed, logged).
    this.options.redactor.add(launch.secrets.flatMap(maskedParts));
    // What is spawned: an npx package left open in the arguments runs at its approved version.
    return this.launchPin.requireSame(name, launch);
  }

  private async onToolsListed(name: string, tools: readonly Tool[], instructions: string | undefined): Promise<readonly Tool[]> {
    const entry = this.entry(name);
    const filtered = filterTools(tools, { ...(entry.allowTools === undefined ? {} : { allowTools: entry.allowTools }), ...(entry.denyTools === undefined ? {} : { denyTools: entry.denyTools }) });
    const { kept, dropped } = applyListingCaps(name, filtered.tools, this.caps);
    for (const d of dropped) this.options.logger.warn({ server: name, tool: d.name, rule: d.rule }, `MCP tool dropped: ${d.message}`);
    this.listings.set(name, { tools: kept, instructions, hidden: filtered.hidden, unmatched: [...filtered.unmatchedAllow, ...filtered.unmatchedDeny], dropped });
    this.catalogs.delete(name);
    return kept;
  }
}
