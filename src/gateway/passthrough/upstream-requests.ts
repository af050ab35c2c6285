import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { ServerRequestContext, ServerRequestHooks } from "../../mcp/client-manager/index.js";
import type { InputRounds } from "./input-rounds.js";
import { clientCapabilities, forwardedSignal, isFastLaneOrigin, isModernRequest, type GatewayOrigin } from "./origin.js";
import type { RootsRouter } from "./roots.js";

export interface UpstreamRequestDeps {
  /** The client request an upstream request belongs to (request-origin.ts), or undefined when unclear. */
  readonly originOf: (ctx: ServerRequestContext) => GatewayOrigin | undefined;
  readonly rounds: InputRounds;
  readonly roots: RootsRouter;
  readonly logger: Logger;
}

/**
 * The answers to an upstream's elicitation, sampling and roots requests: forwarded to the client
 * whose call caused them (a 2025 client on the call's stream, a 2026-07-28 client in an
 * `input_required` round), declined or refused with the reason when that client is unclear or
 * did not declare the capability.
 */
export function upstreamRequestHooks(deps: UpstreamRequestDeps): ServerRequestHooks {
  const { rounds, logger } = deps;
  return {
    elicitationModes: { form: true, url: true },
    elicit: async (params, ctx) => {
      const origin = deps.originOf(ctx);
      const why = cannotForward(origin, "elicitation", ctx);
      if (why !== undefined || origin === undefined) {
        logger.warn({ server: ctx.server }, `elicitation from ${ctx.server} declined: ${why}`);
        return { action: "decline" };
      }
      const mode = "mode" in params && params.mode === "url" ? "url" : "form";
      const supported = clientCapabilities(origin)?.elicitation;
      // A client that declared `elicitation: {}` supports form mode (the 2025-06-18 shape).
      if (mode === "url" && supported?.url === undefined) {
        logger.warn({ server: ctx.server }, `URL elicitation from ${ctx.server} declined: the client supports form mode only`);
        return { action: "decline" };
      }
      if (!isModernRequest(origin.ctx)) return origin.ctx.mcpReq.elicitInput(params, { signal: forwardedSignal(origin, ctx.signal) });
      // A 2026-07-28 client: the question goes out in the call's next input_required answer.
      const asked = rounds.ask(origin, { method: "elicitation/create", params }, ctx.signal);
      if (asked === undefined) {
        logger.warn({ server: ctx.server }, `elicitation from ${ctx.server} declined: the 2026-07-28 client's request is not a tool call (input rounds are offered for tools/call)`);
        return { action: "decline" };
      }
      const view = await asked;
      return view.kind === "elicit" ? { action: view.action, ...(view.content === undefined ? {} : { content: view.content as ElicitContent }) } : { action: "cancel" };
    },
    sample: async (params, ctx) => {
      const origin = deps.originOf(ctx);
      const why = cannotForward(origin, "sampling", ctx);
      if (why !== undefined || origin === undefined) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, `Sampling is not available through the mcpvm gateway here: ${why}`);
      if (!isModernRequest(origin.ctx)) return origin.ctx.mcpReq.requestSampling(params, { signal: forwardedSignal(origin, ctx.signal) });
      const asked = rounds.ask(origin, { method: "sampling/createMessage", params }, ctx.signal);
      if (asked === undefined) throw new ProtocolError(ProtocolErrorCode.MethodNotFound, "Sampling is not available through the mcpvm gateway here: the 2026-07-28 client's request is not a tool call (input rounds are offered for tools/call)");
      const view = await asked;
      if (view.kind !== "sampling") throw new ProtocolError(ProtocolErrorCode.InternalError, "The client's answer was not a sampling result.");
      return view.result;
    },
    listRoots: (ctx) => deps.roots.list(deps.originOf(ctx), ctx),
    rootsConnection: (server, send) => deps.roots.connection(server, send),
  };
}

function cannotForward(origin: GatewayOrigin | undefined, what: "elicitation" | "sampling", ctx: ServerRequestContext): string | undefined {
  if (origin === undefined) {
    // The fast lane serves only clients that declared neither capability: the SDK path's reason for them.
    if (isFastLaneOrigin(ctx.origin.origin)) return `the gateway's client does not support ${what}`;
    return ctx.origin.inFlight.length > 1 ? "calls of several clients are in flight on that server, so it is unclear whose it is" : "no client call is in flight on that server";
  }
  const capabilities = clientCapabilities(origin);
  if (what === "elicitation" && capabilities?.elicitation === undefined) return "the gateway's client does not support elicitation";
  if (what === "sampling" && capabilities?.sampling === undefined) return "the gateway's client does not support sampling";
  return undefined;
}

type ElicitContent = NonNullable<Extract<Awaited<ReturnType<NonNullable<ServerRequestHooks["elicit"]>>>, { content?: unknown }>["content"]>;
