import { argsText, type ActivityLog } from "../../logging/activity-log.js";
import { currentClient } from "../../logging/caller.js";
import type { Redactor } from "../../logging/redact.js";
import type { ClientManagerEvent } from "../client-manager/index.js";

/** One line in the shared activity log per call that reached a server; arguments masked and bounded. */
export function recordCallActivity(
  activity: { readonly log: ActivityLog; readonly face: () => string },
  redactor: Redactor,
  call: Extract<ClientManagerEvent, { type: "call" }>,
): void {
  // What can change later is read now; the masking and formatting wait for the log's next write,
  // after the call's result has gone back to the guest (the arguments are not touched again).
  const client = currentClient();
  const at = Date.now();
  const face = activity.face();
  activity.log.appendLater(() => ({
    at: new Date(at).toISOString(),
    face,
    ...(client === undefined ? {} : { client }),
    pid: process.pid,
    server: call.server,
    tool: redactor.redact(call.tool),
    durationMs: call.ms,
    outcome: call.outcome,
    ...(call.errorCode === undefined ? {} : { errorCode: call.errorCode }),
    ...argsText(redactor.redactValue(call.args)),
  }));
}
