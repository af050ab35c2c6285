import { z } from "zod";

/** How file text is encoded on the guest side; base64/hex/latin1 carry arbitrary bytes as strings. */
export const textEncodingSchema = z.enum(["utf8", "utf-8", "base64", "hex", "latin1"]);
export type TextEncoding = z.infer<typeof textEncodingSchema>;
