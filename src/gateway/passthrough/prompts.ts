import type { CompleteRequest, CompleteResult, GetPromptResult, ListPromptsResult, Prompt } from "@modelcontextprotocol/server";
import type { Logger } from "pino";
import type { CallerOptions } from "../../mcp/client-manager/index.js";
import { errorMessage } from "../../util/errors.js";
import { reaches, type ServerReach } from "../clients/scope.js";
import { assignFlatNames, type ToolRef } from "../flatten.js";
import { invalidParams, toProtocolError } from "./errors.js";
import type { Upstreams } from "./upstreams.js";

/** Pure: the names prompts get behind the gateway — flattened like tools (`server_prompt`), or their own when one server is exposed. */
export function namePrompts(
  listings: ReadonlyArray<{ server: string; prompts: readonly Prompt[] }>,
  flatten: boolean,
): { prompts: Prompt[]; byName: Map<string, ToolRef> } {
  const byName = new Map<string, ToolRef>();
  const prompts: Prompt[] = [];
  if (!flatten) {
    for (const { server, prompts: listed } of listings) {
      for (const prompt of listed) {
        if (byName.has(prompt.name)) continue;
        byName.set(prompt.name, { server, tool: prompt.name });
        prompts.push(prompt);
      }
    }
    return { prompts, byName };
  }
  const refs = listings.flatMap(({ server, prompts: listed }) => listed.map((p) => ({ server, tool: p.name })));
  const assigned = assignFlatNames(refs);
  for (const { server, prompts: listed } of listings) {
    for (const prompt of listed) {
      const name = assigned.byRef.get(`${server}.${prompt.name}`);
      if (name === undefined || byName.has(name)) continue;
      byName.set(name, { server, tool: prompt.name });
      prompts.push({ ...prompt, name });
    }
  }
  return { prompts, byName };
}

/** prompts/list, prompts/get and the prompt side of completion/complete across the upstream servers. */
export class PromptRouter {
  /** Each server's prompts as last listed; names are given over the servers a client reaches, in server order. */
  private readonly listed = new Map<string, readonly Prompt[]>();

  constructor(
    private readonly upstreams: Upstreams,
    private readonly logger: Logger,
    private readonly redact: (text: string) => string,
    /** false when one server is exposed: its prompts keep their own names. */
    private readonly flatten: boolean,
  ) {}

  async list(caller: CallerOptions, reach?: ServerReach): Promise<ListPromptsResult> {
    const names = this.serverNames(reach);
    const settled = await Promise.allSettled(names.map(async (server) => ({ server, prompts: (await this.upstreams.request(server, "prompts/list", undefined, caller)).prompts })));
    const listings: Array<{ server: string; prompts: Prompt[] }> = [];
    settled.forEach((outcome, i) => {
      const server = names[i] ?? "";
      if (outcome.status === "fulfilled") {
        listings.push(outcome.value);
        this.listed.set(server, outcome.value.prompts);
      } else {
        this.listed.delete(server);
        this.logger.warn({ server }, `server ${server} left out of prompts/list: ${this.redact(errorMessage(outcome.reason))}`);
      }
    });
    if (names.length > 0 && listings.length === 0 && settled[0]?.status === "rejected") throw toProtocolError(settled[0].reason, this.redact);
    return { prompts: namePrompts(listings, this.flatten).prompts };
  }

  async get(name: string, args: Record<string, string> | undefined, caller: CallerOptions, reach?: ServerReach): Promise<GetPromptResult> {
    const ref = await this.resolve(name, caller, reach);
    return this.upstreams.request(ref.server, "prompts/get", { name: ref.tool, ...(args === undefined ? {} : { arguments: args }) }, caller).catch((error: unknown) => {
      throw toProtocolError(error, this.redact);
    });
  }

  /** completion/complete for a prompt argument: routed by the prompt's gateway name, sent with its own name. */
  async complete(params: CompleteRequest["params"], caller: CallerOptions, reach?: ServerReach): Promise<CompleteResult> {
    if (params.ref.type !== "ref/prompt") throw invalidParams("internal: not a prompt reference");
    const ref = await this.resolve(params.ref.name, caller, reach);
    return this.upstreams.request(ref.server, "completion/complete", { ...params, ref: { ...params.ref, name: ref.tool } }, caller).catch((error: unknown) => {
      throw toProtocolError(error, this.redact);
    });
  }

  /** The prompt a gateway name stands for, among the servers in reach (named as that client's prompts/list names them). */
  private async resolve(name: string, caller: CallerOptions, reach: ServerReach): Promise<ToolRef> {
    const known = (): ToolRef | undefined => {
      const listings = this.serverNames(reach).flatMap((server) => {
        const prompts = this.listed.get(server);
        return prompts === undefined ? [] : [{ server, prompts }];
      });
      return namePrompts(listings, this.flatten).byName.get(name);
    };
    let ref = known();
    if (ref === undefined) {
      await this.list(caller, reach);
      ref = known();
    }
    if (ref === undefined) throw invalidParams(`This gateway has no prompt "${name}"; list the prompts again (prompts/list).`);
    return ref;
  }

  private serverNames(reach: ServerReach): string[] {
    return this.upstreams.names().filter((server) => reaches(reach, server));
  }
}
