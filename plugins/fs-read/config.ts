import { isAbsolute } from "node:path";
import { z } from "zod";

export const DEFAULT_MAX_READ_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_LIST_ENTRIES = 10_000;

/** fs-read's configuration; plugin.json's configSchema is this schema as JSON Schema (a test keeps them equal). */
export const fsReadConfigSchema = z.strictObject({
  baseDir: z
    .string()
    .min(1)
    .refine(isAbsolute, "baseDir must be an absolute path")
    .describe("Absolute path of the only directory guests may read; symlinks leading out of it are refused."),
  maxReadBytes: z
    .number()
    .int()
    .positive()
    .default(DEFAULT_MAX_READ_BYTES)
    .describe("Largest file readFile/readBinary return, and the largest readChunk length, in bytes."),
  maxListEntries: z
    .number()
    .int()
    .positive()
    .default(DEFAULT_MAX_LIST_ENTRIES)
    .describe("Most entries listDir returns; larger directories are refused with FS_TOO_LARGE."),
});

export type FsReadConfig = z.infer<typeof fsReadConfigSchema>;
