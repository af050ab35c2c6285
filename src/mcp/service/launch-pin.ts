import type { Logger } from "pino";
import type { AuditEvent } from "../../audit-log/index.js";
import { compareLaunchTargets, describeLaunchTarget, lacksDigests, McpApprovalError, pinNpxSpec, resolveLaunchTarget, withDigests, type FileDigestCache, type LaunchTarget, type McpApprovalStore } from "../approval/index.js";
import { buildChildEnv, resolveLaunch, type InputCache, type McpServerEntry } from "../config/index.js";
import type { McpServerLaunch } from "../types.js";
import { approvalSubject } from "./approval-subject.js";
import { defaultServerCwd } from "../../util/user-home.js";

/** The launch with an npx package the arguments leave open pinned to the approved version (unchanged otherwise). */
export function pinnedLaunch(launch: McpServerLaunch, approved: LaunchTarget): McpServerLaunch {
  const pkg = approved.package;
  if (launch.transport !== "stdio" || pkg?.runner !== "npx" || pkg.version === undefined) return launch;
  const args = pinNpxSpec(launch.args, pkg.name, pkg.version);
  return args === undefined ? launch : { ...launch, args: [...args] };
}

export interface LaunchPinDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly inputs: InputCache;
  readonly childCwd: string | undefined;
  readonly approvals: McpApprovalStore;
  readonly logger: Logger;
  readonly entry: (name: string) => McpServerEntry;
  readonly recordAudit: (event: AuditEvent) => Promise<void>;
  /** sha256 of executables, cached by file identity (see file-digest.ts). */
  readonly digests: FileDigestCache;
}

/**
 * What a stdio server's launch really runs (the executable found on the child's PATH, its
 * interpreter, an npx package's version), recorded at approval and checked before every spawn.
 */
export class LaunchPin {
  constructor(private readonly deps: LaunchPinDeps) {}

  /**
   * What the stdio launch resolves to now, as the spawn would find it: the child's PATH and cwd.
   * Resolved without prompting (an `${input:…}` not answered yet leaves it unknown: it is then
   * learnt at the first launch). Undefined for remote servers.
   */
  async current(name: string, entry: McpServerEntry, approved?: LaunchTarget): Promise<LaunchTarget | undefined> {
    if (entry.type !== "stdio") return undefined;
    try {
      const launch = await resolveLaunch(name, entry, { env: this.deps.env, inputs: this.deps.inputs, ...(this.deps.childCwd === undefined ? {} : { defaultCwd: this.deps.childCwd }) });
      return await this.targetOf(approved === undefined ? launch : pinnedLaunch(launch, approved));
    } catch {
      return undefined;
    }
  }

  /**
   * Before a spawn: the approved launch must still run the approved program, and the launch to spawn
   * is returned. An npx package approved at a version the arguments leave open (`npx -y pkg`) is
   * launched as `pkg@<that version>`: npx asks the registry for a newer release at every start and
   * would run it, unapproved, while the cache still held the old one for this check to read.
   * A difference is refused like a changed definition (MCP_EXECUTABLE_CHANGED, exit 5) and recorded;
   * what the approval did not know yet (an older approval, an npx version before its first
   * download) is learnt now.
   */
  async requireSame(name: string, launch: McpServerLaunch): Promise<McpServerLaunch> {
    if (launch.transport !== "stdio") return launch;
    const { approvals, logger } = this.deps;
    const status = await approvals.status(approvalSubject(name, this.deps.entry(name)));
    if (status.state !== "approved") return launch;
    const approved = status.record.runs;
    if (approved === undefined) {
      const learnt = await this.targetOf(launch);
      if (learnt === undefined) return launch;
      await approvals.learnRuns(name, status.hash, learnt);
      logger.info({ server: name }, `recorded what MCP server ${name} runs: ${describeLaunchTarget(learnt)}`);
      return launch;
    }
    const pinned = pinnedLaunch(launch, approved);
    const current = await this.targetOf(pinned);
    if (current === undefined) return pinned;
    const changes = compareLaunchTargets(approved, current);
    if (changes.length > 0) {
      await this.deps.recordAudit({ event: "mcp.executable.changed", subject: name, decision: "refused", details: { changes } });
      throw new McpApprovalError(
        "MCP_EXECUTABLE_CHANGED",
        `MCP server "${name}" would run a different program than the one approved (${changes.join("; ")}); it was not started. If you expect this (an update), review and re-approve it: \`mcpvm mcp approve ${name}\` (or /mcp approve ${name}).`,
        { data: { server: name, changes } },
      );
    }
    const learnsVersion = approved.package !== undefined && approved.package.version === undefined && current.package?.version !== undefined;
    // Pinned, the package is the approved one as approved (its source stays where its version was read).
    if (learnsVersion || lacksDigests(approved, current)) await approvals.learnRuns(name, status.hash, pinned === launch ? current : { ...current, ...(approved.package === undefined ? {} : { package: approved.package }) });
    return pinned;
  }

  private async targetOf(launch: McpServerLaunch): Promise<LaunchTarget | undefined> {
    if (launch.transport !== "stdio") return undefined;
    const target = resolveLaunchTarget({ command: launch.command, args: launch.args, env: buildChildEnv(this.deps.env, { ...launch.env }), cwd: launch.cwd ?? this.deps.childCwd ?? defaultServerCwd() });
    return withDigests(target, this.deps.digests);
  }
}
