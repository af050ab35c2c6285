import type { CallConfirmationRequest } from "../../mcp/service/index.js";
import { displayBlock, displayInline } from "../display.js";

/**
 * What a person sees before a tool call that may change things: server, tool and the full arguments.
 * The tool name and arguments come from a server and guest code: escaped, so they cannot repaint the question.
 */
export function renderCallConfirmation(request: CallConfirmationRequest): string {
  const why = request.policy === "always" ? "this server is set to confirm every call" : "the tool is not marked read-only";
  const args = displayBlock(JSON.stringify(request.args, null, 2) ?? "{}");
  return `MCP call ${displayInline(request.server)}.${displayInline(request.tool)} (${why})\narguments:\n${args.split("\n").map((l) => `  ${l}`).join("\n")}`;
}
