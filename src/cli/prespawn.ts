import { readFileSync, statSync } from "node:fs";
import { resolveConfigPaths } from "../config/paths.js";
import { STATE_FILE_LIMITS } from "../util/state-file-limits.js";
import { defaultWorkerOptions, workerModeFromEnv } from "../sandbox/engines/quickjs-defaults.js";
import { prespawnQuickJsWorker } from "../sandbox/engines/quickjs-prespawn.js";

/** Global flags that take a value (src/cli/main.ts splitGlobalFlags): their value is not the command. */
const VALUED_FLAGS = new Set(["--engine", "--log-level"]);

/**
 * What bin/mcpvm.js calls first, before the CLI's main module loads: for `mcpvm run` (its worker
 * engine, thread mode), starts the QuickJS worker thread whose Node bootstrap is then done on another
 * core while this thread loads the CLI (src/sandbox/engines/quickjs-prespawn.ts). The command line is
 * read as runCli reads it, and config.json's `engine` without validation, as src/cli/quickjs-early.ts
 * does: a wrong guess costs an unused thread, never a wrong engine, since the engine is chosen later
 * as always and only takes the thread if it starts a worker of its own kind. Never throws.
 */
export function prespawnForRun(argv: readonly string[], env: NodeJS.ProcessEnv): void {
  try {
    let command: string | undefined;
    let engine: string | undefined;
    for (let i = 0; i < argv.length; i++) {
      const arg = argv[i] as string;
      if (arg === "--") break;
      if (arg === "--help" || arg === "-h") return;
      if (arg.startsWith("--engine=")) engine = arg.slice("--engine=".length);
      else if (VALUED_FLAGS.has(arg)) {
        if (arg === "--engine") engine = argv[i + 1];
        i++;
      } else if (command === undefined && !arg.startsWith("-")) command = arg;
    }
    if (command !== "run" || (workerModeFromEnv() ?? "thread") !== "thread") return;
    engine ??= configuredEngine(resolveConfigPaths(env).configFile);
    if (engine === "hyperlight" || engine === "quickjs-inline") return;
    prespawnQuickJsWorker(defaultWorkerOptions().stackSizeMb);
  } catch {
    // Only an optimisation: the run starts its worker as before.
  }
}

function configuredEngine(configFile: string): string | undefined {
  try {
    // Over the cap the host refuses the file (CONFIG_TOO_LARGE); this peek does not parse it first.
    if (statSync(configFile).size > STATE_FILE_LIMITS.config) return undefined;
    const parsed: unknown = JSON.parse(readFileSync(configFile, "utf8"));
    const engine = typeof parsed === "object" && parsed !== null ? (parsed as { engine?: unknown }).engine : undefined;
    return typeof engine === "string" ? engine : undefined;
  } catch {
    return undefined;
  }
}
