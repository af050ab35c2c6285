/**
 * A stack of runaway recursion is one frame written a thousand times (QuickJS keeps every frame; a
 * STACK_OVERFLOW's stack was ~68 KB of `at down (script.js:1:43)` in `mcpvm run --json`). As Python does,
 * a frame repeated more than KEPT times in a row is written KEPT times and then counted, so the
 * frames around the recursion (where it started, what called it) stay visible and the output budget
 * is not spent on copies.
 */
const KEPT = 3;

/** `frames` (one per line) with each run of identical lines longer than KEPT cut to KEPT and a line saying how many more there were. */
export function collapseRepeatedFrames(frames: string): string {
  const lines = frames.split("\n");
  const out: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] as string;
    let end = index + 1;
    while (end < lines.length && lines[end] === line) end++;
    const count = end - index;
    if (count <= KEPT || line.trim() === "") {
      for (let i = index; i < end; i++) out.push(line);
    } else {
      for (let i = 0; i < KEPT; i++) out.push(line);
      const indent = /^\s*/.exec(line)?.[0] ?? "";
      const more = count - KEPT;
      out.push(`${indent}… the frame above ${more.toLocaleString("en-US")} more ${more === 1 ? "time" : "times"}`);
    }
    index = end;
  }
  return out.join("\n");
}
