import { readdirSync, readFileSync, statSync } from "node:fs";
import type { ConfigPaths } from "../../config/paths.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { BUILTIN_PROFILE_NAMES } from "./spec.js";

/**
 * The names completion offers, read from the config home when a completion is asked for: servers
 * from config.json, tools from the pins (what was approved, so no server is started), toolsets,
 * profiles and plugins. Every read is forgiving: a missing or broken file offers nothing, and
 * the command itself reports the problem when it runs.
 */
export interface CompletionNames {
  servers(): string[];
  /** Pinned tool names of one server. */
  tools(server: string): string[];
  /** Property names of a pinned tool's inputSchema. */
  toolArguments(server: string, tool: string): string[];
  toolsets(): string[];
  profiles(): string[];
  plugins(): string[];
}

type Json = Record<string, unknown>;

/** A file over its state-file cap offers nothing (the command refuses it when it runs): a Tab never parses 90 MB. */
function readJson(file: string, maxBytes: number): Json | undefined {
  try {
    if (statSync(file).size > maxBytes) return undefined;
    const text = readFileSync(file, "utf8").replace(/^\ufeff/, "");
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function record(value: unknown): Json {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
}

function folders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith("."))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

const sorted = (names: Iterable<string>): string[] => [...new Set(names)].sort();

/** Reads lazily and once per completion. `nativePluginsDir` finds the package's plugins/ folder. */
export function configHomeNames(paths: ConfigPaths, nativePluginsDir: () => string): CompletionNames {
  let config: Json | undefined;
  let pins: Json | undefined;
  const configFile = () => (config ??= readJson(paths.configFile, STATE_FILE_LIMITS.config) ?? {});
  const pinnedServers = () => record((pins ??= readJson(paths.pinsFile, STATE_FILE_LIMITS.pins) ?? {}).servers);
  const pinnedTools = (server: string) => (Object.hasOwn(pinnedServers(), server) ? record(record(pinnedServers()[server]).tools) : {});
  return {
    servers: () => sorted(Object.keys(record(configFile().mcpServers))),
    tools: (server) => sorted(Object.keys(pinnedTools(server))),
    toolArguments: (server, tool) => {
      const tools = pinnedTools(server);
      if (!Object.hasOwn(tools, tool)) return [];
      const schema = record(record(record(tools[tool]).definition).inputSchema);
      return sorted(Object.keys(record(schema.properties)));
    },
    toolsets: () => sorted(Object.keys(record(readJson(paths.toolsetsFile, STATE_FILE_LIMITS.toolsets)?.toolsets))),
    profiles: () => sorted([...BUILTIN_PROFILE_NAMES, ...Object.keys(record(configFile().profiles))]),
    plugins: () => {
      let native: string[] = [];
      try {
        native = folders(nativePluginsDir());
      } catch {
        native = []; // no package root (a bundled copy): the user's plugins are still offered
      }
      return sorted([...native, ...folders(paths.userPluginsDir)]);
    },
  };
}
