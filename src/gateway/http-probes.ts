import type { IncomingMessage, ServerResponse } from "node:http";
import { isRefusal, type AuthResult, type RequestAuthenticator } from "./clients/authenticate.js";
import type { ClientRateLimiter } from "./clients/rate-limiter.js";
import { identityOf, isScoped, passthroughReach, reaches, type ClientScope } from "./clients/scope.js";
import type { Gateway } from "./gateway.js";
import { rateLimited, sendJson } from "./http-util.js";
import type { ReadinessProbe } from "./probes.js";

/** What the probe endpoints read of the running HTTP gateway. */
export interface ProbeState {
  readonly gateway: Gateway;
  readonly authenticator: RequestAuthenticator;
  readonly readiness: ReadinessProbe;
  /** The clients' rate buckets, shared with /mcp. */
  readonly rates: ClientRateLimiter;
  readonly started: number;
  readonly draining: () => boolean;
  readonly sessions: () => number;
  readonly fastLane: () => { readonly on: boolean; readonly calls: number };
}

/**
 * Probes for orchestrators: `/healthz` alive (the event loop answers), `/readyz` ready (not draining,
 * upstreams reachable), `/health` details for the caller's reach. Returns false for any other path.
 *
 * Rate limits: a probe without a token (an orchestrator's, a load balancer's) is never limited: a
 * 429 would fail its probe and restart or drain a healthy replica, and what it costs is bounded
 * anyway (a constant answer, or the readiness check shared by every caller for 2 s). A probe with a
 * client's token gets details of that client's reach (`/health` lists its servers' states), so it
 * is that client's request and counts against its rate, like /mcp: a rate-limited token cannot
 * poll details without limit. A token that fails authentication is answered as no token.
 */
export async function serveProbe(path: string, req: IncomingMessage, res: ServerResponse, state: ProbeState): Promise<boolean> {
  if (req.method !== "GET") return false;
  if (path === "/healthz") {
    sendJson(res, 200, { status: "alive" });
    return true;
  }
  if (path === "/readyz") {
    if (state.draining()) {
      sendJson(res, 503, { status: "draining" });
      return true;
    }
    const caller = await state.authenticator.authenticate(req);
    if (overRate(caller, res, state)) return true;
    const readiness = await state.readiness.check();
    // Names and reasons only of the servers the caller's token reaches: a limited token learns nothing of the others.
    const reach = isRefusal(caller) ? new Set<string>() : passthroughReach(caller);
    const failing = isRefusal(caller) ? readiness.failing.length : readiness.failing.filter((f) => reaches(reach, f.server));
    sendJson(res, readiness.ready ? 200 : 503, { status: readiness.ready ? "ready" : "not ready", failing });
    return true;
  }
  if (path === "/health") {
    const caller = await state.authenticator.authenticate(req);
    if (overRate(caller, res, state)) return true;
    const details = async (scope: ClientScope) => {
      const reach = passthroughReach(scope);
      const servers = (await state.gateway.service.summaries()).filter((summary) => reaches(reach, summary.name));
      // Sessions, the equipped toolset and the lane are the whole gateway's: for callers that reach all of it.
      if (isScoped(scope)) return { servers };
      return { sessions: state.sessions(), toolset: state.gateway.equipment.toolset?.name ?? null, fastLane: state.fastLane(), servers };
    };
    sendJson(res, 200, { status: "ok", uptimeMs: Date.now() - state.started, ...(isRefusal(caller) ? {} : await details(caller)) });
    return true;
  }
  return false;
}

/** Answers 429 (and says true) when an authenticated caller with a rate is over it. */
function overRate(caller: AuthResult, res: ServerResponse, state: ProbeState): boolean {
  if (isRefusal(caller) || caller.rate === undefined) return false;
  const waitMs = state.rates.take(identityOf(caller), caller.rate);
  if (waitMs <= 0) return false;
  rateLimited(res, caller.name, caller.rate, waitMs, 1);
  return true;
}
