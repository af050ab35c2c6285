import { UriTemplate, type ListResourcesResult, type ListResourceTemplatesResult, type ReadResourceResult, type Resource, type ResourceTemplateType } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { CallerOptions } from "../../mcp/client-manager/index.js";
import { errorMessage } from "../../util/errors.js";
import { reaches, type ServerReach } from "../clients/scope.js";
import { resourceNotFound, resourceTooLarge, toProtocolError } from "./errors.js";
import type { Upstreams } from "./upstreams.js";

/** A URI that two or more servers list: the first (in server order) serves it. */
export interface UriClaim {
  readonly uri: string;
  readonly servers: readonly string[];
}

/** Pure: merges per-server listings, keeping URIs unchanged; a URI listed by several servers goes to the first. */
export function mergeResourceListings(listings: ReadonlyArray<{ server: string; resources: readonly Resource[] }>): {
  resources: Resource[];
  owners: Map<string, string>;
  claims: UriClaim[];
} {
  const owners = new Map<string, string>();
  const claimants = new Map<string, string[]>();
  const resources: Resource[] = [];
  for (const { server, resources: listed } of listings) {
    for (const resource of listed) {
      const seen = claimants.get(resource.uri);
      if (seen !== undefined) {
        if (!seen.includes(server)) seen.push(server);
        continue;
      }
      claimants.set(resource.uri, [server]);
      owners.set(resource.uri, server);
      resources.push(resource);
    }
  }
  const claims = [...claimants.entries()].filter(([, servers]) => servers.length > 1).map(([uri, servers]) => ({ uri, servers }));
  return { resources, owners, claims };
}

/** Decoded bytes of a read result (text as UTF-8, blobs as base64-decoded). */
export function contentBytes(result: ReadResourceResult): number {
  let total = 0;
  for (const item of result.contents) {
    if ("blob" in item && typeof item.blob === "string") total += Math.floor((item.blob.length * 3) / 4);
    else if ("text" in item && typeof item.text === "string") total += Buffer.byteLength(item.text);
  }
  return total;
}

/**
 * resources/list, resources/templates/list and resources/read across the upstream servers, with
 * URIs unchanged. A read goes to the server that listed the URI, else to the first whose template
 * matches it; a URI claimed by two servers is logged (once per listing) and served by the first.
 */
export class ResourceRouter {
  /** Each server's URIs and templates as last listed, for routing; a client limited to some servers routes among those only. */
  private readonly uris = new Map<string, ReadonlySet<string>>();
  private readonly templates = new Map<string, ReadonlyArray<{ template: UriTemplate; raw: string }>>();

  constructor(
    private readonly upstreams: Upstreams,
    private readonly logger: Logger,
    private readonly redact: (text: string) => string,
  ) {}

  async list(caller: CallerOptions, reach?: ServerReach): Promise<ListResourcesResult> {
    const names = this.serverNames(reach);
    const listings = await this.eachServer(names, caller, async (server) => ({ server, resources: (await this.upstreams.request(server, "resources/list", undefined, caller)).resources }));
    // A server left out (it failed) routes nothing until it lists again.
    for (const name of names) this.uris.delete(name);
    for (const { server, resources } of listings) this.uris.set(server, new Set(resources.map((r) => r.uri)));
    const merged = mergeResourceListings(listings);
    for (const claim of merged.claims) {
      this.logger.warn({ uri: claim.uri, servers: claim.servers }, `resource URI ${claim.uri} is listed by ${claim.servers.join(" and ")}; ${claim.servers[0]} serves it`);
    }
    return { resources: merged.resources };
  }

  async templatesList(caller: CallerOptions, reach?: ServerReach): Promise<ListResourceTemplatesResult> {
    const names = this.serverNames(reach);
    const listings = await this.eachServer(names, caller, async (server) => ({
      server,
      templates: (await this.upstreams.request(server, "resources/templates/list", undefined, caller)).resourceTemplates,
    }));
    const all: ResourceTemplateType[] = [];
    for (const name of names) this.templates.delete(name);
    for (const { server, templates } of listings) {
      const compiled: Array<{ template: UriTemplate; raw: string }> = [];
      for (const template of templates) {
        all.push(template);
        try {
          compiled.push({ template: new UriTemplate(template.uriTemplate), raw: template.uriTemplate });
        } catch (error) {
          this.logger.warn({ server, template: template.uriTemplate }, `resource template of ${server} not usable for routing: ${errorMessage(error)}`);
        }
      }
      this.templates.set(server, compiled);
    }
    return { resourceTemplates: all };
  }

  async read(uri: string, caller: CallerOptions, reach?: ServerReach): Promise<ReadResourceResult> {
    let owner = this.ownerOf(uri, reach);
    if (owner === undefined) {
      // Not seen yet (a client may read a URI it learnt elsewhere): list once, then decide.
      await Promise.all([this.list(caller, reach), this.templatesList(caller, reach)]);
      owner = this.ownerOf(uri, reach);
    }
    if (owner === undefined) throw resourceNotFound(uri, `no server behind this gateway lists it or has a template that matches it; its servers: ${this.serverNames(reach).join(", ") || "none"}`);
    const result = await this.upstreams.request(owner, "resources/read", { uri }, caller).catch((error: unknown) => {
      throw toProtocolError(error, this.redact);
    });
    const limit = this.upstreams.maxResponseBytes(owner);
    const bytes = contentBytes(result);
    if (limit !== undefined && bytes > limit) throw resourceTooLarge(uri, owner, bytes, limit);
    return result;
  }

  /** The server that serves `uri` among those in reach, if known: the first that listed it, else the first whose template matches. */
  ownerOf(uri: string, reach?: ServerReach): string | undefined {
    const names = this.serverNames(reach);
    return names.find((name) => this.uris.get(name)?.has(uri) === true) ?? names.find((name) => this.templates.get(name)?.some((t) => t.template.match(uri) !== null) === true);
  }

  /** The server in reach whose template is exactly `uriTemplate` (for completion/complete of a resource template). */
  ownerOfTemplate(uriTemplate: string, reach?: ServerReach): string | undefined {
    return this.serverNames(reach).find((name) => this.templates.get(name)?.some((t) => t.raw === uriTemplate) === true);
  }

  private serverNames(reach: ServerReach): string[] {
    return this.upstreams.names().filter((name) => reaches(reach, name));
  }

  /** Runs `fetch` on every upstream; one that fails is logged and left out, so one broken server does not hide the others. */
  private async eachServer<T>(names: readonly string[], caller: CallerOptions, fetch: (server: string) => Promise<T>): Promise<T[]> {
    const settled = await Promise.allSettled(names.map(fetch));
    const out: T[] = [];
    settled.forEach((outcome, i) => {
      if (outcome.status === "fulfilled") out.push(outcome.value);
      else this.logger.warn({ server: names[i] }, `server ${names[i]} left out of the listing: ${this.redact(errorMessage(outcome.reason))}`);
    });
    if (names.length > 0 && out.length === 0 && settled[0]?.status === "rejected") throw toProtocolError(settled[0].reason, this.redact);
    return out;
  }
}
