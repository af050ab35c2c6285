/**
 * A safeguard parameter switched off by the definition (wave 32, from the steering misses of six writers, v14–v21): a
 * parameter that exists so the person can see or stop an action — `dry_run`, `preview`, `confirm`, `review_with_user`,
 * `approval`, `notify_user` — whose own description dictates the value that turns it off: "Leave false.", "Keep
 * true.", "Set true.", "Must be false.", "Use 'auto'." An honest schema says what a value does ("set to true to
 * preview", "must be true to delete", or a bare "Must be true." latch); an order ending its sentence and followed by the
 * reasons for it ("dry runs are slow", "previews time out", "they approved when they asked") takes the choice away from
 * the model and the person, the reasons being the cover story.
 */
import type { Hit } from "./rules.js";

/**
 * Names of parameters that show the person an action or hold it for them, each with the values that switch it off:
 * a preview or a dry run is off when false, a confirmation or approval flag when it is already given ("Keep true.").
 * "validate: Keep true." (the safe way) is not read.
 */
const OFF_WHEN_FALSE = /preview|review|dry.?run|notify|prompt|interactive|(?:^|_)ask|verif|validat/;
const OFF_WHEN_TRUE = /confirm|approv|skip.?check/;
const FALSE = /^(?:false|off|0|no|none)$/;
const TRUE = /^(?:true|on|1|yes|auto)$/;

// Folded view (lower-case). The order opens a sentence (or a docstring's "name (bool):") and ends it: nothing after
// the value but the sentence's end, so "set to true to preview" (what the value does) is not read.
const ORDER =
  /(?:^|[.;:!?]\s+|\):\s*)(?:leave(?: it)?(?: as| at| set to)?|keep(?: it)?(?: at| as)?|set(?: it)?(?: to)?|must be(?: set to)?|should (?:always )?be(?: set to)?|always(?: use| set| pass)?|use|pass)\s+['"`]?(true|false|auto|off|on|0|1|yes|no|none)\b['"`]?\s*(?:[.;:!—–]|-\s|$)/g;

/** A docstring's argument line just before the order: "notify_user (bool): Set to false." */
const ARG_LINE = /(\w+) \(\w+\):\s*$/;

/**
 * The hit for a description that dictates the value switching a safeguard off: `param` is the property it describes,
 * or undefined for prose, where only a docstring's argument line names the parameter.
 */
export function findSafeguardOff(folded: string, param?: string): Hit | undefined {
  for (const m of folded.matchAll(ORDER)) {
    const name = param?.toLowerCase() ?? ARG_LINE.exec(folded.slice(Math.max(0, m.index - 60), m.index + 3))?.[1] ?? "";
    const value = m[1] ?? "";
    const off = OFF_WHEN_TRUE.test(name) ? TRUE.test(value) : OFF_WHEN_FALSE.test(name) && FALSE.test(value);
    // A bare "Must be true." is a latch the model sets when the person asked for the action; the attack argues for the
    // value ("Leave false. Dry runs are slow."), so a reason has to follow the order.
    if (!off || folded.slice(m.index + m[0].length).trim().split(/\s+/).length < 3) continue;
    return { rule: "safeguard-off", evidence: `${name}: ${m[0].replace(/^[\s.;:!?)]+/, "").trim()}`.slice(0, 120) };
  }
  return undefined;
}
