import type { Client, LoggingLevel } from "@modelcontextprotocol/client";
import type { ClientManagerEvent } from "./events.js";
import { FloodGate } from "./flood-gate.js";
import type { ResolvedOrigin } from "./call-origin.js";

export interface NotificationDeps {
  readonly server: string;
  readonly emit: (event: ClientManagerEvent) => void;
  readonly redact: (text: string) => string;
  /** Log messages (and resource updates) passed per second before the rest are dropped and counted. */
  readonly maxPerSecond: number;
  /** The caller a message belongs to (see call-origin.ts). */
  readonly resolveOrigin: () => ResolvedOrigin;
}

/** Applies `redact` to every string inside a JSON value (log data is any JSON). */
export function redactJson(value: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (typeof value === "string") return redact(value);
  if (depth > 32 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => redactJson(item, redact, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "__proto__") continue;
    out[redact(key)] = redactJson(item, redact, depth + 1);
  }
  return out;
}

/**
 * Turns a server's notifications (other than tools/list_changed and progress, which the
 * connection handles) into manager events: resources/updated, resources and prompts
 * list_changed, and log messages (notifications/message), each flood-capped.
 */
export function installNotificationHandlers(client: Client, deps: NotificationDeps): void {
  const gate = (kind: "log" | "resourceUpdated"): FloodGate =>
    new FloodGate(deps.maxPerSecond, (count) => deps.emit({ type: "notificationsDropped", server: deps.server, kind, count }));
  const logGate = gate("log");
  const updateGate = gate("resourceUpdated");
  client.setNotificationHandler("notifications/message", (notification) => {
    if (!logGate.admit()) return;
    const { level, logger, data } = notification.params;
    deps.emit({
      type: "log",
      server: deps.server,
      level: level as LoggingLevel,
      ...(logger === undefined ? {} : { logger: deps.redact(logger) }),
      data: redactJson(data, deps.redact),
      origin: deps.resolveOrigin(),
    });
  });
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    if (!updateGate.admit()) return;
    deps.emit({ type: "resourceUpdated", server: deps.server, uri: notification.params.uri });
  });
  client.setNotificationHandler("notifications/resources/list_changed", () => deps.emit({ type: "listChanged", server: deps.server, list: "resources" }));
  client.setNotificationHandler("notifications/prompts/list_changed", () => deps.emit({ type: "listChanged", server: deps.server, list: "prompts" }));
}
