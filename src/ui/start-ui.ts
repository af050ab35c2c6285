import { randomBytes } from "node:crypto";
import type { McpvmHost } from "../host/index.js";
import { approvalRoutes } from "./api/approvals.js";
import { Router } from "./api/router.js";
import { runRoutes, RunRegistry } from "./api/runs.js";
import { serverRoutes } from "./api/servers.js";
import { toolsetRoutes } from "./api/toolsets.js";
import { activityRoutes } from "./api/activity.js";
import { LoginRegistry, loginRoutes } from "./api/logins.js";
import { browserOpener, type BrowserOpener } from "../mcp/oauth/index.js";
import type { UiBridge } from "./bridge.js";
import { HostState } from "./host-state.js";
import { listenUi } from "./http-server.js";
import { checkAssets, defaultAssetsDir } from "./static-assets.js";

export interface StartUiOptions {
  /** The host the dashboard reads and writes through; closed with the dashboard. */
  readonly host: McpvmHost;
  readonly bridge: UiBridge;
  /** Where relative paths typed in the page (import, --dir, commands) are resolved: where `mcpvm ui` was started. */
  readonly cwd: string;
  readonly port?: number;
  readonly assetsDir?: string;
  /** How OAuth login pages are opened on this machine: the CLI's opener ($BROWSER, else the platform's). */
  readonly opener?: BrowserOpener;
  /** Tests pass their own; otherwise 32 random bytes. */
  readonly token?: string;
}

export interface RunningUi {
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly port: number;
  /** Stops listening, ends runs in progress, closes every MCP server the dashboard started. */
  close(): Promise<void>;
}

export async function startUi(options: StartUiOptions): Promise<RunningUi> {
  const assetsDir = options.assetsDir ?? defaultAssetsDir();
  checkAssets(assetsDir);
  const token = options.token ?? randomBytes(32).toString("base64url");
  const state = new HostState(options.host);
  const runs = new RunRegistry(state, (values) => options.bridge.runLimits(values));
  options.host.setFace("ui");
  const router = new Router();
  serverRoutes(router, state, options.bridge, options.cwd);
  approvalRoutes(router, state);
  toolsetRoutes(router, state);
  runRoutes(router, runs, state);
  activityRoutes(router, state);
  const logins = new LoginRegistry(state, options.opener ?? browserOpener(options.host.env));
  loginRoutes(router, state, logins);
  const http = await listenUi({ router, assetsDir, token, port: options.port ?? 0 });
  const origin = `http://127.0.0.1:${http.port}`;
  let closed: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    port: http.port,
    close: () =>
      (closed ??= (async () => {
        runs.cancelAll();
        logins.cancelAll();
        await http.close();
        await options.host.close();
      })()),
  };
}
