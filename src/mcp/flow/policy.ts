import { z } from "zod";
import { McpvmError } from "../../util/errors.js";
import { describeZodIssues } from "../../util/zod-issues.js";

/**
 * config.json `flows`: what happens when data from one MCP server is about to be sent to a tool of
 * another that may write or reach beyond this machine. `default`: "ask" (the person is asked where
 * one can be; elsewhere the flow is denied), "deny", or "allow" (the guard is off). `allow` lists
 * flows that always go ahead: ["from-server", "to-server.tool"] (or "to-server.*").
 */
// Built on its first parse (z.lazy): a config without `flows` never needs it.
export const flowPolicySchema = z.lazy(() =>
  z
    .object({
      default: z.enum(["ask", "deny", "allow"]).optional(),
      allow: z.array(z.tuple([z.string().min(1), z.string().regex(/^[^.]+\..+$/, 'the target is "server.tool" (or "server.*")')])).optional(),
    })
    .strict(),
);

export type FlowPolicyInput = z.infer<typeof flowPolicySchema>;

export interface FlowPolicy {
  readonly default: "ask" | "deny" | "allow";
  readonly allow: readonly (readonly [string, string])[];
}

export const DEFAULT_FLOW_POLICY: FlowPolicy = { default: "ask", allow: [] };

export class FlowPolicyError extends McpvmError<"MCP_CONFIG_FLOWS_INVALID"> {}

export function parseFlowPolicy(raw: unknown, file: string): FlowPolicy {
  if (raw === undefined) return DEFAULT_FLOW_POLICY;
  const parsed = flowPolicySchema.safeParse(raw);
  if (!parsed.success) {
    throw new FlowPolicyError("MCP_CONFIG_FLOWS_INVALID", describeZodIssues(file, parsed.error.issues.map((i) => ({ ...i, path: ["flows", ...i.path] }))), { data: { file } });
  }
  return { default: parsed.data.default ?? "ask", allow: parsed.data.allow ?? [] };
}

/** Per MCP a tool is read-only only when it says so, and reaches an open world unless it says it does not. */
export interface SinkAnnotations {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** A tool data can leave through: not read-only, destructive, or open-world (MCP's defaults for absent hints). */
export function isFlowSink(annotations: SinkAnnotations | undefined): boolean {
  const a = annotations ?? {};
  return a.readOnlyHint !== true || a.destructiveHint === true || a.openWorldHint !== false;
}

export type FlowVerdict = { readonly decision: "allow" | "deny"; readonly by: "policy" | "default" | "nobody-to-ask" } | { readonly decision: "ask" };

/** What the policy says about data from `from` reaching `to` ("server.tool"), before anyone is asked. */
export function judgeFlow(policy: FlowPolicy, from: string, to: string, canAsk: boolean): FlowVerdict {
  const server = to.slice(0, to.indexOf("."));
  if (policy.allow.some(([f, t]) => f === from && (t === to || t === `${server}.*`))) return { decision: "allow", by: "policy" };
  if (policy.default === "allow") return { decision: "allow", by: "default" };
  if (policy.default === "deny") return { decision: "deny", by: "default" };
  return canAsk ? { decision: "ask" } : { decision: "deny", by: "nobody-to-ask" };
}
