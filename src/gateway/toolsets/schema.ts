import { z } from "zod";

export const TOOLSET_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** `server.tool`: a configured server name (no dots), a dot, the tool's name. */
export const TOOL_REF_PATTERN = /^[a-z][a-z0-9-]*\.\S.*$/;
export const MAX_TOOLSET_TOOLS = 200;

export const toolsetNameSchema = z.string().regex(TOOLSET_NAME_PATTERN, "toolset names are 1-64 letters, digits, _ or -, starting with a letter or digit");

export const toolsetSchema = z
  .object({
    description: z.string().max(1_000).optional(),
    tools: z
      .array(z.string().regex(TOOL_REF_PATTERN, 'tool references look like "server.tool"'))
      .min(1, "a toolset needs at least one tool")
      .max(MAX_TOOLSET_TOOLS),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .strict();

/**
 * Keys of toolsets.json. Stores are read with parseJsonSafe, which drops `constructor` and `prototype`
 * keys, so toolsets with those names are stored as `%constructor` / `%prototype` (see ToolsetStore).
 */
export const storedToolsetKeySchema = z.union([toolsetNameSchema, z.enum(["%constructor", "%prototype"])]);

export const toolsetFileSchema = z
  .object({
    version: z.literal(1),
    toolsets: z.record(storedToolsetKeySchema, toolsetSchema),
  })
  .strict();

export type Toolset = z.infer<typeof toolsetSchema>;
export type ToolsetFile = z.infer<typeof toolsetFileSchema>;

/** What build-toolset and `mcpvm toolset build` accept. */
export const toolsetInputSchema = z
  .object({
    name: toolsetNameSchema,
    tools: toolsetSchema.shape.tools,
    description: toolsetSchema.shape.description,
  })
  .strict();

export type ToolsetInput = z.infer<typeof toolsetInputSchema>;
