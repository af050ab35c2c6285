import { ActivityLog } from "../../logging/activity-log.js";
import type { HostState } from "../host-state.js";
import type { Router } from "./router.js";

const MAX_SHOWN = 500;

/** Activity page: the newest calls from <config home>/activity.jsonl, written by every face and process. */
export function activityRoutes(router: Router, state: HostState): void {
  router.get("/api/activity", async ({ query }) => {
    const host = await state.fresh();
    const limit = Math.min(MAX_SHOWN, Math.max(1, Number(query.get("limit") ?? 200) || 200));
    return { file: host.paths.activityFile, calls: await new ActivityLog(host.paths.activityFile).recent(limit) };
  });
}
