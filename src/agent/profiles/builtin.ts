import type { NamedProfile, ProfileInput } from "./schema.js";
import { profileSchema } from "./schema.js";

const MiB = 1024 * 1024;

const DEFINITIONS: Readonly<Record<string, ProfileInput>> = {
  default: {
    description: "No MCP server enabled, default limits, plugin switches unchanged. The safe starting point.",
    mcpServers: [],
  },
  strict: {
    description: "For untrusted snippets: no plugins, no MCP servers, 2 s CPU, 10 s wall, 32 MB memory, 256 KB output.",
    limits: { cpuMs: 2_000, wallMs: 10_000, memoryBytes: 32 * MiB, outputBytes: 256 * 1024 },
    plugins: [],
    mcpServers: [],
  },
  "long-running": {
    description: "Room for long jobs (2 min CPU, 10 min wall, 256 MB); its limits win over stricter stacked profiles.",
    limits: { cpuMs: 120_000, wallMs: 600_000, memoryBytes: 256 * MiB },
    limitsMode: "override",
    mcpServers: [],
  },
};

/** Parsed once per call so callers can never mutate a shared definition. */
export function builtinProfiles(): NamedProfile[] {
  return Object.entries(DEFINITIONS).map(([name, input]) => ({ name, source: "built-in" as const, profile: profileSchema.parse(input) }));
}
