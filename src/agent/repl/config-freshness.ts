import type { McpvmHost } from "../../host/index.js";
import { fileStamp } from "../../util/file-stamp.js";

/**
 * Keeps a long-lived REPL host in step with config.json. Another mcpvm (a terminal beside the REPL,
 * the dashboard) may disable a server or apply a profile while the REPL runs; without a re-read the
 * REPL went on calling the disabled server with the old limits. Approvals and pins are read from
 * their own files on every call, so config.json is the one file to watch.
 */
export class ConfigFreshness {
  private stamp: string | undefined;
  /** The config object the stamp belongs to: the REPL's own writes reload the host themselves. */
  private seen: unknown;

  constructor(private readonly host: McpvmHost) {}

  /** Before each command or message: re-reads config.json when someone else changed it since. */
  async check(): Promise<void> {
    const stamp = await fileStamp(this.host.paths.configFile);
    const changed = this.stamp !== undefined && stamp !== this.stamp;
    // A new config object means this REPL wrote and reloaded itself (/mcp, /profile, the model's
    // manage): the file it read is current, and a second reload would only restart its servers.
    if (changed && this.seen === this.host.config) await this.host.reload();
    this.stamp = stamp;
    this.seen = this.host.config;
  }
}
