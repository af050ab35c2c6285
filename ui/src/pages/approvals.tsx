import { useState } from "preact/hooks";
import { ApiError, enc, get, post } from "../api.js";
import { SideBySideDiff } from "../components/diff.js";
import { Feedback } from "../components/feedback.js";
import { Findings } from "../components/findings.js";
import { useAction, usePoll } from "../hooks.js";
import type { ApprovalsAnswer, HeldToolView, StateAnswer } from "../types.js";
import { shown } from "../display.js";

type Launch = ApprovalsAnswer["launches"][number];

/** `onDone(outcome)`: the page reloads and shows the outcome itself, since the card usually leaves with the reload. */
type OnDone = (outcome?: string) => void;

function LaunchCard({ launch, onDone }: { launch: Launch; onDone: OnDone }) {
  const action = useAction();
  const [typed, setTyped] = useState("");
  const gated = launch.launchFindings.length > 0;
  const def = launch.definition as { command?: string; args?: string[]; env?: Record<string, string>; cwd?: string; url?: string; headers?: Record<string, string> };
  const approve = () =>
    action.run(async () => {
      const answer = await post<{ approved: string; tools?: number; held?: number; connectError?: { message: string } }>(`/api/servers/${enc(launch.name)}/approve`, gated ? { hash: launch.hash, typedName: typed } : { hash: launch.hash }).catch((error: unknown) => {
        // The definition changed under the card: show what it runs now (the error stays on the card).
        if (error instanceof ApiError && error.code === "UI_DEFINITION_CHANGED") onDone();
        throw error;
      });
      onDone(
        answer.connectError !== undefined
          ? `Approved ${launch.name}, but it did not start: ${answer.connectError.message}`
          : `Approved ${launch.name}: ${answer.tools ?? 0} tools available${(answer.held ?? 0) > 0 ? `, ${answer.held} held for review below` : ""}.`,
      );
      return undefined;
    });
  return (
    <article class="card" aria-labelledby={`launch-${launch.name}`} data-launch={launch.name}>
      <h3 id={`launch-${launch.name}`}>
        {launch.name} <span class="transport">{launch.transport}</span> {launch.approval === "changed" && <span class="state state-failed">changed since approval</span>}
      </h3>
      <dl class="what-runs">
        {launch.transport === "stdio" ? (
          <>
            <dt>Command</dt>
            <dd>
              <code>{shown(def.command ?? "")}</code>
            </dd>
            <dt>Arguments</dt>
            <dd>{(def.args ?? []).length === 0 ? "(none)" : (def.args ?? []).map((a, i) => <code key={i} class="arg">{shown(a)}</code>)}</dd>
            <dt>Environment</dt>
            <dd>{Object.keys(def.env ?? {}).length === 0 ? "(none)" : Object.keys(def.env ?? {}).map((k) => <code key={k} class="arg">{shown(k)}</code>)}</dd>
            <dt>Working folder</dt>
            <dd>{def.cwd === undefined ? "the config home" : <code>{shown(def.cwd)}</code>}</dd>
          </>
        ) : (
          <>
            <dt>URL</dt>
            <dd>
              <code>{shown(def.url ?? "")}</code>
            </dd>
            <dt>Headers</dt>
            <dd>{Object.keys(def.headers ?? {}).length === 0 ? "(none)" : Object.keys(def.headers ?? {}).map((k) => <code key={k} class="arg">{shown(k)}</code>)}</dd>
          </>
        )}
      </dl>
      <details>
        <summary>Exactly as `mcpvm mcp approve` shows it</summary>
        <pre class="prompt">{launch.prompt}</pre>
      </details>
      {gated && (
        <div class="warning" role="note">
          <p>
            It sets {launch.launchFindings.map((f) => f.name).join(", ")}, which change which code the server runs. Approve only if you expect this.
          </p>
          <label>
            Type the server name ({launch.name}) to approve it
            <input value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} autoComplete="off" spellcheck={false} />
          </label>
        </div>
      )}
      <div class="row">
        <button type="button" class="primary" onClick={approve} disabled={action.busy || (gated && typed !== launch.name)}>
          Approve {launch.name}
        </button>
        {!launch.enabled && <span class="muted">(disabled: approving does not start it)</span>}
      </div>
      <Feedback message={action.message} error={action.error} />
    </article>
  );
}

