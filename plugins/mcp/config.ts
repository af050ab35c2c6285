import { z } from "zod";

/** config.json `plugins.mcp.config`: how hard mcpvm works its MCP servers. Servers themselves live in `mcpServers`. */
export const mcpPluginConfigSchema = z
  .object({
    /** Connections alive at once; the least recently used idle one is closed to make room. */
    maxLiveConnections: z.number().int().min(1).max(20).default(5),
    /** Close a server nobody has called for this long (0: never). */
    idleTimeoutMs: z.number().int().min(0).default(5 * 60_000),
    /** Reconnects after a server died or failed to connect, per server per session. */
    maxReconnects: z.number().int().min(0).max(20).default(3),
    /**
     * Opt-in: at most this many tool calls per second per server (a token bucket; a call waits for its
     * slot within its run's wall budget). Unset by default: calls are never slowed down silently, and a
     * runaway loop is bounded by the run's tool-call budget (limits.toolCalls) instead.
     */
    callsPerSecond: z.number().positive().max(10_000).optional(),
    /**
     * Ask the configured LLM (config.json `model`, or MCPVM_MODEL) for a second opinion on new and
     * changed tool definitions. It can only add findings; the rule-based audit always runs.
     */
    secondOpinion: z.boolean().default(false),
  })
  .strict();

export type McpPluginConfig = z.infer<typeof mcpPluginConfigSchema>;
