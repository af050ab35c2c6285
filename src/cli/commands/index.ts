import type { Command } from "../../terminal/command.js";
import { auditCommand } from "./audit.js";
import { completionCommand } from "./completion.js";
import { demoCommand } from "./demo.js";
import { doctorCommand } from "./doctor/index.js";
import { mcpCommand } from "./mcp/index.js";
import { pluginCommand } from "./plugin.js";
import { profileCommand } from "./profile.js";
import { replCommand } from "./repl.js";
import { runCommand } from "./run.js";
import { gatewayCommand } from "./gateway.js";
import { serveCommand } from "./serve.js";
import { toolsetCommand } from "./toolset.js";
import { uiCommand } from "./ui.js";

/** Every command, in the order `mcpvm --help` lists them. */
export function commandTable(): readonly Command[] {
  return [runCommand, mcpCommand, pluginCommand, serveCommand, gatewayCommand, toolsetCommand, uiCommand, profileCommand, auditCommand, doctorCommand, demoCommand, completionCommand, replCommand];
}
