import type { ServerCapabilities, Tool } from "@modelcontextprotocol/client";
import { assignToolNames, sanitizeDescription, sanitizeToolName, type ToolNameMap } from "../sanitise/index.js";
import {
  buildModuleMetadata,
  CompiledTypesCache,
  formatToolSignature,
  generateModuleDeclaration,
  protocolNamespaces,
  type ProtocolNamespaces,
  type ModuleMetadata,
  type ToolForTypes,
} from "../type-generator/index.js";
import { ToolArgumentValidator } from "../validate/arguments.js";
import type { CappedTool } from "./listing-caps.js";
import type { HeldInstructions, HeldTool } from "./trust.js";

export interface CatalogTool {
  readonly jsName: string;
  readonly originalName: string;
  /** Sanitised: what the model and the declarations show. The pin and the audit saw the original. */
  readonly description: string;
  readonly definition: Tool;
  readonly validator: ToolArgumentValidator;
}

export interface CatalogInput {
  readonly server: string;
  readonly description: string | undefined;
  readonly instructions: string | undefined;
  /** Instructions the server sent that the model does not get, and why. */
  readonly heldInstructions?: HeldInstructions;
  readonly trusted: readonly Tool[];
  readonly held: readonly HeldTool[];
  readonly dropped: readonly CappedTool[];
  readonly hiddenByFilters: readonly string[];
  readonly unmatchedFilters: readonly string[];
  /** What the server declared at initialize: whether its module gets `resources` and `prompts`. */
  readonly capabilities?: ServerCapabilities | undefined;
}

/** One server's tools as the guest and the model see them: trusted, renamed, validated, typed. */
export class ServerCatalog {
  readonly server: string;
  readonly module: string;
  readonly tools: readonly CatalogTool[];
  readonly names: ToolNameMap;
  readonly held: readonly HeldTool[];
  readonly dropped: readonly CappedTool[];
  readonly hiddenByFilters: readonly string[];
  readonly unmatchedFilters: readonly string[];
  readonly heldInstructions: HeldInstructions | undefined;
  /** The module's `resources` / `prompts` namespaces (absent when the server has none). */
  readonly protocol: ProtocolNamespaces;
  private readonly byJs = new Map<string, CatalogTool>();
  private readonly byOriginal = new Map<string, CatalogTool>();
  private declaration: Promise<string> | undefined;
  private meta: ModuleMetadata | undefined;
  private typesInput: readonly ToolForTypes[] | undefined;

  constructor(
    private readonly input: CatalogInput,
    private readonly typesCache: CompiledTypesCache,
  ) {
    this.server = input.server;
    this.module = `mcp-${input.server}`;
    this.names = assignToolNames(input.trusted.map((t) => t.name));
    this.tools = input.trusted.map((definition) => {
      const tool: CatalogTool = {
        jsName: this.names.toJs.get(definition.name) ?? definition.name,
        originalName: definition.name,
        description: sanitizeDescription(definition.description ?? ""),
        definition,
        validator: new ToolArgumentValidator(definition.inputSchema),
      };
      this.byJs.set(tool.jsName, tool);
      this.byOriginal.set(tool.originalName, tool);
      return tool;
    });
    this.held = input.held;
    this.dropped = input.dropped;
    this.hiddenByFilters = input.hiddenByFilters;
    this.unmatchedFilters = input.unmatchedFilters;
    this.heldInstructions = input.heldInstructions;
    this.protocol = protocolNamespaces(input.capabilities, this.tools.map((tool) => tool.jsName));
  }

  /** By the guest-facing name, falling back to the server's original name. */
  find(name: string): CatalogTool | undefined {
    return this.byJs.get(name) ?? this.byOriginal.get(name);
  }

  heldTool(name: string): HeldTool | undefined {
    // Held tools get no entry in `names` (only trusted ones are assigned), so match their sanitised name.
    return this.held.find((h) => h.name === name || sanitizeToolName(h.name) === name);
  }

  /** One-line TypeScript signature of a trusted tool, for search results and listings. */
  signature(tool: CatalogTool): string {
    const forTypes = this.forTypes().find((t) => t.jsName === tool.jsName);
    return forTypes === undefined ? tool.jsName : formatToolSignature(forTypes);
  }

  /** The tools as the type generator takes them; built once per listing (the catalog is immutable). */
  forTypes(): readonly ToolForTypes[] {
    this.typesInput ??= this.tools.map((t) => ({
      jsName: t.jsName,
      originalName: t.originalName,
      ...(t.definition.description === undefined ? {} : { description: t.definition.description }),
      inputSchema: (t.definition.inputSchema ?? { type: "object" }) as Record<string, unknown>,
      ...(t.definition.outputSchema === undefined ? {} : { outputSchema: t.definition.outputSchema as Record<string, unknown> }),
      ...(t.definition.annotations === undefined ? {} : { annotations: t.definition.annotations }),
    }));
    return this.typesInput;
  }

  /** The `declare module "host:mcp-<name>"` text, generated once per listing. */
  declarations(): Promise<string> {
    this.declaration ??= generateModuleDeclaration(this.server, this.forTypes(), { cache: this.typesCache, protocol: this.protocol });
    return this.declaration;
  }

  metadata(): ModuleMetadata {
    this.meta ??= buildModuleMetadata(this.server, this.forTypes(), {
      ...(this.input.description === undefined ? {} : { description: this.input.description }),
      ...(this.input.instructions === undefined ? {} : { instructions: this.input.instructions }),
    });
    return this.meta;
  }
}
