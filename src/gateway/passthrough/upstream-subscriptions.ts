import type { Logger } from "pino";
import type { CallerOptions } from "../../mcp/client-manager/index.js";
import { errorMessage } from "../../util/errors.js";
import type { ServerReach } from "../clients/scope.js";
import { invalidParams, toProtocolError } from "./errors.js";
import type { ResourceRouter } from "./resources.js";
import type { Upstreams } from "./upstreams.js";

/** Releases a subscription once its acquisition settled: one still on its way would otherwise be held for good; one that failed holds nothing. */
export async function releaseOnce(acquiring: Promise<void>, release: () => Promise<void>): Promise<void> {
  const held = await acquiring.then(
    () => true,
    () => false,
  );
  if (held) await release();
}

/**
 * The gateway's own subscriptions upstream: one per URI however many client connections hold it,
 * subscribed for the first holder, unsubscribed after the last, renewed when its server reconnects
 * (a new process forgot it), and keeping that server running meanwhile (updates come only from a
 * running server: one closed for idleness would drop the subscription unseen).
 */
export class UpstreamSubscriptions {
  /** `ready` settles when the upstream answered the subscribe: later holders wait for it rather than subscribing again. */
  private readonly held = new Map<string, { server: string; holders: number; release: () => void; ready: Promise<void>; subscribed: boolean }>();

  constructor(
    private readonly upstreams: Upstreams,
    private readonly resources: ResourceRouter,
    private readonly logger: Logger,
    private readonly redact: (text: string) => string,
  ) {}

  /** One more holder of the upstream subscription for `uri` (subscribing upstream for the first). */
  async acquire(uri: string, caller: CallerOptions, reach: ServerReach): Promise<void> {
    let owner = this.resources.ownerOf(uri, reach);
    if (owner === undefined) {
      await this.resources.list(caller, reach).catch(() => undefined);
      await this.resources.templatesList(caller, reach).catch(() => undefined);
      owner = this.resources.ownerOf(uri, reach);
    }
    if (owner === undefined) throw invalidParams(`No server behind this gateway serves ${uri}; list the resources first.`);
    const held = this.held.get(uri);
    if (held !== undefined) {
      // Counted before waiting, so that a release meanwhile does not unsubscribe under this holder.
      held.holders += 1;
      await held.ready;
      return;
    }
    // Registered before the request goes out: subscribes of the URI arriving meanwhile join this one.
    const entry = { server: owner, holders: 1, release: this.upstreams.hold(owner), ready: Promise.resolve(), subscribed: false };
    entry.ready = this.upstreams.request(owner, "resources/subscribe", { uri }, caller).then(
      () => {
        entry.subscribed = true;
      },
      (error: unknown) => {
        if (this.held.get(uri) === entry) this.held.delete(uri);
        entry.release();
        throw toProtocolError(error, this.redact);
      },
    );
    this.held.set(uri, entry);
    await entry.ready;
  }

  /** One holder fewer; the last one unsubscribes upstream and lets the server idle again. */
  async release(uri: string, caller: CallerOptions): Promise<void> {
    const held = this.held.get(uri);
    if (held === undefined) return;
    held.holders -= 1;
    if (held.holders > 0) return;
    this.held.delete(uri);
    held.release();
    await this.upstreams.request(held.server, "resources/unsubscribe", { uri }, caller).catch((error: unknown) => {
      this.logger.debug({ server: held.server, uri }, `resources/unsubscribe failed: ${this.redact(errorMessage(error))}`);
    });
  }

  /** `server` (re)connected: every subscription held on it is sent again. */
  renew(server: string): void {
    for (const [uri, held] of this.held) {
      // One still being subscribed is not renewed: its own subscribe (which started this server) is on its way.
      if (held.server !== server || !held.subscribed) continue;
      void this.upstreams.request(server, "resources/subscribe", { uri }, {}).catch((error: unknown) => {
        this.logger.warn({ server, uri }, `resources/subscribe not renewed after ${server} reconnected: ${this.redact(errorMessage(error))}`);
      });
    }
  }
}
