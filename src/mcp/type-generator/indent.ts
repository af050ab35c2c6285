/**
 * json-schema-to-typescript with `format: false` (Prettier is slow and we do not want it at runtime)
 * prints every line flush left. Re-indent by bracket depth so the declaration reads well in a prompt.
 * Comment lines never change depth; brackets inside string literals are not counted.
 */
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g;
// Only braces: a union of object types then reads `({` … `} | {` … `})` at one level.
const OPENERS = /\{/g;
const CLOSERS = /\}/g;

function isCommentLine(line: string): boolean {
  return line.startsWith("/**") || line.startsWith(" *") || line.startsWith("*") || line.startsWith("//");
}

/** `/**\n * text\n *\/` becomes `/** text *\/`: a third of the lines for the common one-line description. */
function collapseOneLineComments(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const [open, body, close] = [lines[index], lines[index + 1], lines[index + 2]];
    if (open === "/**" && close === " */" && body !== undefined && body.startsWith(" * ") && body.length > 3) {
      out.push(`/** ${body.slice(3)} */`);
      index += 2;
    } else if (open !== undefined) {
      out.push(open);
    }
  }
  return out;
}

export function indentBlock(text: string, baseIndent: string, unit = "  "): string {
  let depth = 0;
  const out: string[] = [];
  // The library prints an empty interface over several lines.
  for (const raw of collapseOneLineComments(text.replace(/\{\n\n?\}/g, "{}").split("\n"))) {
    if (raw.trim() === "") {
      out.push("");
      continue;
    }
    if (isCommentLine(raw)) {
      out.push(baseIndent + unit.repeat(depth) + raw);
      continue;
    }
    const code = raw.replace(STRING_LITERAL, '""');
    const leadingClosers = /^\}*/.exec(code)?.[0].length ?? 0;
    const lineDepth = Math.max(0, depth - leadingClosers);
    out.push(baseIndent + unit.repeat(lineDepth) + raw);
    depth = Math.max(0, depth + (code.match(OPENERS)?.length ?? 0) - (code.match(CLOSERS)?.length ?? 0));
  }
  return out.join("\n");
}
