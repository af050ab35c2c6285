import { z } from "zod";
import { describeZodIssues } from "../config/config-file.js";
import { GatewayError } from "./errors.js";
import { oauthSettingsSchema } from "./oauth/settings.js";

/** config.json `gateway`: the gateway's own policy. Servers and sandbox limits live in their own sections. */
export const gatewaySettingsSchema = z
  .object({
    /** Upper bound of run_mcp_script's timeoutMs (one wall budget for the whole script). */
    maxTimeoutMs: z.number().int().min(100).max(3_600_000).default(120_000),
    /** Between health checks of connected upstream servers (0: no monitor). */
    healthIntervalMs: z.number().int().min(0).default(30_000),
    /** A ping not answered within this is a failed check. */
    healthTimeoutMs: z.number().int().min(100).default(5_000),
    /** Reconnect backoff: first delay, doubled per failure up to the maximum. */
    reconnectBaseMs: z.number().int().min(10).default(1_000),
    reconnectMaxMs: z.number().int().min(10).default(60_000),
    /** How often run_mcp_script tells a client that sent a progressToken how long it has run. */
    progressIntervalMs: z.number().int().min(100).max(600_000).default(5_000),
    /** Results of search_tools when the caller gives no limit. */
    searchLimit: z.number().int().min(1).max(100).default(10),
    /** HTTP (2025-era) sessions one client (token, from one address) may hold; its least recently used is closed past it. */
    maxSessionsPerClient: z.number().int().min(1).max(10_000).default(100),
    /** HTTP sessions in all, over every client. */
    maxSessions: z.number().int().min(1).max(100_000).default(1_000),
    /** An HTTP session unused this long (and with no open notification stream) is closed. */
    sessionIdleMs: z.number().int().min(100).default(30 * 60_000),
    /** On SIGTERM/SIGINT: how long calls in flight may finish before the gateway closes anyway (under Kubernetes' 30 s grace). */
    drainTimeoutMs: z.number().int().min(0).max(600_000).default(25_000),
    /**
     * Protocol generation towards upstream servers: "legacy" (the 2025 initialize handshake) or
     * "auto" (server/discover first; 2026-07-28 with a server that offers it, else 2025).
     */
    upstreamProtocol: z.enum(["legacy", "auto"]).default("legacy"),
    /**
     * Plain direct-tool calls (HTTP, and 2025-era stdio connections) answered without the SDK server (src/gateway/fast-lane);
     * MCPVM_GATEWAY_FAST_LANE=0 turns it off too. Every guarantee is the same either way.
     */
    fastLane: z.boolean().default(true),
    /** OAuth 2.1 resource server: access tokens from this identity provider (docs/GATEWAY.md "Access tokens from an identity provider"). */
    oauth: oauthSettingsSchema.optional(),
  })
  .strict();

export type GatewaySettings = z.infer<typeof gatewaySettingsSchema>;

export function parseGatewaySettings(section: unknown, file: string): GatewaySettings {
  const parsed = gatewaySettingsSchema.safeParse(section ?? {});
  if (!parsed.success) {
    throw new GatewayError("GATEWAY_CONFIG_INVALID", describeZodIssues(`${file} (gateway)`, parsed.error.issues.map((i) => ({ ...i, path: ["gateway", ...i.path] }))), {
      data: { file },
    });
  }
  return parsed.data;
}
