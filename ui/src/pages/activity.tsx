import { useEffect, useRef, useState } from "preact/hooks";
import { get } from "../api.js";
import { Feedback } from "../components/feedback.js";
import { usePoll } from "../hooks.js";
import type { ActivityRecord } from "../types.js";
import { shown, shownBlock } from "../display.js";

function prettyArgs(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

const outcomeLabel = (r: ActivityRecord): string => (r.outcome === "ok" ? "ok" : r.outcome === "isError" ? "tool error" : `failed${r.errorCode === undefined ? "" : ` (${r.errorCode})`}`);

/** The face, and for the gateway the client the call was made for. */
const faceLabel = (r: ActivityRecord): string => shown(r.client === undefined ? r.face : `${r.face} · ${r.client}`);

/** How many of the newest calls the page reads back; older ones stay in the file and its rotated copies. */
const SHOWN = 300;

/** A live view of <config home>/activity.jsonl: every tool call from the CLI, the REPL, the gateway and this page. */
export function ActivityPage() {
  const activity = usePoll(() => get<{ file: string; calls: ActivityRecord[] }>(`/api/activity?limit=${SHOWN}`), 1000);
  // A full page means the log holds more: the filter then searches only what is shown, and says so.
  const cut = (activity.data?.calls.length ?? 0) >= SHOWN;
  const [filter, setFilter] = useState("");
  const [outcome, setOutcome] = useState("all");
  const [selected, setSelected] = useState<ActivityRecord | undefined>(undefined);
  // The details open below up to 300 rows: focus goes there, and back to the row's button when closed.
  const detail = useRef<HTMLElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    if (selected !== undefined) detail.current?.focus();
  }, [selected]);
  const open = (call: ActivityRecord, button: EventTarget | null) => {
    opener.current = button instanceof Element ? button : null;
    setSelected(call);
  };
  const close = () => {
    setSelected(undefined);
    if (opener.current instanceof HTMLElement && opener.current.isConnected) opener.current.focus();
  };
  const needle = filter.trim().toLowerCase();
  const calls = (activity.data?.calls ?? []).filter(
    (c) => (outcome === "all" || (outcome === "ok" ? c.outcome === "ok" : c.outcome !== "ok")) && (needle === "" || `${c.server}.${c.tool} ${c.face} ${c.client ?? ""} ${c.args}`.toLowerCase().includes(needle)),
  );
  return (
    <section aria-labelledby="activity-title">
      <h2 id="activity-title">Activity</h2>
      <Feedback error={activity.error} />
      {activity.data !== undefined && (
        <p class="muted">
          From <code>{activity.data.file}</code>, written by every face (cli, repl, gateway, ui). Arguments are masked and cut; results are never logged.
          {cut && ` The log holds more: the newest ${SHOWN} calls are shown, and the filter searches only those.`}
        </p>
      )}
      <div class="row filters">
        <label>
          Filter
          <input type="search" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} placeholder="server, tool, face, client or argument text" />
        </label>
        <label>
          Outcome
          <select value={outcome} onChange={(e) => setOutcome((e.target as HTMLSelectElement).value)}>
            <option value="all">all</option>
            <option value="ok">ok</option>
            <option value="errors">errors</option>
          </select>
        </label>
      </div>
      {calls.length === 0 ? (
        <p>{needle === "" && outcome === "all" ? "No calls yet." : cut ? `None of the newest ${SHOWN} calls match; older calls are not searched.` : "No calls match."}</p>
      ) : (
        <div class="table-wrap">
          <table class="activity">
            <caption class="sr-only">Tool calls, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Face</th>
                <th scope="col">Call</th>
                <th scope="col">Duration</th>
                <th scope="col">Outcome</th>
                <th scope="col">Arguments</th>
              </tr>
            </thead>
            <tbody>
              {calls.map((c, i) => (
                <tr key={`${c.at}-${i}`} class={c.outcome === "ok" ? "" : "row-error"}>
                  <td>{new Date(c.at).toLocaleTimeString()}</td>
                  <td>{faceLabel(c)}</td>
                  <td>
                    <button type="button" class="link" onClick={(e) => open(c, e.currentTarget)} aria-label={`Details of ${c.server}.${c.tool} at ${c.at}`}>
                      {shown(`${c.server}.${c.tool}`)}
                    </button>
                  </td>
                  <td>{c.durationMs} ms</td>
                  <td>{outcomeLabel(c)}</td>
                  <td>
                    <code class="args">{shown(c.args.length > 80 ? `${c.args.slice(0, 80)}…` : c.args)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {selected !== undefined && (
        <section class="card detail" aria-labelledby="call-detail-title" tabIndex={-1} ref={detail} onKeyDown={(e) => e.key === "Escape" && close()}>
          <h3 id="call-detail-title">
            {shown(`${selected.server}.${selected.tool}`)}
          </h3>
          <dl>
            <dt>Time</dt>
            <dd>{selected.at}</dd>
            <dt>Face</dt>
            <dd>
              {faceLabel(selected)} (process {selected.pid})
            </dd>
            <dt>Duration</dt>
            <dd>{selected.durationMs} ms</dd>
            <dt>Outcome</dt>
            <dd>{outcomeLabel(selected)}</dd>
            <dt>Arguments{selected.truncated === true ? " (cut)" : ""}</dt>
            <dd>
              <pre>{shownBlock(prettyArgs(selected.args))}</pre>
            </dd>
          </dl>
          <button type="button" onClick={close}>
            Close details
          </button>
        </section>
      )}
    </section>
  );
}
