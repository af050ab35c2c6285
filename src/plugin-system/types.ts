import type { z } from "zod";
import type { HostModules } from "../sandbox/types.js";
import type { ConfigPaths } from "../config/paths.js";

/** What a plugin's code may rely on when it creates its host functions. Side effects are injected here. */
export interface PluginContext {
  readonly paths: ConfigPaths;
  /** The plugin's own folder (for plugins that ship data files). */
  readonly pluginDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** What the mcpvm host lends to native plugins; user plugins never get it. */
  readonly services?: HostServices;
}

/**
 * Host services for native plugins. The `mcp` plugin asks for the MCP modules here, so the MCP
 * machinery (and every server behind it) exists only once that plugin is approved, enabled and loaded.
 */
export interface HostServices {
  readonly mcpModules?: (pluginConfig: unknown) => HostModules | Promise<HostModules>;
}

/**
 * What a plugin's entry module exports as `default`. Only modules listed in `declaredModules`
 * (and in plugin.json's hostModules) may be returned by createHostFunctions.
 */
export interface PluginRegistration<Config = unknown> {
  readonly name: string;
  readonly declaredModules: readonly string[];
  /**
   * For plugins whose modules are only known at run time (the `mcp` plugin: one `mcp-<server>` module
   * per configured server): any module whose name starts with one of these prefixes is declared.
   * plugin.json must declare the same prefix in `modulePrefixes`.
   */
  readonly declaredModulePrefixes?: readonly string[];
  /** A user plugin (plain JS, which cannot import zod) may leave it out and then takes no config (host-loader.ts). */
  readonly configSchema: z.ZodType<Config>;
  createHostFunctions(config: Config, context: PluginContext): HostModules | Promise<HostModules>;
  /** Release resources (connections, child processes) when the plugin is disabled or the host exits. */
  dispose?(): Promise<void>;
}