function HeldTool({ server, tool, onDone }: { server: string; tool: HeldToolView; onDone: OnDone }) {
  const action = useAction();
  const [typed, setTyped] = useState("");
  const accept = () =>
    action.run(async () => {
      const answer = await post<{ accepted: string[]; blocked: string[]; changedSinceReview: string[]; stillHeld: string[]; available: number }>(`/api/servers/${enc(server)}/accept`, {
        tools: [{ name: tool.name, hash: tool.hash, ...(tool.blocked ? { typed } : {}) }],
      });
      onDone(
        answer.changedSinceReview.length > 0
          ? `${server}.${tool.name} changed again since it was shown; review it again.`
          : answer.accepted.includes(tool.name)
            ? `Accepted ${server}.${tool.name}: ${answer.available} tools available.`
            : `${server}.${tool.name} is still held.`,
      );
      return undefined;
    });
  const why = tool.reason === "changed" ? "its definition changed since you approved it" : tool.reason === "new" ? "it is new since you approved the server" : "its definition has audit findings";
  return (
    <article class={`card held ${tool.blocked ? "blocked" : ""}`} aria-labelledby={`held-${server}-${tool.name}`} data-held={`${server}.${tool.name}`}>
      <h4 id={`held-${server}-${tool.name}`}>
        {server}.{tool.name}
      </h4>
      <p>Held because {why}. Held tools stay hidden from guest code and the model.</p>
      <Findings findings={tool.findings} definition={tool.current} />
      <SideBySideDiff approved={tool.approved} current={tool.current} label={`Definition of ${tool.name}: approved and new`} />
      {tool.blocked && (
        <div class="warning" role="note">
          <p>Block-level finding: a click is not enough. Accept only if you are sure the text above is harmless.</p>
          <label>
            Type the tool name ({tool.name}) to accept it anyway
            <input value={typed} onInput={(e) => setTyped((e.target as HTMLInputElement).value)} autoComplete="off" spellcheck={false} />
          </label>
        </div>
      )}
      <div class="row">
        <button type="button" class="primary" onClick={accept} disabled={action.busy || (tool.blocked && typed !== tool.name)}>
          Accept {tool.name}
        </button>
        <span class="muted">or leave it held (nothing to do)</span>
      </div>
      <Feedback message={action.message} error={action.error} />
    </article>
  );
}

/** Servers waiting for approval (what will run, the warning) and held tools (diff, findings), each decided on its own. */
export function ApprovalsPage({ state, reloadState }: { state: StateAnswer | undefined; reloadState: () => void }) {
  // Follows the servers' state: a server approved or added from the CLI appears or leaves here too.
  const signature = JSON.stringify(state?.servers.map((s) => [s.name, s.approval, s.state, s.heldCount, s.enabled]) ?? []);
  const approvals = usePoll(() => get<ApprovalsAnswer>("/api/approvals"), 0, [signature]);
  const [outcome, setOutcome] = useState<string | undefined>(undefined);
  const done: OnDone = (said) => {
    if (said !== undefined) setOutcome(said);
    approvals.reload();
    reloadState();
  };
  const data = approvals.data;
  return (
    <section aria-labelledby="approvals-title">
      <h2 id="approvals-title">Approvals</h2>
      <Feedback error={approvals.error} message={outcome} />
      {data === undefined && approvals.error === undefined && <p role="status">Loading…</p>}
      {data !== undefined && (
        <>
          <p class="warning" role="note">
            <strong>Warning:</strong> {data.warning}
          </p>
          <h3>Servers waiting for approval</h3>
          {data.launches.length === 0 ? <p>None.</p> : data.launches.map((l) => <LaunchCard key={l.name} launch={l} onDone={done} />)}
          <h3>Held tools</h3>
          {data.held.length === 0 ? (
            <p>None.</p>
          ) : (
            data.held.map((h) => (
              <section key={h.server} aria-label={`Held tools of ${h.server}`}>
                {h.error !== undefined && (
                  <p class="error">
                    {h.server} could not be listed: {h.error.message}
                  </p>
                )}
                {h.neverExposed.length > 0 && <p class="muted">Never exposed (names with control or invisible characters): {h.neverExposed.length}</p>}
                {h.tools.map((t) => (
                  <HeldTool key={`${t.name}-${t.hash}`} server={h.server} tool={t} onDone={done} />
                ))}
              </section>
            ))
          )}
        </>
      )}
    </section>
  );
}
