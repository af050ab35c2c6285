import type { McpvmHost } from "../host/index.js";
import type { McpService } from "../mcp/service/index.js";
import { fileStamp } from "../util/file-stamp.js";

/**
 * The dashboard's one host, kept in step with config.json: a change made by `mcpvm mcp …` in a
 * terminal (another process) is noticed on the next API call and the host re-reads the file, so the
 * page and the CLI never disagree. Approvals, pins and toolsets are read from their files on every
 * call by their own stores, so they need nothing here.
 *
 * Reloading closes the host's MCP servers, so while a script from the Run page is running the
 * reload waits for it: a server enabled or disabled meanwhile (in the page, another tab or the CLI)
 * must not cut the calls the script is making. The change is applied when the last run ends.
 */
export class HostState {
  private configStamp: string | undefined;
  private checking: Promise<void> | undefined;
  private runsInFlight = 0;
  private reloadWaiting = false;

  constructor(readonly host: McpvmHost) {}

  /** Re-reads config.json when another process changed it since the last call. */
  async fresh(): Promise<McpvmHost> {
    this.checking ??= this.check().finally(() => (this.checking = undefined));
    await this.checking;
    return this.host;
  }

  async service(): Promise<McpService> {
    return (await this.fresh()).requireMcp();
  }

  /** After the dashboard itself wrote config.json. */
  async reloaded(): Promise<void> {
    this.configStamp = await fileStamp(this.host.paths.configFile);
    await this.reloadWhenIdle();
  }

  /** A script run: config changes made while it runs are applied after it (see the class comment). */
  async whileRunning<T>(work: (host: McpvmHost) => Promise<T>): Promise<T> {
    const host = await this.fresh();
    this.runsInFlight += 1;
    try {
      return await work(host);
    } finally {
      this.runsInFlight -= 1;
      if (this.runsInFlight === 0 && this.reloadWaiting) {
        this.reloadWaiting = false;
        // A config that no longer loads is reported by the next API call, which sees a changed stamp and retries.
        await this.host.reload().catch(() => (this.configStamp = "reload failed"));
      }
    }
  }

  private async reloadWhenIdle(): Promise<void> {
    if (this.runsInFlight > 0) this.reloadWaiting = true;
    else await this.host.reload();
  }

  private async check(): Promise<void> {
    const stamp = await fileStamp(this.host.paths.configFile);
    if (this.configStamp === undefined) {
      this.configStamp = stamp;
      return;
    }
    if (stamp === this.configStamp) return;
    this.configStamp = stamp;
    await this.reloadWhenIdle();
  }
}
