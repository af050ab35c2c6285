import { isAbsolute } from "node:path";
import { z } from "zod";

export const DEFAULT_MAX_WRITE_BYTES = 10 * 1024 * 1024;

/** fs-write's configuration; plugin.json's configSchema is this schema as JSON Schema (a test keeps them equal). */
export const fsWriteConfigSchema = z.strictObject({
  baseDir: z
    .string()
    .min(1)
    .refine(isAbsolute, "baseDir must be an absolute path")
    .describe("Absolute path of the only directory guests may write; symlinks leading out of it are refused."),
  maxWriteBytes: z
    .number()
    .int()
    .positive()
    .default(DEFAULT_MAX_WRITE_BYTES)
    .describe("Largest file a write may produce, in bytes: the content of writeFile/writeBinary, or the file's size after appendFile."),
});

export type FsWriteConfig = z.infer<typeof fsWriteConfigSchema>;
