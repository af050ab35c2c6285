import type { AuditEvent } from "../../audit-log/index.js";
import type { HostCallContext } from "../../sandbox/types.js";
import { McpvmError } from "../../util/errors.js";
import { isFlowSink, judgeFlow, type FlowPolicy, type SinkAnnotations } from "./policy.js";
import { TaintIndex } from "./taint.js";

/** One flow a person is asked about: data from `from` about to be sent to `server.tool`. */
export interface FlowRequest {
  readonly from: string;
  readonly server: string;
  readonly tool: string;
  /** Where in the arguments `from`'s data was found (a path such as `body` or `to[0]`). */
  readonly argument: string;
  readonly args: unknown;
  readonly annotations: SinkAnnotations | undefined;
  /** The run's signal: the question is withdrawn when the run ends before it is answered. */
  readonly signal?: AbortSignal;
}

/**
 * true: the person allowed it; false: declined; "no-terminal": nobody could be asked; "cancelled":
 * nobody answered (the question was withdrawn when its run ended, or never asked because the person
 * cancelled the step while it waited behind another).
 */
export type AskFlow = (request: FlowRequest) => Promise<boolean | "no-terminal" | "cancelled">;

export class McpFlowError extends McpvmError<"MCP_FLOW_DENIED"> {
  override readonly name = "McpFlowDeniedError";
}

/** The run's labels and the flows already allowed in it (asked once per pair and run). */
export interface RunFlows {
  readonly index: TaintIndex;
  readonly allowed: Set<string>;
}

const RUN_FLOWS = Symbol("mcpvm.mcp.flows");

/** This run's flow state; undefined outside a sandbox run (`mcpvm mcp call`: the data comes from the person). */
export function runFlows(context: HostCallContext): RunFlows | undefined {
  const scope = context.scope;
  return scope?.get(RUN_FLOWS, () => ({ index: new TaintIndex(scope.code), allowed: new Set<string>() }));
}

export interface FlowGuardOptions {
  readonly policy: FlowPolicy;
  /** Present only where a person can be asked (the REPL, `run` on a terminal without --yes). */
  readonly ask: AskFlow | undefined;
  readonly record: (event: AuditEvent) => Promise<void>;
}

export interface FlowCall {
  readonly server: string;
  readonly tool: string;
  readonly annotations: SinkAnnotations | undefined;
  readonly args: unknown;
  /** The run's signal (HostCallContext.signal). */
  readonly signal?: AbortSignal;
}

/**
 * Before a call: when its arguments carry data another server returned in this run, and the tool
 * may write or reach beyond this machine, the flow goes ahead only if the policy allows it or the
 * person says yes. A denied flow throws McpFlowDeniedError and nothing is sent. Every decision is
 * recorded in the audit log (an allowed pair once per run).
 */
export async function guardFlow(flows: RunFlows, call: FlowCall, options: FlowGuardOptions): Promise<void> {
  if (!isFlowSink(call.annotations)) return;
  const to = `${call.server}.${call.tool}`;
  for (const match of flows.index.find(call.args, call.server)) {
    const key = JSON.stringify([match.server, to]);
    if (flows.allowed.has(key)) continue;
    const verdict = judgeFlow(options.policy, match.server, to, options.ask !== undefined);
    let allowed: boolean;
    let by: string;
    if (verdict.decision === "ask") {
      const answer = await (options.ask as AskFlow)({ from: match.server, server: call.server, tool: call.tool, argument: match.path, args: call.args, annotations: call.annotations, ...(call.signal === undefined ? {} : { signal: call.signal }) });
      // A yes typed after the run ended allows nothing, and nobody-answered is not the person's no.
      const unanswered = answer === "cancelled" || call.signal?.aborted === true;
      allowed = answer === true && !unanswered;
      by = unanswered ? "nobody-answered" : answer === "no-terminal" ? "nobody-to-ask" : "person";
    } else {
      allowed = verdict.decision === "allow";
      by = verdict.by;
    }
    const decision = allowed ? "allowed" : by === "nobody-answered" ? "cancelled" : "denied";
    await options.record({ event: "mcp.flow", subject: to, decision, details: { from: match.server, to, argument: match.path, by } });
    if (!allowed) throw denied(match.server, to, by);
    flows.allowed.add(key);
  }
}

function denied(from: string, to: string, by: string): McpFlowError {
  const why =
    by === "person"
      ? "the user declined it"
      : by === "nobody-to-ask"
        ? "nobody could be asked (no terminal; --yes never allows a flow)"
        : 'config.json sets "flows": { "default": "deny" }';
  return new McpFlowError(
    "MCP_FLOW_DENIED",
    `Data returned by server "${from}" was about to be sent to ${to}, a tool that may write or send it beyond this machine; the flow was denied: ${why}. Nothing was sent. ` +
      `If this flow is intended, the person can allow it in config.json: "flows": { "allow": [["${from}", "${to}"]] }.`,
    { data: { from, to, by } },
  );
}
