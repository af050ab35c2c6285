import type { BrowserOpener, LoginInteraction, LoginStatus } from "../../mcp/oauth/index.js";
import { describeLoginOutcome, describeLogout } from "../../terminal/render/login.js";
import type { HostState } from "../host-state.js";
import { errorPayload } from "./router.js";
import type { Router } from "./router.js";

/** How long POST …/login waits for the authorization URL before answering "starting" (the page then polls). */
const URL_WAIT_MS = 15_000;

type FlowState = "starting" | "waiting" | "done" | "failed" | "cancelled";

interface LoginFlow {
  readonly server: string;
  readonly startedAt: string;
  readonly controller: AbortController;
  state: FlowState;
  /** The authorization server's page, once the SDK built it (discovery and registration done). */
  url?: string;
  /** What opened it on this machine ("$BROWSER", "xdg-open", …); undefined: nothing could be started. */
  opened?: string;
  status?: LoginStatus;
  error?: { code: string; message: string; exitCode: number };
  thrown?: unknown;
  /** Resolves when the URL is known or the flow ended, whichever is first. */
  readonly ready: Promise<void>;
}

export interface LoginView {
  readonly server: string;
  readonly state: FlowState | "none";
  readonly url?: string;
  readonly opened?: string;
  readonly line?: string;
  readonly status?: LoginStatus;
  readonly error?: { code: string; message: string; exitCode: number };
}

/**
 * Logins started from the Servers page: `McpService.login` (the CLI's `mcpvm mcp login`, approval
 * first) runs in the background; the authorization URL is opened with the CLI's opener and is also
 * handed to the page as a link, because the browser is right there. The loopback redirect listener
 * finishes the flow; the page polls the flow until it ends. One flow per server at a time.
 */
export class LoginRegistry {
  private readonly flows = new Map<string, LoginFlow>();

  constructor(
    private readonly state: HostState,
    private readonly opener: BrowserOpener,
    private readonly now: () => number = Date.now,
  ) {}

  async start(server: string): Promise<LoginView> {
    const service = await this.state.service();
    service.entry(server); // an unknown name: the CLI's error, before anything starts
    const running = this.flows.get(server);
    if (running !== undefined && (running.state === "starting" || running.state === "waiting")) return this.view(server);
    let markReady: () => void = () => undefined;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const flow: LoginFlow = { server, startedAt: new Date(this.now()).toISOString(), controller: new AbortController(), state: "starting", ready };
    this.flows.set(server, flow);
    const interaction: LoginInteraction = {
      // The CLI prints progress on stderr; here the flow's state and link say the same, so nothing more is shown.
      say: () => undefined,
      browser: {
        open: async (url) => {
          flow.url = url;
          flow.state = "waiting";
          flow.opened = await this.opener.open(url).catch(() => undefined);
          markReady();
          return flow.opened;
        },
      },
      signal: flow.controller.signal,
    };
    // Like a run: a config change meanwhile waits for the login, since reloading would close the service it runs on.
    void this.state
      .whileRunning(async (host) => (await host.requireMcp()).login(server, interaction, { signal: flow.controller.signal }))
      .then(
        (status) => {
          flow.status = status;
          flow.state = "done";
        },
        (error: unknown) => {
          flow.thrown = error;
          flow.error = errorPayload(error).payload.error;
          // The connect layer may wrap the cancellation in its own error: the abort itself tells.
          flow.state = flow.controller.signal.aborted ? "cancelled" : "failed";
        },
      )
      .finally(markReady);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([ready, new Promise<void>((resolve) => (timer = setTimeout(resolve, URL_WAIT_MS)))]);
    clearTimeout(timer);
    if (flow.state === "failed" && flow.url === undefined) {
      // Refused before any page was opened (not approved, disabled, discovery failed): the request fails with the CLI's error.
      this.flows.delete(server);
      throw flow.thrown;
    }
    return this.view(server);
  }

  view(server: string): LoginView {
    const flow = this.flows.get(server);
    if (flow === undefined) return { server, state: "none" };
    return {
      server,
      state: flow.state,
      ...(flow.url === undefined || flow.state !== "waiting" ? {} : { url: flow.url }),
      ...(flow.opened === undefined ? {} : { opened: flow.opened }),
      ...(flow.status === undefined ? {} : { status: flow.status, line: describeLoginOutcome(server, flow.status, this.now()) }),
      ...(flow.error === undefined ? {} : { error: flow.error }),
    };
  }

  cancel(server: string): LoginView {
    this.flows.get(server)?.controller.abort();
    return this.view(server);
  }

  /** The dashboard is closing: no login stays open waiting for a tab nobody will finish. */
  cancelAll(): void {
    for (const flow of this.flows.values()) flow.controller.abort();
  }

  /** A finished flow is forgotten when the person logs out, so the page shows the stored state again. */
  forget(server: string): void {
    const flow = this.flows.get(server);
    if (flow !== undefined && flow.state !== "starting" && flow.state !== "waiting") this.flows.delete(server);
  }
}

/** Servers page: log in to (and out of) http/sse servers that use OAuth. */
export function loginRoutes(router: Router, state: HostState, logins: LoginRegistry): void {
  router.post("/api/servers/:name/login", async ({ params }) => logins.start(params.name as string));
  router.get("/api/servers/:name/login", async ({ params }) => {
    (await state.service()).entry(params.name as string);
    return logins.view(params.name as string);
  });
  router.post("/api/servers/:name/login/cancel", async ({ params }) => {
    (await state.service()).entry(params.name as string);
    return logins.cancel(params.name as string);
  });
  router.post("/api/servers/:name/logout", async ({ params }) => {
    const name = params.name as string;
    const service = await state.service();
    logins.cancel(name);
    const outcome = await service.logout(name);
    logins.forget(name);
    return {
      server: name,
      loggedOut: outcome !== undefined,
      revocation: outcome === undefined ? "none" : typeof outcome === "string" ? outcome : "failed",
      line: describeLogout(name, outcome),
    };
  });
}
