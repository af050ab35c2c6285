import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Where mcpvm keeps its state. MCPVM_HOME overrides ~/.mcpvm; passed in, never read from process.env here. */
export interface ConfigPaths {
  readonly home: string;
  readonly configFile: string;
  readonly approvedPluginsFile: string;
  readonly approvedMcpFile: string;
  readonly pinsFile: string;
  readonly userPluginsDir: string;
  readonly toolsetsFile: string;
  readonly historyFile: string;
  readonly logsDir: string;
}

export function resolveConfigPaths(env: Readonly<Record<string, string | undefined>>): ConfigPaths {
  const home = env.MCPVM_HOME ? resolve(env.MCPVM_HOME) : join(homedir(), ".mcpvm");
  return {
    home,
    configFile: join(home, "config.json"),
    approvedPluginsFile: join(home, "approved-plugins.json"),
    approvedMcpFile: join(home, "approved-mcp.json"),
    pinsFile: join(home, "mcp-pins.json"),
    userPluginsDir: join(home, "plugins"),
    toolsetsFile: join(home, "toolsets.json"),
    historyFile: join(home, "history"),
    logsDir: join(home, "logs"),
  };
}
