import type { CallConfirmationRequest } from "../../mcp/service/index.js";

/** What a person sees before a tool call that may change things: server, tool and the full arguments. */
export function renderCallConfirmation(request: CallConfirmationRequest): string {
  const why = request.policy === "always" ? "this server is set to confirm every call" : "the tool is not marked read-only";
  const args = JSON.stringify(request.args, null, 2) ?? "{}";
  return `MCP call ${request.server}.${request.tool} (${why})\narguments:\n${args.split("\n").map((l) => `  ${l}`).join("\n")}`;
}
