import { describeToolHints } from "../../mcp/service/index.js";
import type { FlowRequest } from "../../mcp/flow/index.js";
import { displayBlock, displayInline } from "../display.js";

/**
 * What a person sees before data one server returned reaches another server's tool: the flow named
 * in one line, the target's claims about itself, and the full arguments. Everything escaped.
 */
export function renderFlowConfirmation(request: FlowRequest): string {
  const args = displayBlock(JSON.stringify(request.args, null, 2) ?? "{}");
  const hints = describeToolHints(request.annotations).map((line) => `  ${line}`);
  return [
    `INFORMATION FLOW: data from \`${displayInline(request.from)}\` is about to be sent to \`${displayInline(request.server)}.${displayInline(request.tool)}\` (in: ${displayInline(request.argument)})`,
    "  a server's result may carry instructions; this script is forwarding what it returned",
    ...hints,
    "arguments:",
    ...args.split("\n").map((l) => `  ${l}`),
  ].join("\n");
}
