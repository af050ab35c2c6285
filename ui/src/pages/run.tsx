import { useRef, useState } from "preact/hooks";
import { enc, get, post } from "../api.js";
import { CodeEditor } from "../components/editor.js";
import { Feedback } from "../components/feedback.js";
import { useAction, usePoll } from "../hooks.js";
import type { TypedServer } from "../completions.js";

interface TypesAnswer {
  servers: TypedServer[];
  problems: Array<{ server: string; message: string }>;
  declarations: string;
}

interface RunView {
  id: string;
  state: "running" | "done";
  result?:
    | { ok: true; value: unknown; logs: Array<{ level: string; message: string }>; stats: { wallMs: number; hostCalls: number; engine: string }; notes?: string[] }
    | { ok: false; error: { code: string; message: string; name?: string; snippet?: string; errorCode?: string }; logs: Array<{ level: string; message: string }>; stats: { wallMs: number; hostCalls: number; engine: string } };
  failure?: string;
  confirmations: Array<{ id: string; server: string; tool: string; text: string }>;
}

const STARTER = `// A function body: top-level await works, \`return\` gives the result.
// Type tools. for the enabled servers' tools (Ctrl-Space completes), Ctrl-Enter runs.
return 1 + 1;
`;

/** The script runner of `mcpvm run`, in the page: same engine, same limits, confirmations asked here. */
export function RunPage() {
  const types = usePoll(() => get<TypesAnswer>("/api/types"), 0);
  const servers = useRef<readonly TypedServer[]>([]);
  servers.current = types.data?.servers ?? [];
  const code = useRef(STARTER);
  const [timeout, setTimeoutText] = useState("");
  const [run, setRun] = useState<RunView | undefined>(undefined);
  const action = useAction();
  const answer = useAction();

  const poll = async (id: string): Promise<RunView> => {
    for (;;) {
      const view = await get<RunView>(`/api/runs/${enc(id)}`);
      setRun(view);
      if (view.state === "done") return view;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const start = () => {
    if (action.busy) return;
    void action.run(async () => {
      setRun(undefined);
      const { id } = await post<{ id: string }>("/api/runs", { code: code.current, ...(timeout.trim() === "" ? {} : { limits: { timeout: timeout.trim() } }) });
      const view = await poll(id);
      return view.result?.ok === true ? `Finished in ${view.result.stats.wallMs} ms.` : undefined;
    });
  };
  const reply = (id: string, allow: boolean) => answer.run(async () => (await post(`/api/confirmations/${enc(id)}`, { allow }), undefined));
  const result = run?.result;
  return (
    <section aria-labelledby="run-title">
      <h2 id="run-title">Run a script</h2>
      <p class="muted">
        Runs in the sandbox against the enabled servers with the limits of <code>mcpvm run</code> (config.json <code>limits</code>). Calls that need confirmation are asked here.
      </p>
      {types.data?.problems.map((p) => (
        <p key={p.server} class="warn">
          {p.server} offers no completion: {p.message}
        </p>
      ))}
      <CodeEditor initial={STARTER} onChange={(c) => (code.current = c)} onRun={start} servers={() => servers.current} label="Script" />
      <div class="row">
        <label class="inline">
          Time limit (as --timeout)
          <input size={8} value={timeout} onInput={(e) => setTimeoutText((e.target as HTMLInputElement).value)} placeholder="30s" />
        </label>
        <button type="button" class="primary" onClick={start} disabled={action.busy}>
          {action.busy ? "Running…" : "Run"}
        </button>
        {action.busy && run !== undefined && (
          <button type="button" onClick={() => void post(`/api/runs/${enc(run.id)}/cancel`)}>
            Stop
          </button>
        )}
      </div>
      <Feedback message={action.message} error={action.error} />
      {run?.confirmations.map((c) => (
        <div key={c.id} class="card confirm" role="alertdialog" aria-labelledby={`confirm-${c.id}`}>
          <h3 id={`confirm-${c.id}`}>
            Allow {c.server}.{c.tool}?
          </h3>
          <pre>{c.text}</pre>
          <div class="row">
            <button type="button" class="primary" onClick={() => void reply(c.id, true)} disabled={answer.busy}>
              Allow this call
            </button>
            <button type="button" onClick={() => void reply(c.id, false)} disabled={answer.busy}>
              Decline
            </button>
          </div>
        </div>
      ))}
      <Feedback error={answer.error} />
      {run?.failure !== undefined && (
        <p class="error" role="alert">
          {run.failure}
        </p>
      )}
      {result !== undefined && (
        <div class="card output" aria-live="polite">
          {result.ok ? (
            <>
              <h3>Result</h3>
              <pre class="result" data-testid="run-result">
                {JSON.stringify(result.value, null, 2) ?? "undefined"}
              </pre>
              {result.notes?.map((n, i) => (
                <p key={i} class="muted">
                  {n}
                </p>
              ))}
            </>
          ) : (
            <>
              <h3>Error</h3>
              <p class="error" role="alert" data-testid="run-error">
                {result.error.code}
                {result.error.errorCode !== undefined ? ` (${result.error.errorCode})` : ""}: {result.error.message}
              </p>
              {result.error.snippet !== undefined && <pre>{result.error.snippet}</pre>}
              {(result.error.errorCode === "MCP_LOGIN_REQUIRED" || result.error.code === "MCP_LOGIN_REQUIRED") && (
                <p>
                  The server wants a login: use <a href="#/servers">Log in on the Servers page</a>, then run the script again.
                </p>
              )}
            </>
          )}
          <h3>Logs</h3>
          {result.logs.length === 0 ? (
            <p class="muted">None.</p>
          ) : (
            <pre class="logs" data-testid="run-logs">
              {result.logs.map((l) => `[${l.level}] ${l.message}`).join("\n")}
            </pre>
          )}
          <p class="muted">
            {result.stats.engine}, {result.stats.wallMs} ms, {result.stats.hostCalls} host calls
          </p>
        </div>
      )}
      <details>
        <summary>Generated declarations (.d.ts) the editor completes from</summary>
        <pre class="dts">{types.data?.declarations ?? "Loading…"}</pre>
      </details>
    </section>
  );
}
