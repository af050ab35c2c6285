import type { Command } from "../../terminal/command.js";
import { COMMAND_SUMMARIES, type CommandName } from "./summaries.js";

/**
 * A command as the dispatcher knows it before loading it: its name and summary, and how to load its
 * module. `mcpvm run` loads run.ts and what it imports, not the gateway, the dashboard or the agent
 * (see docs/ARCHITECTURE.md, "How the CLI is built and loaded").
 */
export interface CommandEntry {
  readonly name: CommandName;
  readonly summary: string;
  load(): Promise<Command>;
}

const LOADERS: Readonly<Record<CommandName, () => Promise<Command>>> = {
  run: async () => (await import("./run.js")).runCommand,
  mcp: async () => (await import("./mcp/index.js")).mcpCommand,
  plugin: async () => (await import("./plugin.js")).pluginCommand,
  serve: async () => (await import("./serve.js")).serveCommand,
  gateway: async () => (await import("./gateway.js")).gatewayCommand,
  toolset: async () => (await import("./toolset.js")).toolsetCommand,
  ui: async () => (await import("./ui.js")).uiCommand,
  profile: async () => (await import("./profile.js")).profileCommand,
  audit: async () => (await import("./audit.js")).auditCommand,
  doctor: async () => (await import("./doctor/index.js")).doctorCommand,
  demo: async () => (await import("./demo.js")).demoCommand,
  completion: async () => (await import("./completion.js")).completionCommand,
  repl: async () => (await import("./repl.js")).replCommand,
};

/** Every command, in the order `mcpvm --help` lists them; nothing is loaded until `load()`. */
export const COMMAND_ENTRIES: readonly CommandEntry[] = (Object.keys(COMMAND_SUMMARIES) as CommandName[]).map((name) => ({
  name,
  summary: COMMAND_SUMMARIES[name],
  load: LOADERS[name],
}));

/** Every command loaded (completion's drift test, tools that need each command's usage). */
export function commandTable(): Promise<readonly Command[]> {
  return Promise.all(COMMAND_ENTRIES.map((entry) => entry.load()));
}
