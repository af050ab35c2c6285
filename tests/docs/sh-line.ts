/**
 * The small shell subset the docs' command lines use, parsed without a shell so each `mcpvm` runs
 * in-process: `# comments`, `A && B`, `echo '…' | mcpvm … -`, `> file`, `source <(mcpvm …)`,
 * `VAR=value` prefixes, quotes and a leading `~`. Anything else is an error that asks for an annotation.
 */

export interface ShCommand {
  readonly env: Readonly<Record<string, string>>;
  /** mcpvm's arguments (after `npx mcpvm` or `mcpvm`). */
  readonly argv: readonly string[];
  readonly stdin: string;
  readonly redirectTo?: string;
}

/** Words of a command, honouring quotes; `~` at a word's start is the home. Operators come back as words of their own. */
export function shellWords(text: string, home: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unclosed ${c} in: ${text}`);
      word = (word ?? "") + text.slice(i + 1, end);
      i = end;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "#" && word === undefined) {
      break;
    } else if (
      (c === "&" && text[i + 1] === "&") ||
      c === "|" ||
      c === ">" ||
      (c === "<" && text[i + 1] === "(")
    ) {
      if (word !== undefined) words.push(word);
      word = undefined;
      const operator = c === "&" ? "&&" : c === "<" ? "<(" : c;
      words.push(`\u0000${operator}`);
      i += operator.length - 1;
    } else if (
      c === "~" &&
      word === undefined &&
      (text[i + 1] === "/" ||
        text[i + 1] === undefined ||
        /\s/.test(text[i + 1]!))
    ) {
      word = home;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

const op = (word: string): string | undefined =>
  word.startsWith("\u0000") ? word.slice(1) : undefined;

function splitOn(words: readonly string[], operator: string): string[][] {
  const parts: string[][] = [[]];
  for (const word of words) {
    if (op(word) === operator) parts.push([]);
    else parts.at(-1)!.push(word);
  }
  return parts;
}

function mcpvmCommand(
  words: readonly string[],
  stdin: string,
  line: string,
): ShCommand {
  let rest = [...words];
  if (rest[0] === "source" && op(rest[1] ?? "") === "<(")
    rest = rest
      .slice(2)
      .filter((w) => w !== ")")
      .map((w) => w.replace(/\)$/, ""));
  let redirectTo: string | undefined;
  const redirect = rest.findIndex((w) => op(w) === ">");
  if (redirect >= 0) {
    redirectTo = rest[redirect + 1];
    rest = rest.slice(0, redirect);
  }
  const env: Record<string, string> = {};
  while (rest[0] !== undefined && /^[A-Z_][A-Z0-9_]*=/.test(rest[0])) {
    const [key, ...value] = rest.shift()!.split("=");
    env[key!] = value.join("=");
  }
  if (rest[0] === "npx") rest.shift();
  if (rest[0] !== "mcpvm")
    throw new Error(`not an mcpvm command (annotate it skip@N="why"): ${line}`);
  if (rest.some((w) => op(w) !== undefined))
    throw new Error(`unsupported shell syntax: ${line}`);
  return {
    env,
    argv: rest.slice(1),
    stdin,
    ...(redirectTo === undefined ? {} : { redirectTo }),
  };
}

/** One doc line as the mcpvm commands it runs, in order (`&&`: each must succeed for the next to run). */
export function parseShLine(line: string, home: string): ShCommand[] {
  const words = shellWords(line, home);
  return splitOn(words, "&&")
    .filter((part) => part.length > 0)
    .map((part) => {
      const piped = splitOn(part, "|");
      if (piped.length === 1) return mcpvmCommand(part, "", line);
      const [producer, consumer] = piped;
      if (piped.length !== 2 || producer![0] !== "echo")
        throw new Error(`only "echo … | mcpvm …" pipes are supported: ${line}`);
      return mcpvmCommand(consumer!, `${producer!.slice(1).join(" ")}\n`, line);
    });
}
