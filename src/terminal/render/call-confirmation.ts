import { confirmationReason, describeToolHints, type CallConfirmationRequest } from "../../mcp/service/index.js";
import { displayBlock, displayInline } from "../display.js";

/**
 * What a person sees before a tool call that may change things: server, tool and the full arguments.
 * The tool name and arguments come from a server and guest code: escaped, so they cannot repaint the question.
 */
export function renderCallConfirmation(request: CallConfirmationRequest): string {
  const why = confirmationReason(request.policy);
  const args = displayBlock(JSON.stringify(request.args, null, 2) ?? "{}");
  // Annotations are the server's claims about its own tool: worded as such, never as facts.
  const hints = describeToolHints(request.annotations).map((line) => `  ${line}`);
  return [`MCP call ${displayInline(request.server)}.${displayInline(request.tool)} (${why})`, ...hints, "arguments:", ...args.split("\n").map((l) => `  ${l}`)].join("\n");
}
