import type { GetPromptResult, Prompt, Resource, ResourceTemplateType as ResourceTemplate } from "@modelcontextprotocol/client";
import type { HostCallContext, HostFunction } from "../../sandbox/types.js";
import { auditContent, verdictOf } from "../audit/index.js";
import { sanitizeDescription } from "../sanitise/index.js";
import { runFlows } from "../flow/index.js";
import type { ServerCatalog } from "./catalog.js";
import { McpCallError } from "./errors.js";
import type { McpService } from "./service.js";

/** What the module's functions need from their surroundings (the same as a tool call's). */
export interface ProtocolModuleDeps {
  readonly redactValue?: <T>(value: T) => T;
  /** The run's budget for a request: its signal and its deadline less the wall reserve. */
  readonly budget: (context: HostCallContext) => { signal: AbortSignal; deadline: number };
  /**
   * The flow guard for what a request sends the server (a URI, a prompt's arguments): like a tool
   * without annotations, which MCP's defaults make one that may write or reach beyond the machine.
   */
  readonly guardFlow?: (context: HostCallContext, request: "resources.read" | "prompts.get", args: unknown) => Promise<void>;
  /** Largest resource a read may return, in bytes (the server's maxResponseBytes). */
  readonly maxBytes: number;
  /**
   * Takes one call from the run's tool-call budget for the request `context.fn` is about to send, or throws
   * TOOL_CALL_LIMIT: a loop of reads or listings reaches the server as a loop of tool calls does.
   */
  readonly takeCall: (context: HostCallContext) => void;
}

/** One content part of a read resource, as the guest gets it: binary as a Uint8Array. */
export interface GuestResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: Uint8Array;
}

const WITHHELD = "[description withheld: the audit found instructions aimed at the model in it]";

/**
 * The `resources` and `prompts` namespaces of a server's module (`files.resources.read(uri)`),
 * present when the server advertised the capability. Each request passes the approval re-check
 * and the run's call budget like a tool call; listings are audited like tool definitions (a
 * description that tries to steer the model is withheld); contents are size-capped and masked.
 */
export function protocolFunctions(service: McpService, catalog: ServerCatalog, deps: ProtocolModuleDeps): Record<string, HostFunction> {
  const server = catalog.server;
  const functions: Record<string, HostFunction> = {};
  // What the guest receives, masked, and labelled as this server's data for the run's flow guard: a
  // resource or prompt can carry a secret as well as a tool result can.
  const forGuest = <T>(value: T, context: HostCallContext): T => {
    const masked = deps.redactValue ? deps.redactValue(value) : value;
    runFlows(context)?.index.label(server, masked);
    return masked;
  };
  const request = async <M extends Parameters<McpService["clients"]["request"]>[1]>(method: M, params: Parameters<McpService["clients"]["request"]>[2] & object, context: HostCallContext) => {
    deps.takeCall(context);
    const caller = deps.budget(context);
    await service.acquireCallSlot(server, caller);
    try {
      return await service.clients.request(server, method, params as never, caller);
    } catch (error) {
      // The server's error text is its words too (a tool error is labelled the same way).
      if (error instanceof Error) runFlows(context)?.index.label(server, error.message);
      throw error;
    }
  };
  const { resources, prompts } = catalog.protocol;
  if (resources !== undefined) {
    functions[`${resources}.list`] = async (_args, context) => {
      const listed = (await request("resources/list", {}, context)) as { resources: Resource[] };
      return forGuest(screened(listed.resources, "resource").map(resourceForGuest), context);
    };
    functions[`${resources}.templates`] = async (_args, context) => {
      const listed = (await request("resources/templates/list", {}, context)) as { resourceTemplates: ResourceTemplate[] };
      return forGuest(screened(listed.resourceTemplates, "resource template").map(templateForGuest), context);
    };
    const readAll = async (args: readonly unknown[], context: HostCallContext, fn: string): Promise<GuestResourceContents[]> => {
      const uri = args[0];
      if (typeof uri !== "string" || uri.length === 0) throw badArgument(server, `${resources}.${fn}(uri) needs the resource's URI as a string, e.g. from ${resources}.list()`);
      await deps.guardFlow?.(context, "resources.read", { uri });
      const read = (await request("resources/read", { uri }, context)) as { contents: { uri: string; mimeType?: string; text?: string; blob?: string }[] };
      const parts = read.contents.map(contentsForGuest);
      const bytes = parts.reduce((sum, part) => sum + (part.text === undefined ? 0 : Buffer.byteLength(part.text)) + (part.blob?.byteLength ?? 0), 0);
      if (bytes > deps.maxBytes) {
        throw new McpCallError(
          "MCP_RESOURCE_TOO_LARGE",
          `resource of server "${server}" is ${bytes} bytes, over the server's maxResponseBytes (${deps.maxBytes}); raise "maxResponseBytes" for "${server}" in config.json to read it.`,
          { data: { server, bytes, limitBytes: deps.maxBytes } },
        );
      }
      return forGuest(parts, context);
    };
    functions[`${resources}.readAll`] = (args, context) => readAll(args, context, "readAll");
    functions[`${resources}.read`] = async (args, context) => {
      const [first] = await readAll(args, context, "read");
      return first?.blob ?? first?.text ?? "";
    };
  }
  if (prompts !== undefined) {
    functions[`${prompts}.list`] = async (_args, context) => {
      const listed = (await request("prompts/list", {}, context)) as { prompts: Prompt[] };
      return forGuest(screened(listed.prompts, "prompt").map(promptForGuest), context);
    };
    functions[`${prompts}.get`] = async (args, context) => {
      const [name, values] = args;
      if (typeof name !== "string" || name.length === 0) throw badArgument(server, `${prompts}.get(name, args) needs the prompt's name as a string, e.g. from ${prompts}.list()`);
      if (values !== undefined && (typeof values !== "object" || values === null || Array.isArray(values) || Object.values(values).some((v) => typeof v !== "string"))) {
        throw badArgument(server, `${prompts}.get(name, args): args must be an object of string values, e.g. { language: "en" }`);
      }
      await deps.guardFlow?.(context, "prompts.get", { name, ...(values === undefined ? {} : { arguments: values }) });
      const result = (await request("prompts/get", { name, ...(values === undefined ? {} : { arguments: values as Record<string, string> }) }, context)) as GetPromptResult;
      return forGuest({ ...(result.description === undefined ? {} : { description: sanitizeDescription(result.description) }), messages: result.messages }, context);
    };
  }
  return functions;
}

