import type { Logger } from "../logging/logger.js";
import type { LoadedHostModules } from "../plugin-system/manager.js";

type Refused = LoadedHostModules["refused"];

/**
 * Enabled plugins that did not load, said once per problem. A corrupt approved-plugins.json
 * refuses every enabled plugin with the same error (one line naming them all, not one per plugin),
 * and the REPL and the gateway run many scripts (said at the first, not at each). A run that uses
 * none of them goes on, like any command that does not need a broken state file; one that requires
 * their modules fails with the same error (exit 3).
 */
export class RefusalWarnings {
  private readonly said = new Set<string>();

  /** The face has already told the person (the REPL banner): not said again at a run. */
  markSaid(refused: Refused): void {
    for (const { error } of refused) this.said.add(error.message);
  }

  warn(logger: Logger, refused: Refused): void {
    const byProblem = new Map<string, { code: string; plugins: string[] }>();
    for (const { plugin, error } of refused) {
      if (this.said.has(error.message)) continue;
      const entry = byProblem.get(error.message) ?? { code: error.code, plugins: [] };
      entry.plugins.push(plugin);
      byProblem.set(error.message, entry);
    }
    for (const [message, { code, plugins }] of byProblem) {
      this.said.add(message);
      const names = [...plugins].sort();
      const one = names.length === 1;
      const sentence = /[.!?]$/.test(message) ? message : `${message}.`;
      logger.warn(
        { plugins: names, code },
        `${sentence} Not loaded meanwhile: plugin${one ? "" : "s"} ${names.join(", ")} (a script that requires ${one ? "its" : "their"} modules fails with this error; one that uses none runs).`,
      );
    }
  }
}
