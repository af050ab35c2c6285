/**
 * json-schema-to-typescript prints all `type` aliases before all interfaces. A reader wants each
 * tool's types together: input, output, then the named types they use. Split the compiled text into
 * top-level declarations (with their doc comments) and stable-sort them by the rank of their name.
 */
const DECLARATION = /^export (?:interface|type|enum|const enum) ([A-Za-z0-9_$]+)/;

function isCommentLine(line: string): boolean {
  return line.startsWith("/**") || line.startsWith(" *");
}

export function orderDeclarations(text: string, rankOf: (name: string) => number | undefined): string {
  const lines = text.split("\n");
  const starts: Array<{ line: number; name: string }> = [];
  lines.forEach((line, index) => {
    const match = DECLARATION.exec(line);
    if (match !== null) starts.push({ line: index, name: match[1]! });
  });
  if (starts.length < 2) return text;
  // A declaration begins at its doc comment: walk back over the comment lines above its keyword.
  const begins = starts.map(({ line }) => {
    let begin = line;
    while (begin > 0 && isCommentLine(lines[begin - 1]!)) begin -= 1;
    return begin;
  });
  const head = lines.slice(0, begins[0]);
  let lastRank = -1;
  const blocks = starts.map(({ name }, index) => {
    // A name we did not hand out stays after the declaration it followed.
    const rank = rankOf(name) ?? lastRank;
    lastRank = rank;
    return { rank, index, text: lines.slice(begins[index], begins[index + 1] ?? lines.length) };
  });
  blocks.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return [...head, ...blocks.flatMap((block) => block.text)].join("\n");
}
