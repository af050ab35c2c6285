import { useState } from "preact/hooks";
import { post } from "../api.js";
import { Feedback } from "../components/feedback.js";
import { useAction } from "../hooks.js";

interface ImportAnswer {
  added: string[];
  overwritten: string[];
  unchanged: string[];
  conflicts: Array<{ name: string; reason: string }>;
  skipped: Array<{ name: string; reason: string }>;
  renames: Array<{ from: string; to: string; reason?: string }>;
  warnings: Array<{ name: string; message: string }>;
  format: string;
  dryRun: boolean;
}

/** `mcpvm mcp import`, from a path on this machine or an uploaded file; the report is the CLI's --json report. */
export function ImportForm({ reloadState }: { reloadState: () => void }) {
  const [path, setPath] = useState("");
  const [file, setFile] = useState<File | undefined>(undefined);
  const [overwrite, setOverwrite] = useState(false);
  const [dryRun, setDryRun] = useState(false);
  const [report, setReport] = useState<ImportAnswer | undefined>(undefined);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      setReport(undefined);
      const source = file !== undefined ? { text: await file.text(), fileName: file.name } : { path };
      const answer = await post<ImportAnswer>("/api/import", { ...source, overwrite, dryRun });
      setReport(answer);
      reloadState();
      return `${answer.dryRun ? "Would import" : "Imported"} ${answer.added.length} ${answer.added.length === 1 ? "server" : "servers"} from a ${answer.format} file${answer.added.length > 0 ? `: ${answer.added.join(", ")}` : ""}. Imported servers start only after approval.`;
    });
  };
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="import-title">
      <h3 id="import-title">Import another client's config</h3>
      <p class="muted">VS Code mcp.json, Claude Desktop/Code, Cursor, Windsurf, or command-array configs.</p>
      <label>
        Path to the file
        <input value={path} onInput={(e) => setPath((e.target as HTMLInputElement).value)} placeholder="~/.cursor/mcp.json" spellcheck={false} disabled={file !== undefined} />
      </label>
      <label>
        …or upload it
        <input type="file" accept=".json,.jsonc,application/json" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0])} />
      </label>
      <label class="inline">
        <input type="checkbox" checked={overwrite} onChange={(e) => setOverwrite((e.target as HTMLInputElement).checked)} />
        Replace servers that exist with another definition
      </label>
      <label class="inline">
        <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun((e.target as HTMLInputElement).checked)} />
        Dry run (write nothing)
      </label>
      <div class="row">
        <button type="submit" disabled={action.busy}>
          Import
        </button>
      </div>
      <Feedback message={action.message} error={action.error} />
      {report !== undefined && (
        <ul class="report">
          {report.renames.map((r) => (
            <li key={`r-${r.from}`}>
              renamed {r.from} → {r.to}
            </li>
          ))}
          {report.unchanged.length > 0 && <li>unchanged: {report.unchanged.join(", ")}</li>}
          {report.conflicts.map((c) => (
            <li key={`c-${c.name}`} class="warn">
              not imported {c.name}: {c.reason}
            </li>
          ))}
          {report.skipped.map((s) => (
            <li key={`s-${s.name}`} class="warn">
              skipped {s.name}: {s.reason}
            </li>
          ))}
          {report.warnings.map((w, i) => (
            <li key={`w-${i}`} class="warn">
              {w.name === "" ? "" : `${w.name}: `}
              {w.message}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
