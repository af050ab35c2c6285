import { homedir } from "node:os";
import type { Logger } from "pino";
import type { AuditEvent } from "../../audit-log/index.js";
import { compareLaunchTargets, describeLaunchTarget, lacksDigests, McpApprovalError, resolveLaunchTarget, withDigests, type FileDigestCache, type LaunchTarget, type McpApprovalStore } from "../approval/index.js";
import { buildChildEnv, resolveLaunch, type InputCache, type McpServerEntry } from "../config/index.js";
import type { McpServerLaunch } from "../types.js";
import { approvalSubject } from "./approval-subject.js";

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
  async current(name: string, entry: McpServerEntry): Promise<LaunchTarget | undefined> {
    if (entry.type !== "stdio") return undefined;
    try {
      const launch = await resolveLaunch(name, entry, { env: this.deps.env, inputs: this.deps.inputs, ...(this.deps.childCwd === undefined ? {} : { defaultCwd: this.deps.childCwd }) });
      return await this.targetOf(launch);
    } catch {
      return undefined;
    }
  }

  /**
   * Before a spawn: the approved launch must still run the approved program. A difference is
   * refused like a changed definition (MCP_EXECUTABLE_CHANGED, exit 5) and recorded; what the
   * approval did not know yet (an older approval, an npx version before its first download) is
   * learnt now.
   */
  async requireSame(name: string, launch: McpServerLaunch): Promise<void> {
    const current = await this.targetOf(launch);
    if (current === undefined) return;
    const { approvals, logger } = this.deps;
    const status = await approvals.status(approvalSubject(name, this.deps.entry(name)));
    if (status.state !== "approved") return;
    const approved = status.record.runs;
    if (approved === undefined) {
      await approvals.learnRuns(name, status.hash, current);
      logger.info({ server: name }, `recorded what MCP server ${name} runs: ${describeLaunchTarget(current)}`);
      return;
    }
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
    if (learnsVersion || lacksDigests(approved, current)) await approvals.learnRuns(name, status.hash, current);
  }

  private async targetOf(launch: McpServerLaunch): Promise<LaunchTarget | undefined> {
    if (launch.transport !== "stdio") return undefined;
    const target = resolveLaunchTarget({ command: launch.command, args: launch.args, env: buildChildEnv(this.deps.env, { ...launch.env }), cwd: launch.cwd ?? this.deps.childCwd ?? homedir() });
    return withDigests(target, this.deps.digests);
  }
}
