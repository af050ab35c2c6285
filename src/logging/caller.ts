import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The gateway client a piece of work is done for ("alice", "data-team/bo"), so what is recorded
 * far below the gateway (the activity log line of an upstream call, perhaps made by a guest
 * script) can say who asked. Set by the gateway around each tools/call; nothing else pays for it.
 */
const storage = new AsyncLocalStorage<string>();

export function runForClient<T>(client: string, work: () => T): T {
  return storage.run(client, work);
}

export function currentClient(): string | undefined {
  return storage.getStore();
}
