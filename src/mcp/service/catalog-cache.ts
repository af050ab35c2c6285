import type { ServerCatalog } from "./catalog.js";

/**
 * Each server's catalog while it is current: the build in flight (shared by concurrent callers) and,
 * once it has succeeded, the catalog itself, so a tool call can read it without waiting a turn of
 * the event loop. Dropping a server's entry (new tools listed, disconnected, revoked) drops both;
 * a build that finished after it was dropped, or that failed, is never recorded.
 */
export class CatalogCache {
  private readonly building = new Map<string, Promise<ServerCatalog>>();
  private readonly ready = new Map<string, ServerCatalog>();

  /** The current build of `name`'s catalog (pending or settled); undefined when none. */
  get(name: string): Promise<ServerCatalog> | undefined {
    return this.building.get(name);
  }

  has(name: string): boolean {
    return this.building.has(name);
  }

  /** The catalog the current build produced, if it has; undefined while it runs, after it failed, or with none. */
  settled(name: string): ServerCatalog | undefined {
    return this.ready.get(name);
  }

  set(name: string, build: Promise<ServerCatalog>): void {
    this.delete(name);
    this.building.set(name, build);
    build.then(
      (catalog) => {
        if (this.building.get(name) === build) this.ready.set(name, catalog);
      },
      () => {
        if (this.building.get(name) === build) this.building.delete(name);
      },
    );
  }

  delete(name: string): void {
    this.building.delete(name);
    this.ready.delete(name);
  }
}
