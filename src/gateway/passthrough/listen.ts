import { z } from "zod";

/** At most this many resource URIs of one `subscriptions/listen` are subscribed upstream. */
export const MAX_LISTENED_RESOURCES = 256;

const ListenBody = z.object({
  method: z.literal("subscriptions/listen"),
  id: z.union([z.string(), z.number()]),
  params: z.object({ notifications: z.object({ resourceSubscriptions: z.array(z.string()).max(MAX_LISTENED_RESOURCES).optional() }) }),
});

/**
 * The resource URIs a 2026-07-28 `subscriptions/listen` request asks updates for (none for any
 * other body). The SDK's handler serves the stream and filters what it carries; the gateway must
 * first hold the upstream subscriptions those updates come from (Passthrough.holdSubscriptions).
 */
export function listenedResources(body: unknown): { readonly id: string | number; readonly uris: readonly string[] } | undefined {
  const parsed = ListenBody.safeParse(body);
  if (!parsed.success) return undefined;
  const uris = parsed.data.params.notifications.resourceSubscriptions ?? [];
  return uris.length === 0 ? undefined : { id: parsed.data.id, uris };
}
