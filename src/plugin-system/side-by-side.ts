/** How one plugin's load ended: its result, or what it threw (kept, so that nothing rejects unhandled while earlier plugins are committed). */
export type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/**
 * Starts every item's `check` one after another, in order, and each item's `load` as soon as its own
 * check passed, without waiting for the loads before it; the outcomes come back in the items' order.
 * Plugins load this way so that the deadlines of several stuck plugins run at the same time instead of
 * adding up, while the checks (approval hashes, the shared scan cache and its file) keep their order and
 * the caller commits results in discovery order (which plugin wins a module, the order of messages).
 */
export function sideBySide<I, C, R>(items: readonly I[], check: (item: I) => Promise<C>, load: (item: I, checked: C) => Promise<R>): Promise<Settled<R>>[] {
  let previous: Promise<unknown> = Promise.resolve();
  return items.map((item) => {
    const checked = previous.then(() => check(item));
    previous = checked.catch(() => undefined);
    return checked.then((value) => load(item, value)).then(
      (value): Settled<R> => ({ ok: true, value }),
      (error: unknown): Settled<R> => ({ ok: false, error }),
    );
  });
}
