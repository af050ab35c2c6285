import { sideBySide } from "../line-diff.js";
import { shownBlock } from "../display.js";

const pretty = (value: unknown): string => (value === null || value === undefined ? "" : shownBlock(JSON.stringify(value, null, 2)));

/** The approved definition beside the one the server lists now, changed lines marked (and named, not only coloured). */
export function SideBySideDiff({ approved, current, label }: { approved: unknown; current: unknown; label: string }) {
  const rows = sideBySide(pretty(approved), pretty(current));
  return (
    <div class="diff" role="table" aria-label={label}>
      <div class="diff-row diff-head" role="row">
        <span role="columnheader">Approved{approved === null ? " (none: a new tool)" : ""}</span>
        <span role="columnheader">New</span>
      </div>
      {rows.map((row, i) => (
        <div key={i} class={`diff-row ${row.kind}`} role="row">
          <pre role="cell" class="left" aria-label={row.kind === "removed" || row.kind === "changed" ? "removed" : undefined}>
            {row.left ?? ""}
          </pre>
          <pre role="cell" class="right" aria-label={row.kind === "added" || row.kind === "changed" ? "added" : undefined}>
            {row.right ?? ""}
          </pre>
        </div>
      ))}
    </div>
  );
}
