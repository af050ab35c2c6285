import { useState } from "preact/hooks";
import { get, post } from "../api.js";
import { Feedback } from "../components/feedback.js";
import { useAction, usePoll } from "../hooks.js";

interface CatalogAnswer {
  servers: Array<{ name: string; description: string; transport: string; requiredEnv: string[]; takesDir: boolean; archived: boolean }>;
}

type Kind = "catalog" | "stdio" | "http" | "sse";
const lines = (text: string): string[] =>
  text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");

/**
 * Add a server as `mcpvm mcp add` would: the form becomes its arguments on the server side and
 * the CLI's parser judges them, so the messages are the CLI's own. Nothing is saved on an error.
 */
export function AddServerForm({ reloadState }: { reloadState: () => void }) {
  const catalog = usePoll(() => get<CatalogAnswer>("/api/catalog"), 0);
  const [kind, setKind] = useState<Kind>("catalog");
  const [name, setName] = useState("");
  const [command, setCommand] = useState("");
  const [args, setArgs] = useState("");
  const [url, setUrl] = useState("");
  const [env, setEnv] = useState("");
  const [headers, setHeaders] = useState("");
  const [dir, setDir] = useState("");
  const [as, setAs] = useState("");
  const [description, setDescription] = useState("");
  const [overwrite, setOverwrite] = useState(false);
  const action = useAction();
  const chosen = catalog.data?.servers.find((s) => s.name === name);

  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await post<{ added: string; notes: string[]; mcpOff?: string }>("/api/servers", {
        name,
        kind,
        ...(kind === "stdio" ? { command, args: lines(args) } : {}),
        ...(kind === "http" || kind === "sse" ? { url, headers: lines(headers) } : {}),
        ...(kind !== "http" && kind !== "sse" ? { env: lines(env) } : {}),
        ...(kind === "catalog" ? { dir, as } : {}),
        description,
        overwrite,
      });
      reloadState();
      // As `mcp add` says: in a home whose mcp plugin is off, approving alone starts nothing.
      const until = answer.mcpOff === undefined ? "you approve it (Approvals)" : "the mcp plugin is enabled and you approve it (Approvals)";
      return [`Added ${answer.added}. It will not start until ${until}.`, ...answer.notes, ...(answer.mcpOff === undefined ? [] : [answer.mcpOff])].join(" ");
    });
  };

  return (
    <form class="card form" onSubmit={submit} aria-labelledby="add-title">
      <h3 id="add-title">Add a server</h3>
      <fieldset>
        <legend>Kind</legend>
        {(["catalog", "stdio", "http", "sse"] as const).map((k) => (
          <label key={k} class="inline">
            <input type="radio" name="kind" value={k} checked={kind === k} onChange={() => setKind(k)} />
            {k === "catalog" ? "From the catalog" : k === "stdio" ? "A command (stdio)" : k === "http" ? "A URL (streamable HTTP)" : "A URL (SSE)"}
          </label>
        ))}
      </fieldset>
      {kind === "catalog" ? (
        <label>
          Catalog server
          <select value={name} onChange={(e) => setName((e.target as HTMLSelectElement).value)} required>
            <option value="">Choose…</option>
            {catalog.data?.servers.map((s) => (
              <option key={s.name} value={s.name}>
                {s.name}
                {s.archived ? " (archived)" : ""}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <label>
          Name
          <input value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} placeholder="my-server" autoComplete="off" spellcheck={false} />
        </label>
      )}
      {chosen !== undefined && <p class="muted">{chosen.description}</p>}
      {kind === "catalog" && chosen?.takesDir === true && (
        <label>
          Folder it works on (--dir)
          <input value={dir} onInput={(e) => setDir((e.target as HTMLInputElement).value)} placeholder="(the folder mcpvm ui was started in)" />
        </label>
      )}
      {kind === "catalog" && (
        <label>
          Add it under another name (--as, optional)
          <input value={as} onInput={(e) => setAs((e.target as HTMLInputElement).value)} autoComplete="off" />
        </label>
      )}
      {kind === "stdio" && (
        <>
          <label>
            Command
            <input value={command} onInput={(e) => setCommand((e.target as HTMLInputElement).value)} placeholder="npx" spellcheck={false} />
          </label>
          <label>
            Arguments, one per line
            <textarea rows={3} value={args} onInput={(e) => setArgs((e.target as HTMLTextAreaElement).value)} spellcheck={false} />
          </label>
        </>
      )}
      {(kind === "http" || kind === "sse") && (
        <>
          <label>
            URL
            <input type="text" inputMode="url" value={url} onInput={(e) => setUrl((e.target as HTMLInputElement).value)} placeholder="https://example.com/mcp" spellcheck={false} />
          </label>
          <label>
            Headers, one "Name: value" per line (use ${"{VAR}"} for secrets)
            <textarea rows={2} value={headers} onInput={(e) => setHeaders((e.target as HTMLTextAreaElement).value)} spellcheck={false} />
          </label>
        </>
      )}
      {(kind === "stdio" || kind === "catalog") && (
        <label>
          Environment, one KEY=VALUE per line (use ${"{VAR}"} to read yours)
          <textarea rows={2} value={env} onInput={(e) => setEnv((e.target as HTMLTextAreaElement).value)} spellcheck={false} />
        </label>
      )}
      <label>
        Description (optional; shown to the model once approved)
        <input value={description} onInput={(e) => setDescription((e.target as HTMLInputElement).value)} />
      </label>
      <label class="inline">
        <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite((e.target as HTMLInputElement).checked)} />
        Replace a server of that name
      </label>
      <div class="row">
        <button type="submit" class="primary" disabled={action.busy}>
          Add server
        </button>
      </div>
      <Feedback message={action.message} error={action.error} />
    </form>
  );
}
