/**
 * Finds every fenced code block of a Markdown file and the `<!-- example: <kind> [options] -->`
 * annotation just before it (blank lines between them allowed). Pure: text in, blocks out.
 *
 * Options are `key=value`, `key="quoted value"` or a bare `flag`. A key may carry a line number
 * (`skip@3="reason"`, `exit@2=5`) to apply to one line of an sh block. Whatever follows the kind and
 * is not an option is the free-text reason (kinds `skip` and `not-code`).
 */

export const KINDS = [
  "js",
  "sh",
  "config",
  "import",
  "covered",
  "skip",
  "not-code",
] as const;
export type ExampleKind = (typeof KINDS)[number];

export interface Annotation {
  readonly kind: ExampleKind;
  readonly options: ReadonlyMap<string, string>;
  readonly reason: string;
}

export interface CodeBlock {
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly language: string;
  readonly code: string;
  /** undefined when no annotation precedes the block; a string when the annotation is malformed. */
  readonly annotation: Annotation | string | undefined;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/;
const ANNOTATION = /^\s*<!--\s*example:\s*(.*?)\s*-->\s*$/;
const OPTION = /^([a-z][\w-]*(?:@\d+)?)=(?:"([^"]*)"|(\S+))/;

export function parseAnnotation(text: string): Annotation | string {
  const [kind = "", ...restWords] = text.split(/\s+/);
  if (!(KINDS as readonly string[]).includes(kind))
    return `unknown example kind "${kind}" (one of ${KINDS.join(", ")})`;
  let rest = restWords.join(" ");
  const options = new Map<string, string>();
  const reasonWords: string[] = [];
  while (rest.length > 0) {
    const option = OPTION.exec(rest);
    if (option) {
      options.set(option[1]!, option[2] ?? option[3]!);
      rest = rest.slice(option[0].length).trimStart();
      continue;
    }
    const [word = "", ...others] = rest.split(/\s+/);
    if (
      /^[a-z][\w-]*$/.test(word) &&
      reasonWords.length === 0 &&
      kind !== "skip" &&
      kind !== "not-code"
    )
      options.set(word, "true");
    else reasonWords.push(word);
    rest = others.join(" ");
  }
  const reason = reasonWords.join(" ");
  if ((kind === "skip" || kind === "not-code") && reason.length === 0)
    return `"${kind}" needs a reason`;
  if (kind === "covered" && !options.has("by"))
    return `"covered" needs by=<test file>`;
  return { kind: kind as ExampleKind, options, reason };
}

export function extractBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  let pending: { text: string } | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const annotation = ANNOTATION.exec(line);
    if (annotation) {
      pending = { text: annotation[1]! };
      continue;
    }
    const fence = FENCE.exec(line);
    if (!fence) {
      if (line.trim().length > 0) pending = undefined;
      continue;
    }
    const [, indent = "", marker = "", language = ""] = fence;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const closing = lines[end]!;
      if (
        closing.trim().startsWith(marker) &&
        closing.trim().replace(/[`~]/g, "").length === 0
      )
        break;
      body.push(
        closing.startsWith(indent)
          ? closing.slice(indent.length)
          : closing.trimStart(),
      );
    }
    blocks.push({
      file,
      line: index + 1,
      language,
      code: body.join("\n"),
      annotation: pending && parseAnnotation(pending.text),
    });
    pending = undefined;
    index = end;
  }
  return blocks;
}