function badArgument(server: string, message: string): McpCallError {
  return new McpCallError("MCP_BAD_ARGUMENT", message, { data: { server } });
}

/**
 * A listed resource, template or prompt whose text the audit blocks keeps its name and URI, but its
 * title and description never reach the guest (and through it, the model).
 */
function screened<T extends { name: string; title?: string | undefined; description?: string | undefined }>(entries: readonly T[], kind: string): T[] {
  return entries.map((entry) => {
    const findings = auditContent({ title: entry.title, description: entry.description }, { tool: entry.name, field: kind });
    if (verdictOf(findings) !== "block") return entry;
    const { title: _title, ...rest } = entry;
    return { ...rest, description: WITHHELD } as T;
  });
}

function describe(entry: { title?: string | undefined; description?: string | undefined }): { title?: string; description?: string } {
  return {
    ...(entry.title === undefined ? {} : { title: sanitizeDescription(entry.title) }),
    ...(entry.description === undefined ? {} : { description: sanitizeDescription(entry.description) }),
  };
}

function resourceForGuest(resource: Resource): Record<string, unknown> {
  return {
    uri: resource.uri,
    name: resource.name,
    ...describe(resource),
    ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
    ...(resource.size === undefined ? {} : { size: resource.size }),
  };
}

function templateForGuest(template: ResourceTemplate): Record<string, unknown> {
  return { uriTemplate: template.uriTemplate, name: template.name, ...describe(template), ...(template.mimeType === undefined ? {} : { mimeType: template.mimeType }) };
}

function promptForGuest(prompt: Prompt): Record<string, unknown> {
  return {
    name: prompt.name,
    ...describe(prompt),
    ...(prompt.arguments === undefined
      ? {}
      : {
          arguments: prompt.arguments.map((argument) => ({
            name: argument.name,
            ...(argument.description === undefined ? {} : { description: sanitizeDescription(argument.description) }),
            ...(argument.required === undefined ? {} : { required: argument.required }),
          })),
        }),
  };
}

function contentsForGuest(part: { uri: string; mimeType?: string; text?: string; blob?: string }): GuestResourceContents {
  return {
    uri: part.uri,
    ...(part.mimeType === undefined ? {} : { mimeType: part.mimeType }),
    ...(part.text === undefined ? {} : { text: part.text }),
    ...(part.blob === undefined ? {} : { blob: new Uint8Array(Buffer.from(part.blob, "base64")) }),
  };
}
