/**
 * What a tool call gives guest code. JSON values, plus Uint8Array for binary data (the guest
 * contract lets Uint8Array cross the sandbox boundary).
 */
export type GuestValue = null | boolean | number | string | Uint8Array | GuestValue[] | { [key: string]: GuestValue };

/** An image or audio content item. */
export interface GuestBinary {
  readonly type: "image" | "audio";
  readonly mimeType: string;
  readonly data: Uint8Array;
}

/**
 * The value returned instead of the result when it is larger than maxResponseBytes. `value` is the
 * part that fits: for structured content (or a single JSON text) the start of its JSON text, cut
 * at a UTF-8 character boundary; for content items, the items that fit whole followed by the start
 * of the first text item that does not (a binary item that does not fit is left out). Sizes count
 * text as UTF-8 bytes and binary data as decoded bytes.
 */
export interface TruncatedResult {
  readonly truncated: true;
  readonly limitBytes: number;
  readonly totalBytes: number;
  /** Content items left out entirely (0 for structured content). */
  readonly omittedItems: number;
  readonly value: GuestValue;
}

/** The warning sink for truncation; pino's Logger fits. */
export interface ResultLogger {
  warn(data: Record<string, unknown>, message: string): void;
}

export interface ConvertOptions {
  readonly maxResponseBytes: number;
  readonly logger?: ResultLogger;
  /** Named in the truncation warning. */
  readonly server?: string;
  readonly tool?: string;
}

export interface Conversion {
  readonly value: GuestValue;
  readonly truncated: boolean;
}
