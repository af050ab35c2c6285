import type { McpStdioLaunch } from "../types.js";

/** Builds the complete environment of a stdio server's process. */
export type ChildEnvBuilder = (launch: McpStdioLaunch) => Record<string, string>;

/** The host variables a server may see; everything else (tokens, keys) stays with the host. */
export const INHERITED_ENV_KEYS: readonly string[] = Object.freeze(["PATH", "HOME", "USER", "LANG", "TMPDIR", "SystemRoot"]);

/** Allowlisted host variables plus the launch's own env (which wins). Pure: the host env is passed in. */
export function minimalChildEnv(launch: McpStdioLaunch, hostEnv: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV_KEYS) {
    const value = hostEnv[key];
    // Bash exported functions ("() { ...") are code, not configuration.
    if (value !== undefined && !value.startsWith("()")) env[key] = value;
  }
  for (const [key, value] of Object.entries(launch.env)) env[key] = value;
  return env;
}

export function defaultChildEnv(launch: McpStdioLaunch): Record<string, string> {
  return minimalChildEnv(launch, process.env);
}
