import type { McpService } from "../../../mcp/service/index.js";
import type { CommandContext } from "../../../terminal/command.js";
import { commandHint } from "../../../terminal/hints.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { writeJson, writeLine } from "../../../terminal/io.js";
import { isMcpvmError } from "../../../util/errors.js";
import { renderCatalog } from "../../../terminal/render/mcp.js";
import { approveLaunch } from "./approve-launch.js";
import { exitOk, stillHeld, writeApproveReport, type ApproveReport } from "./approve-report.js";
import { parseAcceptBlocked, reviewHeldTools, type HeldReview } from "./approve-tools.js";
import { callerOf, connecting } from "./connecting.js";

export interface ApproveOptions {
  /** --tools: only review and accept held tools. */
  readonly toolsOnly: boolean;
  /** --accept-blocked: held tools with block-level findings the person names to accept. */
  readonly acceptBlocked: readonly string[];
  /** --accept-launch-env: the definition may set code-loading env (NODE_OPTIONS, LD_PRELOAD, …). */
  readonly acceptLaunchEnv: boolean;
}

/**
 * `mcpvm mcp approve <name>`: the launch definition, then the held tools. The summary says exactly
 * what was accepted and what is still held (from a fresh trust decision, not from what was asked),
 * and the exit code is 5 while anything stays held.
 */
export async function approve(service: McpService, name: string, options: ApproveOptions, context: CommandContext): Promise<ExitCodeValue> {
  const launch = options.toolsOnly ? undefined : await approveLaunch(service, name, options.acceptLaunchEnv, context);
  if (launch?.state === "not-approved") {
    writeApproveReport({ server: name, launch, ok: false }, context);
    return ExitCode.ApprovalRequired;
  }
  // First connection: list and audit the tools; anything held must be confirmed here.
  let catalog;
  try {
    catalog = await connecting(context, name, () => service.catalog(name, callerOf(context)));
  } catch (error) {
    // Approved, but the tools sit behind a login: they are audited at the first connection after it.
    if (!(isMcpvmError(error) && error.code === "MCP_LOGIN_REQUIRED")) throw error;
    if (context.json) writeJson(context.io.stdout, { server: name, ...(launch === undefined ? {} : { launch }), needsLogin: true, command: `mcpvm mcp login ${name}`, ok: true });
    else writeLine(context.io.stdout, `approved ${name}; it needs a login before its tools can be listed: run \`${commandHint(context, `mcp login ${name}`)}\` (its tools are audited and pinned at the first connection)`);
    return ExitCode.Ok;
  }
  let review: HeldReview | undefined;
  // Held tools, or server instructions kept from the model: the person sees why here.
  if ((catalog.held.length > 0 || catalog.heldInstructions !== undefined) && (!context.json || context.interactive)) {
    writeLine(context.io.stderr, renderCatalog(catalog, context.colours));
  }
  if (catalog.held.length > 0) review = await reviewHeldTools(service, catalog, options.acceptBlocked, context);
  const after = review?.outcome === undefined ? catalog : await service.catalog(name);
  const heldNow = new Set(after.held.map((h) => h.name));
  const outcome = review?.outcome;
  const named = parseAcceptBlocked(options.acceptBlocked, catalog.held);
  const unmatched = review?.unmatchedAcceptBlocked ?? [...named];
  const report: ApproveReport = {
    server: name,
    ...(launch === undefined ? {} : { launch }),
    tools: {
      module: `host:${after.module}`,
      available: after.tools.length,
      // Never "accepted" for a tool the fresh decision still holds.
      accepted: (outcome?.accepted ?? []).filter((tool) => !heldNow.has(tool)).sort(),
      stillHeld: stillHeld(name, after.held, review, named, context),
      changedSinceReview: outcome?.changedSinceReview ?? [],
      notListed: outcome?.notListed ?? [],
    },
    ...(unmatched.length > 0 ? { unmatchedAcceptBlocked: unmatched } : {}),
    ok: false,
  };
  const final = { ...report, ok: exitOk(report) };
  writeApproveReport(final, context);
  return final.ok ? ExitCode.Ok : ExitCode.ApprovalRequired;
}
