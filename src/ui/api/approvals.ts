import { z } from "zod";
import { auditLaunchEnv, NOT_SANDBOXED_WARNING } from "../../mcp/approval/index.js";
import { canonicalJson, McpPinStore } from "../../mcp/pins/index.js";
import { pinnedPart } from "../../mcp/pins/canonical.js";
import { isBlockedHeld, type HeldTool, type McpService } from "../../mcp/service/index.js";
import type { ServerSummary } from "../../mcp/service/index.js";
import { maskedEntry } from "../../terminal/render/mcp.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { UiError } from "../errors.js";
import type { HostState } from "../host-state.js";
import { parseBody } from "./body.js";
import type { Router } from "./router.js";

/** `hash`: the definition hash the page showed; a click approves that definition or nothing. */
const approveSchema = z.object({ hash: z.string(), typedName: z.string().optional() }).strict();
const acceptSchema = z
  .object({
    tools: z.array(z.object({ name: z.string(), hash: z.string(), typed: z.string().optional() }).strict()).min(1),
  })
  .strict();

/** A held tool as the page shows it: why, the findings, and the approved and new definitions side by side. */
function heldView(held: HeldTool, approved: unknown, current: unknown) {
  return {
    name: held.name,
    hash: held.hash,
    reason: held.reason,
    blocked: isBlockedHeld(held),
    findings: held.findings,
    changes: held.changes,
    approved: approved === undefined ? null : JSON.parse(canonicalJson(approved)),
    current: current === undefined ? null : JSON.parse(canonicalJson(current)),
  };
}

async function heldTools(service: McpService, pins: McpPinStore, summary: ServerSummary) {
  try {
    const catalog = await service.catalog(summary.name);
    const pinned = await pins.get(summary.name);
    const tools = catalog.held
      .filter((h) => h.reason !== "unsafe-name")
      .map((h) => {
        const listed = service.listedTool(summary.name, h.name);
        const pin = pinned !== undefined && Object.hasOwn(pinned.tools, h.name) ? pinned.tools[h.name]?.definition : undefined;
        return heldView(h, pin, listed === undefined ? undefined : pinnedPart(listed));
      });
    const neverExposed = catalog.held.filter((h) => h.reason === "unsafe-name").map((h) => h.name);
    return { server: summary.name, tools, neverExposed };
  } catch (error) {
    return { server: summary.name, tools: [], neverExposed: [], error: { code: isMcpvmError(error) ? error.code : "INTERNAL", message: errorMessage(error) } };
  }
}

/**
 * Approvals page: servers waiting for approval with exactly what will run and the warning, and
 * held tools with their diff and findings. Approving goes through the service, as `mcpvm mcp
 * approve` does: code-loading env and block-level findings need the name typed, never a click.
 */
export function approvalRoutes(router: Router, state: HostState): void {
  router.get("/api/approvals", async () => {
    const service = await state.service();
    const host = await state.fresh();
    const pins = new McpPinStore(host.paths.pinsFile);
    const summaries = await service.summaries();
    const launches = await Promise.all(
      summaries
        .filter((s) => s.approval !== "approved")
        .map(async (s) => {
          const entry = service.entry(s.name);
          return {
            name: s.name,
            transport: s.transport,
            enabled: s.enabled,
            approval: s.approval,
            hash: (await service.approvalStatus(s.name)).hash,
            prompt: await service.approvalPrompt(s.name),
            definition: maskedEntry(entry),
            launchFindings: auditLaunchEnv(entry.env),
          };
        }),
    );
    // Held tools are known only from a listing: servers connected here, or that another process recorded as held.
    const liveHere = (name: string) => service.clients.serverNames().includes(name) && service.clients.status(name).state === "connected";
    const withHeld = summaries.filter((s) => s.enabled && s.approval === "approved" && (s.state === "held" || (s.heldCount ?? 0) > 0 || liveHere(s.name)));
    const held = (await Promise.all(withHeld.map((s) => heldTools(service, pins, s)))).filter((h) => h.tools.length > 0 || h.error !== undefined || h.neverExposed.length > 0);
    return { warning: NOT_SANDBOXED_WARNING, launches, held };
  });

  router.post("/api/servers/:name/approve", async ({ params, body }) => {
    const name = params.name as string;
    const request = parseBody(approveSchema, body, "the approval");
    const service = await state.service();
    // The CLI approves the definition it printed; the page must too: config.json may have changed since
    // (another tab, the CLI, an import), and a click on the old card must not approve the new command.
    if ((await service.approvalStatus(name)).hash !== request.hash) {
      throw new UiError("UI_DEFINITION_CHANGED", `${name}'s definition changed since the page showed it. Nothing was approved: review what it runs now and approve again.`);
    }
    const findings = auditLaunchEnv(service.entry(name).env);
    if (findings.length > 0 && request.typedName !== name) {
      throw new UiError(
        "UI_CONFIRMATION_REQUIRED",
        `${name} sets ${findings.map((f) => f.name).join(", ")}, which change which code runs: type the server name (${name}) to approve it. Nothing was approved.`,
      );
    }
    await service.approve(name, { acceptLaunchEnv: findings.length > 0 });
    // First connection, as after `mcpvm mcp approve`: the tools are listed, audited and pinned.
    try {
      const catalog = await service.catalog(name);
      return { approved: name, tools: catalog.tools.length, held: catalog.held.length };
    } catch (error) {
      return { approved: name, connectError: { code: isMcpvmError(error) ? error.code : "INTERNAL", message: errorMessage(error) } };
    }
  });

  router.post("/api/servers/:name/accept", async ({ params, body }) => {
    const name = params.name as string;
    const request = parseBody(acceptSchema, body, "the accepted tools");
    const service = await state.service();
    const catalog = await service.catalog(name);
    const acceptBlocked: string[] = [];
    const reviewed: HeldTool[] = [];
    for (const item of request.tools) {
      const held = catalog.held.find((h) => h.name === item.name);
      if (held === undefined) throw new UiError("UI_BAD_REQUEST", `${name} holds no tool "${item.name}" (any more); reload the page. Nothing was accepted.`);
      if (isBlockedHeld(held)) {
        if (item.typed !== item.name) {
          throw new UiError("UI_CONFIRMATION_REQUIRED", `${item.name} has block-level audit findings: type its name to accept it anyway. Nothing was accepted.`);
        }
        acceptBlocked.push(item.name);
      }
      // The hash the person was shown: a definition that changed again since is not accepted.
      reviewed.push({ ...held, hash: item.hash });
    }
    const outcome = await service.acceptTools(name, reviewed, { acceptBlocked });
    const after = await service.catalog(name);
    return { ...outcome, available: after.tools.length, stillHeld: after.held.map((h) => h.name) };
  });

  router.post("/api/servers/:name/revoke", async ({ params }) => {
    const service = await state.service();
    const name = params.name as string;
    const revoked = await service.revoke(name);
    if (!revoked) service.entry(name);
    return { revoked: name, changed: revoked };
  });
}
