import { highlight, valueAtPath } from "../line-diff.js";
import type { Finding } from "../types.js";
import { shownBlock } from "../display.js";

/** Each audit finding with the offending text marked in the field it was found in. */
export function Findings({ findings, definition }: { findings: Finding[]; definition: unknown }) {
  if (findings.length === 0) return null;
  return (
    <ul class="findings" aria-label="Audit findings">
      {findings.map((f, i) => {
        const text = valueAtPath(definition, f.location.jsonPath);
        const marked = text === undefined ? undefined : highlight(text, f.evidence);
        return (
          <li key={i} class={`finding severity-${f.severity}`}>
            <strong class="severity">{f.severity === "block" ? "BLOCK" : f.severity === "warn" ? "WARN" : "info"}</strong> <code>{f.rule}</code> in <code>{f.location.jsonPath}</code>
            <blockquote>
              {marked !== undefined ? (
                <>
                  {shownBlock(marked.before)}
                  <mark>{shownBlock(marked.match)}</mark>
                  {shownBlock(marked.after)}
                </>
              ) : (
                <mark>{shownBlock(f.evidence)}</mark>
              )}
            </blockquote>
          </li>
        );
      })}
    </ul>
  );
}
