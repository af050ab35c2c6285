import type { Tool } from "@modelcontextprotocol/client";
import type { Logger } from "pino";
import type { AuditEvent } from "../../audit-log/index.js";
import type { Redactor } from "../../logging/redact.js";
import { displayInline } from "../../terminal/display.js";
import { descriptionForModel } from "../approval/index.js";
import type { AuditedTool, Finding } from "../audit/index.js";
import type { CallerOptions, ConnectedServer } from "../client-manager/index.js";
import type { McpServerEntry } from "../config/index.js";
import { comparePins, type McpPinStore, type ServerPins } from "../pins/index.js";
import { CompiledTypesCache } from "../type-generator/index.js";
import { ServerCatalog } from "./catalog.js";
import type { CappedTool } from "./listing-caps.js";
import type { SecondOpinionReviewer } from "./second-opinion.js";
import { decideTrust, type HeldTool } from "./trust.js";

/** A server's tools/list as kept after its filters and caps (what the trust decision reads). */
export interface Listing {
  readonly tools: readonly Tool[];
  readonly instructions: string | undefined;
  readonly hidden: readonly string[];
  readonly unmatched: readonly string[];
  readonly dropped: readonly CappedTool[];
}

export interface CatalogBuilderDeps {
  readonly connect: (name: string, caller: CallerOptions) => Promise<ConnectedServer>;
  readonly listing: (name: string) => Listing | undefined;
  readonly serverNames: () => readonly string[];
  readonly pins: McpPinStore;
  readonly secondOpinion: SecondOpinionReviewer | undefined;
  readonly redactor: Redactor;
  readonly logger: Logger;
  readonly recordAudit: (event: AuditEvent) => Promise<void>;
  readonly connected: (name: string, counts: { toolCount: number; heldCount: number }) => void;
}

/**
 * A connected server's catalog: the trust decision on its listing (pins, audit, the optional second
 * opinion, other servers' tool names for shadowing), held tools logged and recorded, and everything
 * shown onwards masked of secrets.
 */
export class CatalogBuilder {
  private readonly typesCache = new CompiledTypesCache();
  /** Each server's held tools as last decided (unmasked): the findings acceptTools goes by. */
  private readonly held = new Map<string, readonly HeldTool[]>();
  private readonly heldRecorded = new Set<string>();

  constructor(private readonly deps: CatalogBuilderDeps) {}

  lastHeld(name: string): readonly HeldTool[] {
    return this.held.get(name) ?? [];
  }

  async build(name: string, entry: McpServerEntry, caller: CallerOptions): Promise<ServerCatalog> {
    const { capabilities } = await this.deps.connect(name, caller);
    const listing = this.deps.listing(name);
    if (listing === undefined) throw new Error(`internal: no listing recorded for ${name}`);
    const pins = await this.deps.pins.get(name);
    const decision = decideTrust({
      server: name,
      instructions: listing.instructions,
      tools: listing.tools,
      pins,
      extraFindings: await this.secondOpinions(listing.tools, pins, caller),
      otherServers: this.deps
        .serverNames()
        .filter((other) => other !== name)
        .map((other) => ({ name: other, toolNames: [...(this.deps.listing(other)?.tools.map((t) => t.name) ?? [])] })),
    });
    if (decision.pinsToRecord !== undefined) await this.deps.pins.set(name, decision.pinsToRecord);
    this.held.set(name, decision.held);
    this.deps.connected(name, { toolCount: decision.trusted.length, heldCount: decision.held.length });
    // A server knows its own env and can echo a secret in a name, description, enum or default.
    // Audit and pins saw the original; everything shown onwards (declarations, `mcp info`, the
    // model, logs) gets the masked copy. A tool whose very name holds a secret is then uncallable.
    const mask = <T>(value: T): T => this.deps.redactor.redactValue(value);
    const held = mask(decision.held);
    // Log lines reach a terminal too (stderr): a server's tool name is escaped like everything shown.
    for (const h of held) this.deps.logger.warn({ server: name, tool: displayInline(h.name), reason: h.reason }, `MCP tool held: ${name}.${displayInline(h.name)} (${h.reason})`);
    await this.recordHeld(name, held);
    const instructions = decision.instructionsTrusted ? listing.instructions : undefined;
    return new ServerCatalog(
      {
        server: name,
        // A catalog exists only for an approved server; a description with block-level findings never reaches the model.
        description: descriptionForModel(entry.description, "approved"),
        instructions: instructions === undefined ? undefined : this.deps.redactor.redact(instructions),
        ...(decision.heldInstructions === undefined ? {} : { heldInstructions: mask(decision.heldInstructions) }),
        trusted: mask(decision.trusted),
        held,
        dropped: mask(listing.dropped),
        hiddenByFilters: mask(listing.hidden),
        unmatchedFilters: mask(listing.unmatched),
        capabilities,
      },
      this.typesCache,
    );
  }

  /** Only definitions not already pinned as approved are reviewed: the LLM is not asked twice about the same text. */
  private async secondOpinions(tools: readonly Tool[], pins: ServerPins | undefined, caller: CallerOptions): Promise<Finding[]> {
    const reviewer = this.deps.secondOpinion;
    if (reviewer === undefined) return [];
    const unchanged = new Set(comparePins(pins, undefined, tools).unchanged);
    const pending = tools.filter((tool) => !unchanged.has(tool.name));
    // The listing, so the reviewer's verdict is weighed as the rules read it (a server ordering its own tools is not steering).
    const own = new Set(tools.map((tool) => tool.name));
    const findings: Finding[] = [];
    for (let i = 0; i < pending.length; i += 4) {
      const batch = await Promise.all(pending.slice(i, i + 4).map((tool) => reviewer(tool as AuditedTool, caller.signal, own)));
      for (const finding of batch) if (finding !== undefined) findings.push(finding);
    }
    return findings;
  }

  /** Each held tool once per process and reason: a catalog rebuilt ten times is not ten decisions. */
  private async recordHeld(server: string, held: readonly HeldTool[]): Promise<void> {
    for (const tool of held) {
      const key = JSON.stringify([server, tool.name, tool.reason, tool.hash]);
      if (this.heldRecorded.has(key)) continue;
      this.heldRecorded.add(key);
      await this.deps.recordAudit({ event: "mcp.tool.held", subject: server, decision: "held", details: { tool: tool.name, reason: tool.reason, hash: tool.hash } }).catch((error: unknown) =>
        this.deps.logger.warn({ server }, `could not record a held tool in the audit log: ${(error as Error).message}`),
      );
    }
  }
}
