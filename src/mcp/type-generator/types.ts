import { z } from "zod";

/**
 * What the catalog hands the type generator for one tool. The catalog has already sanitised the
 * name (`jsName`) and kept the server's own name for routing; descriptions and schemas arrive raw
 * from the server and are treated as hostile here.
 */
export const toolAnnotationsForTypesSchema = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

export const toolForTypesSchema = z.object({
  jsName: z.string(),
  originalName: z.string(),
  description: z.string().optional(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: toolAnnotationsForTypesSchema.optional(),
});

export type ToolAnnotationsForTypes = z.infer<typeof toolAnnotationsForTypesSchema>;
export type ToolForTypes = z.infer<typeof toolForTypesSchema>;

/** What the server said about itself in `initialize`; every field is optional and untrusted. */
export const serverInfoForMetadataSchema = z.object({
  name: z.string().optional(),
  title: z.string().optional(),
  version: z.string().optional(),
  description: z.string().optional(),
  instructions: z.string().optional(),
});

export type ServerInfoForMetadata = z.infer<typeof serverInfoForMetadataSchema>;

/** Only the hints the server declared; an absent key means "not declared" (MCP defaults apply). */
export const toolHintsSchema = z.object({
  readOnly: z.boolean().optional(),
  destructive: z.boolean().optional(),
  idempotent: z.boolean().optional(),
  openWorld: z.boolean().optional(),
});

export const toolMetadataSchema = z.object({
  jsName: z.string(),
  originalName: z.string(),
  summary: z.string(),
  signature: z.string(),
  hints: toolHintsSchema,
});

export const moduleMetadataSchema = z.object({
  module: z.string(),
  summary: z.string(),
  tools: z.array(toolMetadataSchema),
});

export type ToolHints = z.infer<typeof toolHintsSchema>;
export type ToolMetadata = z.infer<typeof toolMetadataSchema>;
export type ModuleMetadata = z.infer<typeof moduleMetadataSchema>;
