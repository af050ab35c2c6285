/**
 * Fits a run's model-facing output into `max` characters of JSON by cutting what is bulky (console
 * lines, then the result) and keeping what says how the run went: `error`, `stats`, `notes`,
 * `warnings`. A plain character cut of the JSON text would keep the first thing in it — `"result":
 * null` and the first log lines — and drop the error after them: the model would read a run that
 * failed (OUTPUT_LIMIT, a throw after much logging) as one that returned null.
 */
export function fitRunOutput(output: Record<string, unknown>, max: number): Record<string, unknown> {
  const size = (value: unknown) => (JSON.stringify(value) ?? "null").length;
  const total = size(output);
  if (total <= max) return output;
  const logs = Array.isArray(output.logs) ? (output.logs as unknown[]).map(String) : [];
  // Room for the note that says what was left out.
  const reserve = 400;
  let result = output.result;
  let resultNote = "";
  const withoutLogs = { ...output, logs: [] };
  if (size(withoutLogs) + reserve > max) {
    // The result alone does not fit: a prefix of its JSON, said to be one.
    const text = JSON.stringify(result) ?? "null";
    const keep = Math.max(0, max - (size({ ...withoutLogs, result: null }) + reserve));
    result = text.slice(0, keep);
    resultNote = ` The result was ${text.length} characters of JSON: "result" holds its first ${keep} as a string.`;
  }
  const kept = keepEnds(logs, max - size({ ...output, result, logs: [] }) - reserve);
  const left = logs.length - kept.head.length - kept.tail.length;
  const marker = left > 0 ? [`… ${left} log lines left out …`] : [];
  const logNote = left > 0 ? ` ${left} of ${logs.length} log lines left out (the first ${kept.head.length} and the last ${kept.tail.length} are kept).` : "";
  return {
    ...output,
    result,
    logs: [...kept.head, ...marker, ...kept.tail],
    cut: `Output cut to fit ${max} of ${total} characters.${logNote}${resultNote} Return less (filter, count or summarise inside the script).`,
  };
}

/** As many lines as fit in `budget` characters of JSON, taken from both ends (first lines, then last lines). */
function keepEnds(lines: readonly string[], budget: number): { head: string[]; tail: string[] } {
  const head: string[] = [];
  const tail: string[] = [];
  let used = 0;
  const lineMax = Math.max(0, Math.floor(budget / 4));
  let front = 0;
  let back = lines.length - 1;
  while (front <= back) {
    const fromFront = head.length <= tail.length;
    const raw = lines[fromFront ? front : back] as string;
    const line = raw.length > lineMax ? `${raw.slice(0, lineMax)}… (${raw.length} characters)` : raw;
    const cost = (JSON.stringify(line) as string).length + 1;
    if (used + cost > budget) break;
    used += cost;
    if (fromFront) {
      head.push(line);
      front += 1;
    } else {
      tail.unshift(line);
      back -= 1;
    }
  }
  return { head, tail };
}
