import type { ConfigPaths } from "../config/paths.js";
import type { CreatedEngine } from "../sandbox/select.js";
import type { EngineChoice } from "../sandbox/types.js";

/**
 * Starts the sandbox engine `mcpvm run` will use, before the rest of the host loads: the engine's
 * worker thread boots QuickJS on another core while the main thread loads and evaluates the plugin
 * system, the MCP service and the parser, instead of after them (docs/ARCHITECTURE.md, "How the CLI is
 * built and loaded"). The choice is the host's own: --engine, else config.json `engine`, else auto.
 * Never rejects: undefined when config.json cannot be read or is invalid, or the engine cannot start;
 * the host, opening next and creating its engine itself, reports either with its usual error. The
 * host adopts the engine (McpvmHost's `startedEngine`) or disposes it.
 */
export function prestartEngine(paths: ConfigPaths, flag: EngineChoice | undefined): Promise<CreatedEngine | undefined> {
  return start(paths, flag).catch(() => undefined);
}

async function start(paths: ConfigPaths, flag: EngineChoice | undefined): Promise<CreatedEngine> {
  const [{ loadConfigFile }, { createEngine }] = await Promise.all([import("../config/config-file.js"), import("../sandbox/select.js")]);
  // An unreadable or invalid config.json rejects here and is reported by the host, which reads it next.
  const choice = flag ?? (await loadConfigFile(paths.configFile)).engine ?? "auto";
  return createEngine(choice);
}
