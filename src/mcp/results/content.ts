import type { ContentBlock } from "@modelcontextprotocol/client";
import { parseJsonSafe } from "../../util/json.js";
import type { GuestValue } from "./types.js";

/** Keys that must never become own properties of host or guest objects built from server data. */
const POISON_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** A deep copy of untrusted JSON-like data without prototype-polluting keys (as parseJsonSafe does). */
export function sanitizeJson(value: unknown): GuestValue {
  if (value === null || typeof value === "boolean" || typeof value === "number" || typeof value === "string") return value;
  if (value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return value.map(sanitizeJson);
  if (typeof value === "object") {
    const out: { [key: string]: GuestValue } = {};
    for (const [key, item] of Object.entries(value)) {
      if (!POISON_KEYS.has(key) && item !== undefined) out[key] = sanitizeJson(item);
    }
    return out;
  }
  return null;
}

/**
 * Text that is a JSON object or array becomes that value; any other text stays a string. Bare
 * numbers are not parsed: an id like "12345678901234567890" must not lose digits.
 */
export function parseTextValue(text: string): GuestValue {
  const start = text.trimStart()[0];
  if (start !== "{" && start !== "[") return text;
  try {
    return sanitizeJson(parseJsonSafe(text));
  } catch {
    return text;
  }
}

export function decodeBase64(data: string): Uint8Array {
  return Uint8Array.from(Buffer.from(data, "base64"));
}

function isJsonMime(mimeType: string | undefined): boolean {
  return mimeType !== undefined && /^application\/(?:[\w.+-]+\+)?json\b/i.test(mimeType);
}

function optional(entries: Record<string, string | undefined>): { [key: string]: GuestValue } {
  const out: { [key: string]: GuestValue } = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) out[key] = value;
  return out;
}

/** One content item as the guest sees it. */
export function contentToGuest(block: ContentBlock): GuestValue {
  switch (block.type) {
    case "text":
      return parseTextValue(block.text);
    case "image":
    case "audio":
      return { type: block.type, mimeType: block.mimeType, data: decodeBase64(block.data) };
    case "resource_link":
      return { type: "resource_link", ...optional({ uri: block.uri, name: block.name, mimeType: block.mimeType, description: block.description }) };
    case "resource": {
      const resource = block.resource;
      const head = { type: "resource", ...optional({ uri: resource.uri, mimeType: resource.mimeType }) };
      if ("text" in resource && typeof resource.text === "string") {
        return { ...head, text: isJsonMime(resource.mimeType) ? parseTextValue(resource.text) : resource.text };
      }
      if ("blob" in resource && typeof resource.blob === "string") return { ...head, data: decodeBase64(resource.blob) };
      return head;
    }
    default:
      // A content type newer than this code: pass its JSON through rather than lose it.
      return sanitizeJson(block);
  }
}
