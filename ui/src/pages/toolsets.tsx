import { useState } from "preact/hooks";
import { enc, get, post } from "../api.js";
import { Feedback } from "../components/feedback.js";
import { useAction, useConfirmFocus, usePoll } from "../hooks.js";

interface ToolsetView {
  name: string;
  description?: string;
  tools: string[];
  updatedAt: string;
  flat: Array<{ ref: string; name: string | null }>;
  collisions: Array<{ name: string; refs: string[]; assigned: string[] }>;
  equip: string;
}

/** `onDeleted(outcome)`: said by the page, since the card leaves once the toolset is gone. */
function ToolsetCard({ toolset, onChange, onEdit, onDeleted }: { toolset: ToolsetView; onChange: () => void; onEdit: (t: ToolsetView) => void; onDeleted: (outcome: string) => void }) {
  const action = useAction();
  // Asked first, as removing a server is.
  const { asking: confirmDelete, setAsking: setConfirmDelete, cancelButton, askButton: deleteButton, onQuestionKey } = useConfirmFocus();
  const remove = () =>
    action.run(async () => {
      await post(`/api/toolsets/${enc(toolset.name)}/delete`);
      onDeleted(`Deleted toolset ${toolset.name}.`);
      // The card, and the focused button with it, is about to leave.
      document.getElementById("main")?.focus();
      onChange();
      return undefined;
    });
  return (
    <article class="card" aria-labelledby={`toolset-${toolset.name}`}>
      <h3 id={`toolset-${toolset.name}`}>{toolset.name}</h3>
      {toolset.description !== undefined && <p class="muted">{toolset.description}</p>}
      <table>
        <caption class="sr-only">Tools of {toolset.name} and the names a client sees</caption>
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Name when equipped</th>
          </tr>
        </thead>
        <tbody>
          {toolset.flat.map((f) => (
            <tr key={f.ref}>
              <td>
                <code>{f.ref}</code>
              </td>
              <td>
                <code>{f.name ?? "(not a server.tool reference)"}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {toolset.collisions.map((c) => (
        <p key={c.name} class="warn">
          Collision on <code>{c.name}</code>: {c.refs.map((r, i) => `${r} → ${c.assigned[i] ?? "?"}`).join(", ")}
        </p>
      ))}
      <p>
        Equip it: <code>{toolset.equip}</code> (or equip-toolset from the MCP client)
      </p>
      <div class="row">
        <button type="button" onClick={() => onEdit(toolset)}>
          Edit {toolset.name}
        </button>
        {!confirmDelete ? (
          <button type="button" class="danger" ref={deleteButton} onClick={() => setConfirmDelete(true)} disabled={action.busy}>
            Delete {toolset.name}…
          </button>
        ) : (
          <span class="row" role="group" aria-label={`Confirm deleting ${toolset.name}`} onKeyDown={onQuestionKey}>
            <span>Delete toolset {toolset.name}? Clients equipped with it lose its tools.</span>
            <button type="button" class="danger" onClick={remove} disabled={action.busy}>
              Yes, delete {toolset.name}
            </button>
            <button type="button" ref={cancelButton} onClick={() => setConfirmDelete(false)}>
              Cancel
            </button>
          </span>
        )}
      </div>
      <Feedback message={action.message} error={action.error} />
    </article>
  );
}

/** Toolsets: the same toolsets.json as `mcpvm toolset` and the gateway's build-toolset. */
export function ToolsetsPage() {
  const toolsets = usePoll(() => get<{ toolsets: ToolsetView[] }>("/api/toolsets"), 2000);
  const candidates = usePoll(() => get<{ refs: string[] }>("/api/toolsets/candidates"), 0);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [tools, setTools] = useState("");
  // The saved version the form was loaded from (Edit) or last saved as: a save replaces that version only.
  const [basis, setBasis] = useState<{ name: string; updatedAt: string } | undefined>(undefined);
  // The version listed under the name when it was typed: one that appears later (another tab, the CLI) is not replaced unseen.
  const [seen, setSeen] = useState<string | null>(null);
  const typeName = (value: string) => {
    setName(value);
    setSeen(toolsets.data?.toolsets.find((t) => t.name === value.trim())?.updatedAt ?? null);
  };
  const action = useAction();
  const [deleted, setDeleted] = useState<string | undefined>(undefined);
  const chosen = new Set(tools.split("\n").map((t) => t.trim()).filter((t) => t !== ""));
  const toggle = (ref: string) => {
    const next = new Set(chosen);
    if (next.has(ref)) next.delete(ref);
    else next.add(ref);
    setTools([...next].join("\n"));
  };
  const save = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const trimmed = name.trim();
      const replaces = basis?.name === trimmed ? basis.updatedAt : seen;
      try {
        const answer = await post<{ saved: ToolsetView }>("/api/toolsets", { name, description, tools: [...chosen], replaces });
        setBasis({ name: answer.saved.name, updatedAt: answer.saved.updatedAt });
        return `Saved toolset ${answer.saved.name} (${answer.saved.tools.length} tools).`;
      } finally {
        toolsets.reload();
      }
    });
  };
  const edit = (t: ToolsetView) => {
    setName(t.name);
    setDescription(t.description ?? "");
    setTools(t.tools.join("\n"));
    setBasis({ name: t.name, updatedAt: t.updatedAt });
    document.getElementById("toolset-name")?.focus();
  };
  return (
    <section aria-labelledby="toolsets-title">
      <h2 id="toolsets-title">Toolsets</h2>
      <p class="muted">A toolset is a named list of tools the gateway exposes directly, under flattened names (git.status → git_status).</p>
      <Feedback message={deleted} error={toolsets.error} />
      {toolsets.data?.toolsets.length === 0 && <p>No toolsets yet.</p>}
      <div class="cards">
        {toolsets.data?.toolsets.map((t) => (
          <ToolsetCard key={t.name} toolset={t} onChange={toolsets.reload} onEdit={edit} onDeleted={setDeleted} />
        ))}
      </div>
      <form class="card form" onSubmit={save} aria-labelledby="build-title">
        <h3 id="build-title">Build or replace a toolset</h3>
        <label>
          Name
          <input id="toolset-name" value={name} onInput={(e) => typeName((e.target as HTMLInputElement).value)} autoComplete="off" />
        </label>
        <label>
          Description (optional)
          <input value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
        </label>
        {/* MCP off: no server's tools can be offered, and saving will say why; said before anyone types a list. */}
        {candidates.error !== undefined && (
          <p class="warn" role="alert">
            No tools to choose from: {candidates.error}
          </p>
        )}
        {(candidates.data?.refs.length ?? 0) > 0 && (
          <fieldset>
            <legend>Tools of approved servers</legend>
            <div class="checks">
              {candidates.data?.refs.map((ref) => (
                <label key={ref} class="inline">
                  <input type="checkbox" checked={chosen.has(ref)} onChange={() => toggle(ref)} />
                  <code>{ref}</code>
                </label>
              ))}
            </div>
          </fieldset>
        )}
        <label>
          Tools, one server.tool per line
          <textarea rows={4} value={tools} onInput={(e) => setTools((e.target as HTMLTextAreaElement).value)} spellcheck={false} />
        </label>
        <div class="row">
          <button type="submit" class="primary" disabled={action.busy}>
            Save toolset
          </button>
        </div>
        <Feedback message={action.message} error={action.error} />
      </form>
    </section>
  );
}
