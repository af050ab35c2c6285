import { useEffect, useState } from "preact/hooks";
import { describeError, enc, get, post } from "../api.js";
import { Feedback } from "../components/feedback.js";
import { useAction } from "../hooks.js";
import type { LoginFlowView, ServerSummary } from "../types.js";

/** How often a login in progress is asked about: the redirect lands within a second of the person's click. */
const FLOW_POLL_MS = 700;

/** Only a web address is made a link: a server-given `javascript:` URL would run in this page. */
function safeHref(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString() : undefined;
  } catch {
    return undefined;
  }
}

const inProgress = (flow: LoginFlowView | undefined): boolean => flow?.state === "starting" || flow?.state === "waiting";

/**
 * "Log in" for an http/sse server that uses OAuth: the CLI's `mcpvm mcp login` run by the dashboard.
 * The login page opens with the same opener as the CLI and is linked here too; the loopback
 * listener takes the redirect and this panel follows the flow until it ends.
 */
export function LoginPanel({ server, reloadState, onLoginChange }: { server: ServerSummary; reloadState: () => void; onLoginChange: (loggedIn: boolean) => void }) {
  const [flow, setFlow] = useState<LoginFlowView | undefined>(undefined);
  const action = useAction();
  const name = server.name;

  useEffect(() => {
    if (!inProgress(flow)) return;
    let stopped = false;
    const timer = window.setTimeout(() => {
      get<LoginFlowView>(`/api/servers/${enc(name)}/login`).then(
        (next) => {
          if (stopped) return;
          setFlow(next);
          if (next.state === "done") {
            reloadState();
            onLoginChange(true);
          }
        },
        (error: unknown) => !stopped && setFlow({ server: name, state: "failed", error: { code: "UI_OFFLINE", message: describeError(error) } }),
      );
    }, FLOW_POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [flow, name]);

  const login = () =>
    action.run(async () => {
      const started = await post<LoginFlowView>(`/api/servers/${enc(name)}/login`);
      setFlow(started);
      if (started.state === "done") {
        reloadState();
        onLoginChange(true);
      }
      return undefined;
    });
  const cancel = () =>
    action.run(async () => {
      setFlow(await post<LoginFlowView>(`/api/servers/${enc(name)}/login/cancel`));
      return undefined;
    });
  const logout = () =>
    action.run(async () => {
      const answer = await post<{ line: string }>(`/api/servers/${enc(name)}/logout`);
      setFlow(undefined);
      reloadState();
      onLoginChange(false);
      return `${answer.line.charAt(0).toUpperCase()}${answer.line.slice(1)}.`;
    });

  const stored = server.login !== undefined && server.login.state !== "none";
  const href = safeHref(flow?.url);
  return (
    <section class="login" aria-label={`Login to ${name}`}>
      <p class="row">
        <strong>Login:</strong>{" "}
        <span class={stored ? "ok" : "warn"} data-login-state={server.login?.state ?? "none"}>
          {stored ? server.loginLine : server.state === "needs-login" ? "needs login" : "not logged in"}
        </span>
      </p>
      {!inProgress(flow) && (
        <div class="row">
          <button type="button" class="primary" onClick={login} disabled={action.busy || !server.enabled || server.approval !== "approved"}>
            {stored ? `Log in to ${name} again` : `Log in to ${name}`}
          </button>
          {stored && (
            <button type="button" onClick={logout} disabled={action.busy}>
              Log out of {name}
            </button>
          )}
          {server.approval !== "approved" && <span class="muted">Approve {name} first: logging in contacts its URL.</span>}
          {server.approval === "approved" && !server.enabled && <span class="muted">Enable {name} first.</span>}
        </div>
      )}
      {flow?.state === "starting" && <p role="status">Finding the login page of {name}…</p>}
      {flow?.state === "waiting" && (
        <div class="login-flow" role="group" aria-label={`Logging in to ${name}`}>
          <p role="status">
            {flow.opened !== undefined ? `Opened the login page of ${name} with ${flow.opened}. ` : `Nothing could open a browser on this machine. `}
            Log in there, or here:
          </p>
          {href !== undefined ? (
            <p>
              <a href={href} target="_blank" rel="noopener noreferrer" class="login-link">
                Open the login page of {name}
              </a>{" "}
              <span class="muted">({new URL(href).host})</span>
            </p>
          ) : (
            <p class="error">The login page's address is not a web address; it was not made a link.</p>
          )}
          <p class="muted">Waiting for the authorization server to send the browser back to mcpvm…</p>
          <button type="button" onClick={cancel} disabled={action.busy}>
            Cancel login
          </button>
        </div>
      )}
      {flow?.state === "done" && (
        <p class={flow.status?.state === "none" ? undefined : "ok"} role="status">
          {flow.status?.state === "none" ? `${flow.line ?? name}.` : `Logged in to ${name}.`}
        </p>
      )}
      {flow?.state === "cancelled" && <p role="status">Login cancelled; nothing was stored.</p>}
      {flow?.state === "failed" && flow.error !== undefined && (
        <p class="error" role="alert">
          {flow.error.message} ({flow.error.code})
        </p>
      )}
      <Feedback message={action.message} error={action.error} />
    </section>
  );
}
