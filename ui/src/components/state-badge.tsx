import type { ServerSummary } from "../types.js";

const LABELS: Record<string, string> = {
  disabled: "disabled",
  "needs-approval": "needs approval",
  "approval-error": "approval file problem",
  connecting: "connecting",
  connected: "connected",
  held: "tools held",
  failed: "failed",
  "needs-variable": "needs a variable",
  "needs-input": "needs input",
  "needs-login": "needs login",
  idle: "idle",
};

/** The real state, in words (never colour alone), with the tool count or the error's first line. */
export function StateBadge({ server }: { server: ServerSummary }) {
  const label = LABELS[server.state] ?? server.state;
  const count = server.state === "connected" || server.state === "idle" || server.state === "held" ? server.toolCount : undefined;
  return (
    <span class={`state state-${server.state}`}>
      {label}
      {count !== undefined && `, ${count} tool${count === 1 ? "" : "s"}`}
      {(server.heldCount ?? 0) > 0 && `, ${server.heldCount} held`}
    </span>
  );
}
