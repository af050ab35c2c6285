import { GatewayError } from "../errors.js";

/** MCPVM_GATEWAY_FAST_LANE: 0/off/false or 1/on/true; it overrides config.json `gateway.fastLane`. */
export function fastLaneEnabled(configured: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  const raw = env.MCPVM_GATEWAY_FAST_LANE?.trim().toLowerCase();
  if (raw === undefined || raw === "") return configured;
  if (["0", "off", "false", "no"].includes(raw)) return false;
  if (["1", "on", "true", "yes"].includes(raw)) return true;
  throw new GatewayError("GATEWAY_CONFIG_INVALID", `MCPVM_GATEWAY_FAST_LANE is "${env.MCPVM_GATEWAY_FAST_LANE}"; use 0 (off) or 1 (on), or unset it to follow config.json gateway.fastLane.`, {
    data: { variable: "MCPVM_GATEWAY_FAST_LANE" },
  });
}
