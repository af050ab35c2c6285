import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, describeError, enc, get, post } from "../api.js";
import { CodeEditor } from "../components/editor.js";
import { Feedback } from "../components/feedback.js";
import { useAction, usePoll } from "../hooks.js";
import type { TypedServer } from "../completions.js";
import { shownBlock } from "../display.js";

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

/**
 * The script, the time limit and the last run are kept in the tab's sessionStorage: going to another
 * page (or back/forward, or a reload) and coming back finds the script as typed and the run still
 * followed, with its confirmation questions, instead of a blank editor and a run nobody can see.
 */
const KEPT = { code: "mcpvm.run.code", timeout: "mcpvm.run.timeout", run: "mcpvm.run.id" } as const;
const kept = (key: string): string | undefined => sessionStorage.getItem(key) ?? undefined;
const keep = (key: string, value: string | undefined): void => (value === undefined ? sessionStorage.removeItem(key) : sessionStorage.setItem(key, value));
const finished = (view: RunView): string | undefined => (view.result?.ok === true ? `Finished in ${Math.round(view.result.stats.wallMs)} ms.` : undefined);

/** The script runner of `mcpvm run`, in the page: same engine, same limits, confirmations asked here. */
export function RunPage() {
  const types = usePoll(() => get<TypesAnswer>("/api/types"), 0);
  const servers = useRef<readonly TypedServer[]>([]);
  servers.current = types.data?.servers ?? [];
  const initialCode = useRef(kept(KEPT.code) ?? STARTER);
  const code = useRef(initialCode.current);
  const [timeout, setTimeoutText] = useState(kept(KEPT.timeout) ?? "");
  const [run, setRun] = useState<RunView | undefined>(undefined);
  const action = useAction();
  const answer = useAction();
  // Stop's own outcome: a failed cancel (the dashboard not answering) is said beside the run it was
  // meant to stop, not left as an unhandled rejection for the page-level error region.
  const stop = useAction();
  // Polling stops when the page is left (it starts again, from the kept run id, when it is shown).
  const shown = useRef(true);

  /** Follows a run until it is done, or until the page is left (undefined). */
  const poll = async (id: string): Promise<RunView | undefined> => {
    for (;;) {
      if (!shown.current) return undefined;
      const view = await get<RunView>(`/api/runs/${enc(id)}`);
      if (!shown.current) return undefined;
      setRun(view);
      if (view.state === "done") return view;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const follow = (id: string) =>
    action.run(async () => {
      const view = await poll(id);
      return view === undefined ? undefined : finished(view);
    });
  useEffect(() => {
    shown.current = true;
    const id = kept(KEPT.run);
    if (id !== undefined) {
      void get<RunView>(`/api/runs/${enc(id)}`).then(
        (view) => {
          if (!shown.current) return;
          setRun(view);
          if (view.state === "running") void follow(id);
        },
        // A dashboard restarted since (or a run pushed out of the kept ones): nothing to show.
        (error: unknown) => {
          if (error instanceof ApiError && error.code === "UI_RUN_UNKNOWN") keep(KEPT.run, undefined);
        },
      );
    }
    return () => {
      shown.current = false;
    };
  }, []);
  const start = () => {
    if (action.busy) return;
    stop.clear();
    void action.run(async () => {
      setRun(undefined);
      const { id } = await post<{ id: string }>("/api/runs", { code: code.current, ...(timeout.trim() === "" ? {} : { limits: { timeout: timeout.trim() } }) });
      keep(KEPT.run, id);
      const view = await poll(id);
      return view === undefined ? undefined : finished(view);
    });
  };
  const stopRun = (id: string) =>
    stop.run(async () => {
      try {
        await post(`/api/runs/${enc(id)}/cancel`);
      } catch (error) {
        throw new Error(`Could not stop the run: ${describeError(error)}. Press Stop again, or stop \`mcpvm ui\` (Ctrl-C) to end every run.`);
      }
      return undefined;
    });
  const reply = (id: string, allow: boolean) => answer.run(async () => (await post(`/api/confirmations/${enc(id)}`, { allow }), undefined));
  const result = run?.result;
  return (
    <section aria-labelledby="run-title">
      <h2 id="run-title">Run a script</h2>
      <p class="muted">
        Runs in the sandbox against the enabled servers with the limits of <code>mcpvm run</code> (config.json <code>limits</code>). Calls that need confirmation are asked here.
      </p>
      {/* MCP off (or the listing failed): said here, not left as a "Loading…" that never ends and a require that fails only when run. */}
      {types.error !== undefined && (
        <p class="warn" role="alert">
          No server offers completion: {types.error}
        </p>
      )}
      {types.data?.problems.map((p) => (
        <p key={p.server} class="warn">
          {p.server} offers no completion: {p.message}
        </p>
      ))}
      <CodeEditor
        initial={initialCode.current}
        onChange={(c) => {
          code.current = c;
          keep(KEPT.code, c);
        }} onRun={start} servers={() => servers.current} label="Script" />
      <div class="row">
        <label class="inline">
          Time limit (as --timeout)
          <input
            size={8}
            value={timeout}
            onInput={(e) => {
              const value = (e.target as HTMLInputElement).value;
              setTimeoutText(value);
              keep(KEPT.timeout, value);
            }}
            placeholder="30s"
          />
        </label>
        <button type="button" class="primary" onClick={start} disabled={action.busy}>
          {action.busy ? "Running…" : "Run"}
        </button>
        {action.busy && run !== undefined && (
          <button type="button" onClick={() => void stopRun(run.id)} disabled={stop.busy}>
            Stop
          </button>
        )}
      </div>
      <Feedback error={stop.error} />
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
                {shownBlock(JSON.stringify(result.value, null, 2) ?? "undefined")}
              </pre>
              {result.notes?.map((n, i) => (
                <p key={i} class="muted">
                  {shownBlock(n)}
                </p>
              ))}
            </>
          ) : (
            <>
              <h3>Error</h3>
              <p class="error" role="alert" data-testid="run-error">
                {result.error.code}
                {result.error.errorCode !== undefined ? ` (${result.error.errorCode})` : ""}: {shownBlock(result.error.message)}
              </p>
              {result.error.snippet !== undefined && <pre>{shownBlock(result.error.snippet)}</pre>}
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
              {shownBlock(result.logs.map((l) => `[${l.level}] ${l.message}`).join("\n"))}
            </pre>
          )}
          <p class="muted">
            {result.stats.engine}, {Math.round(result.stats.wallMs)} ms, {result.stats.hostCalls} host calls
          </p>
        </div>
      )}
      <details>
        <summary>Generated declarations (.d.ts) the editor completes from</summary>
        <pre class="dts">{types.data?.declarations ?? (types.error === undefined ? "Loading…" : "None (see above).")}</pre>
      </details>
    </section>
  );
}
