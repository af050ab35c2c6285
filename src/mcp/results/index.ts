export type { GuestValue, GuestBinary, TruncatedResult, ResultLogger, ConvertOptions, Conversion } from "./types.js";
export { toGuestValue } from "./convert.js";
export { contentToGuest, parseTextValue, sanitizeJson, decodeBase64 } from "./content.js";
export { contentBytes, utf8Prefix } from "./size.js";
export { toolErrorText, MAX_ERROR_TEXT_CHARS } from "./error-text.js";
