import type { McpService, ServerCatalog } from "../../mcp/service/index.js";
import { errorMessage } from "../../util/errors.js";

export interface CatalogSweep {
  readonly catalogs: readonly ServerCatalog[];
  /** Enabled servers that could not be listed, each with why (not approved, failed to start, …). */
  readonly unavailable: readonly string[];
}

/** Catalogs of every enabled, approved server (connecting them as needed); the rest are reported, not started. */
export async function sweepCatalogs(service: McpService, signal?: AbortSignal): Promise<CatalogSweep> {
  const unavailable: string[] = [];
  const results = await Promise.all(
    service.enabledServers().map(async (server) => {
      const approval = await service.approvalStatus(server).catch(() => undefined);
      if (approval?.state !== "approved") {
        unavailable.push(`${server}: not approved (manage {action: "enable", server} asks the person)`);
        return undefined;
      }
      try {
        return await service.catalog(server, signal === undefined ? {} : { signal });
      } catch (error) {
        unavailable.push(`${server}: ${errorMessage(error)}`);
        return undefined;
      }
    }),
  );
  return { catalogs: results.filter((c): c is ServerCatalog => c !== undefined), unavailable: unavailable.sort() };
}
