import { describe, expect, it } from "vitest";
import type { ServerCatalog } from "../../../src/mcp/service/catalog.js";
import { CatalogCache } from "../../../src/mcp/service/catalog-cache.js";

/** A stand-in catalog: the cache only stores and compares the object, never reads it. */
const catalog = (server: string) => ({ server }) as unknown as ServerCatalog;

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("the catalog cache a tool call reads without waiting", () => {
  it("has a settled catalog only once its build succeeded, and the same object the build resolved to", async () => {
    const cache = new CatalogCache();
    const build = deferred<ServerCatalog>();
    cache.set("s", build.promise);
    expect(cache.settled("s")).toBeUndefined();
    expect(cache.get("s")).toBe(build.promise);
    const built = catalog("s");
    build.resolve(built);
    await build.promise;
    expect(cache.settled("s")).toBe(built);
  });

  it("a dropped entry (new tools listed, disconnect, revoke) forgets both the build and the catalog", async () => {
    const cache = new CatalogCache();
    const built = catalog("s");
    cache.set("s", Promise.resolve(built));
    await Promise.resolve();
    await Promise.resolve();
    expect(cache.settled("s")).toBe(built);
    cache.delete("s");
    expect(cache.settled("s")).toBeUndefined();
    expect(cache.has("s")).toBe(false);
  });

  it("a build that finishes after its entry was dropped or replaced is never recorded", async () => {
    const cache = new CatalogCache();
    const stale = deferred<ServerCatalog>();
    cache.set("s", stale.promise);
    cache.delete("s");
    stale.resolve(catalog("old"));
    await stale.promise;
    expect(cache.settled("s")).toBeUndefined();
    const first = deferred<ServerCatalog>();
    const second = deferred<ServerCatalog>();
    cache.set("s", first.promise);
    cache.set("s", second.promise);
    first.resolve(catalog("first"));
    await first.promise;
    expect(cache.settled("s")).toBeUndefined();
    const current = catalog("second");
    second.resolve(current);
    await second.promise;
    expect(cache.settled("s")).toBe(current);
  });

  it("a failed build is dropped, so the next call builds again", async () => {
    const cache = new CatalogCache();
    const build = deferred<ServerCatalog>();
    cache.set("s", build.promise);
    build.reject(new Error("listing failed"));
    await build.promise.catch(() => undefined);
    await Promise.resolve();
    expect(cache.has("s")).toBe(false);
    expect(cache.settled("s")).toBeUndefined();
  });
});
