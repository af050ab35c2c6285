import { useEffect, useState } from "preact/hooks";
import { enc, get, post } from "../api.js";
import { Feedback } from "../components/feedback.js";
import { StateBadge } from "../components/state-badge.js";
import { useAction, useConfirmFocus } from "../hooks.js";
import type { ServerSummary, StateAnswer } from "../types.js";
import { AddServerForm } from "./servers-add.js";
import { ImportForm } from "./servers-import.js";
import { LoginPanel } from "./servers-login.js";
import { shown, shownBlock } from "../display.js";

interface ToolsAnswer {
  module: string;
  tools: Array<{ name: string; jsName: string; description: string; signature: string }>;
  held: Array<{ name: string; reason: string }>;
}

function Tools({ name, autoLoad }: { name: string; autoLoad: boolean }) {
  const [tools, setTools] = useState<ToolsAnswer | undefined>(undefined);
  const action = useAction();
  const load = () =>
    action.run(async () => {
      setTools(await get<ToolsAnswer>(`/api/servers/${enc(name)}/tools`));
      return undefined;
    });
  // Just logged in: the tools are what the person came for.
  useEffect(() => {
    if (autoLoad) void load();
  }, [autoLoad]);
  const recheck = () =>
    action.run(async () => {
      const answer = await post<{ tools: number; held: number }>(`/api/servers/${enc(name)}/recheck`);
      setTools(await get<ToolsAnswer>(`/api/servers/${enc(name)}/tools`));
      return `Listed again: ${answer.tools} tools${answer.held > 0 ? `, ${answer.held} held (see Approvals)` : ""}.`;
    });
  return (
    <div class="tools">
      <div class="row">
        <button type="button" onClick={load} disabled={action.busy}>
          {tools === undefined ? "Show tools" : "Refresh tools"}
        </button>
        <button type="button" onClick={recheck} disabled={action.busy} title="Restart the server and list its tools again, to see changed definitions">
          Check for changes
        </button>
        {action.busy && <span role="status">Connecting…</span>}
      </div>
      <Feedback message={action.message} error={action.error} />
      {tools !== undefined && (
        <>
          <p>
            Module <code>{tools.module}</code>: {tools.tools.length} {tools.tools.length === 1 ? "tool" : "tools"}
            {tools.held.length > 0 && `, ${tools.held.length} held (see Approvals)`}
          </p>
          <ul class="tool-list" aria-label={`Tools of ${name}`}>
            {tools.tools.map((t) => (
              <li key={t.jsName}>
                <code class="signature">{shown(t.signature)}</code>
                {t.description !== "" && <p class="muted">{shownBlock(t.description)}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** `onRemoved(outcome)`: said by the page, since the card leaves once the server is gone. */
function ServerCard({ server, reloadState, onRemoved }: { server: ServerSummary; reloadState: () => void; onRemoved: (outcome: string) => void }) {
  const action = useAction();
  const { asking: confirmRemove, setAsking: setConfirmRemove, cancelButton, askButton: removeButton, onQuestionKey } = useConfirmFocus();
  // Bumped at each login change: the tools are listed afresh after a login, and put away after a logout.
  const [login, setLogin] = useState({ changes: 0, loggedIn: false });
  const toggle = () =>
    action.run(async () => {
      await post(`/api/servers/${enc(server.name)}/${server.enabled ? "disable" : "enable"}`);
      reloadState();
      return `${server.enabled ? "Disabled" : "Enabled"} ${server.name}.`;
    });
  const remove = () =>
    action.run(async () => {
      await post(`/api/servers/${enc(server.name)}/remove`);
      setConfirmRemove(false);
      onRemoved(`Removed ${server.name} (and its approval).`);
      // The card, and the focused button with it, is about to leave.
      document.getElementById("main")?.focus();
      reloadState();
      return undefined;
    });
  const canList = server.enabled && server.approval === "approved";
  return (
    <article class="card server" aria-labelledby={`server-${server.name}`} data-server={server.name}>
      <header class="row">
        <h3 id={`server-${server.name}`}>{server.name}</h3>
        <span class="transport">{server.transport}</span>
        <StateBadge server={server} />
      </header>
      {server.description !== undefined && <p class="muted">{server.description}</p>}
      {server.detail !== undefined && <p class="detail">{server.detail}</p>}
      {server.next !== undefined && !(server.state === "needs-login" && server.loginOffered === true) && (
        <p class="muted">
          Next: <code>{server.next}</code>
        </p>
      )}
      <div class="row">
        <button type="button" onClick={toggle} disabled={action.busy}>
          {server.enabled ? `Disable ${server.name}` : `Enable ${server.name}`}
        </button>
        {server.approval !== "approved" && <a href="#/approvals">Review and approve</a>}
        {!confirmRemove ? (
          <button type="button" class="danger" ref={removeButton} onClick={() => setConfirmRemove(true)} disabled={action.busy}>
            Remove…
          </button>
        ) : (
          <span class="row" role="group" aria-label={`Confirm removing ${server.name}`} onKeyDown={onQuestionKey}>
            <span>Remove {server.name} from config.json and withdraw its approval?</span>
            <button type="button" class="danger" onClick={remove} disabled={action.busy}>
              Yes, remove {server.name}
            </button>
            <button type="button" ref={cancelButton} onClick={() => setConfirmRemove(false)}>
              Cancel
            </button>
          </span>
        )}
      </div>
      <Feedback message={action.message} error={action.error} />
      {server.loginOffered === true && <LoginPanel server={server} reloadState={reloadState} onLoginChange={(loggedIn) => setLogin((l) => ({ changes: l.changes + 1, loggedIn }))} />}
      {canList && <Tools key={login.changes} name={server.name} autoLoad={login.loggedIn} />}
    </article>
  );
}

export function ServersPage({ state, reloadState }: { state: StateAnswer | undefined; reloadState: () => void }) {
  const [removed, setRemoved] = useState<string | undefined>(undefined);
  return (
    <section aria-labelledby="servers-title">
      <h2 id="servers-title">Servers</h2>
      <Feedback message={removed} />
      {state === undefined && <p role="status">Loading…</p>}
      {state?.mcpOff !== undefined && (
        <p class="error" role="alert">
          {state.mcpOff}
        </p>
      )}
      {state !== undefined && (
        <p class="muted">
          From <code>{state.configFile}</code>, the same file <code>mcpvm mcp</code> changes; edits made there show here within a second.
        </p>
      )}
      {state !== undefined && state.servers.length === 0 && state.mcpOff === undefined && <p>No servers yet. Add one below.</p>}
      <div class="cards">
        {state?.servers.map((server) => (
          <ServerCard key={server.name} server={server} reloadState={reloadState} onRemoved={setRemoved} />
        ))}
      </div>
      <AddServerForm reloadState={reloadState} />
      <ImportForm reloadState={reloadState} />
    </section>
  );
}
