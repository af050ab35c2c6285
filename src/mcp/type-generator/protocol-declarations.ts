import type { TypeNameAllocator } from "./names.js";

/**
 * The namespaces a server module has beside its tools, by the property name the guest uses
 * (`resources`, or `$resources` when a tool already took the plain name). Absent: the server did
 * not advertise that capability, and the module has no such namespace.
 */
export interface ProtocolNamespaces {
  readonly resources?: string;
  readonly prompts?: string;
}

/**
 * The namespace names for a server's module: the plain name unless a tool of the server already
 * uses it, then the name with a `$` in front (which no sanitised tool name can take).
 */
export function protocolNamespaces(capabilities: { readonly resources?: unknown; readonly prompts?: unknown } | undefined, toolNames: readonly string[]): ProtocolNamespaces {
  const taken = new Set(toolNames);
  const pick = (name: string): string => (taken.has(name) ? `$${name}` : name);
  return {
    ...(capabilities?.resources === undefined ? {} : { resources: pick("resources") }),
    ...(capabilities?.prompts === undefined ? {} : { prompts: pick("prompts") }),
  };
}

/** Declarations of the `resources` and `prompts` namespaces, at the module's indentation. */
export function protocolDeclarations(spaces: ProtocolNamespaces, allocator: TypeNameAllocator, indent: string): string {
  const lines: string[] = [];
  const at = (depth: number, text: string): void => void lines.push(`${indent.repeat(depth)}${text}`);
  if (spaces.resources !== undefined) {
    const resource = allocator.allocate("McpResource");
    const template = allocator.allocate("McpResourceTemplate");
    const contents = allocator.allocate("McpResourceContents");
    at(1, `/** A resource the server lists (resources/list). */`);
    at(1, `export interface ${resource} {`);
    at(2, `uri: string;`);
    at(2, `name: string;`);
    at(2, `title?: string;`);
    at(2, `description?: string;`);
    at(2, `mimeType?: string;`);
    at(2, `size?: number;`);
    at(1, `}`);
    at(1, `/** A family of resources named by an RFC 6570 URI template (resources/templates/list). */`);
    at(1, `export interface ${template} {`);
    at(2, `uriTemplate: string;`);
    at(2, `name: string;`);
    at(2, `title?: string;`);
    at(2, `description?: string;`);
    at(2, `mimeType?: string;`);
    at(1, `}`);
    at(1, `/** One part of a read resource: \`text\` for text, \`blob\` for binary content. */`);
    at(1, `export interface ${contents} {`);
    at(2, `uri: string;`);
    at(2, `mimeType?: string;`);
    at(2, `text?: string;`);
    at(2, `blob?: Uint8Array;`);
    at(1, `}`);
    at(1, `/** The server's resources (read-only data it offers by URI). */`);
    at(1, `export const ${spaces.resources}: {`);
    at(2, `/** Every resource the server lists (all pages). */`);
    at(2, `list(): ${resource}[];`);
    at(2, `/** The resource's content: text as a string, binary as a Uint8Array (the first part when there are several). */`);
    at(2, `read(uri: string): string | Uint8Array;`);
    at(2, `/** Every part of the resource as the server sent it. */`);
    at(2, `readAll(uri: string): ${contents}[];`);
    at(2, `/** The server's resource templates (all pages). */`);
    at(2, `templates(): ${template}[];`);
    at(1, `};`);
  }
  if (spaces.prompts !== undefined) {
    const prompt = allocator.allocate("McpPrompt");
    const message = allocator.allocate("McpPromptMessage");
    const result = allocator.allocate("McpPromptResult");
    if (lines.length > 0) lines.push("");
    at(1, `/** A prompt template the server offers (prompts/list). */`);
    at(1, `export interface ${prompt} {`);
    at(2, `name: string;`);
    at(2, `title?: string;`);
    at(2, `description?: string;`);
    at(2, `arguments?: { name: string; description?: string; required?: boolean }[];`);
    at(1, `}`);
    at(1, `/** One message of a prompt: text, or an image, audio or embedded resource content part. */`);
    at(1, `export interface ${message} {`);
    at(2, `role: "user" | "assistant";`);
    at(2, `content: { type: string; text?: string; [key: string]: unknown };`);
    at(1, `}`);
    at(1, `export interface ${result} {`);
    at(2, `description?: string;`);
    at(2, `messages: ${message}[];`);
    at(1, `}`);
    at(1, `/** The server's prompt templates. */`);
    at(1, `export const ${spaces.prompts}: {`);
    at(2, `/** Every prompt the server lists (all pages). */`);
    at(2, `list(): ${prompt}[];`);
    at(2, `/** The prompt filled in with \`args\` (string values; required arguments must be given). */`);
    at(2, `get(name: string, args?: Record<string, string>): ${result};`);
    at(1, `};`);
  }
  return lines.join("\n");
}
