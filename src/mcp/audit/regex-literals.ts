/**
 * The literal text a regular expression cannot match without: a set of strings, one of which every match contains
 * (`\bsend (?:the|your) passwords?\b` needs "send the " or "send your "). A text holding none of them cannot match, so
 * the audit's hundreds of phrase patterns need not run on a file name that holds none of their words (literal-index.ts).
 *
 * Read from the pattern's source, conservatively: whatever this reader does not follow (a case-insensitive pattern, a
 * back-reference, a class of more than a few characters, an unusual construct) yields no literals, and the pattern
 * then runs on every text as before. So a pattern is never skipped where it could match.
 */

/** What one part of a pattern matches: `exact` every string it can match (when few), `must` a set one of which it holds. */
interface Info {
  readonly exact?: readonly string[];
  readonly must?: readonly string[];
}

const NONE: Info = {};
const EMPTY: Info = { exact: [""] };
// Past this many alternatives a set is no longer followed (a class of three letters in a row makes 27 strings).
const MAX_EXACT = 16;
const MAX_CLASS = 8;
const MAX_REPEAT = 4;

class Unsupported extends Error {}

/** The literals one of which any match of `pattern` holds, or undefined when none can be told from its source. */
export function requiredLiterals(pattern: RegExp): string[] | undefined {
  // Case-insensitive matching folds more than lower-casing does (ſ matches s); without the u flag an astral character
  // in the source is two units a quantifier can split.
  if (/[iv]/.test(pattern.flags) || (!pattern.unicode && /[\ud800-\udfff]/.test(pattern.source))) return undefined;
  try {
    const reader = new Reader(pattern.source, pattern.unicode);
    const info = reader.alternation();
    if (!reader.done()) return undefined;
    const must = usable(info.must ?? info.exact);
    return must === undefined ? undefined : [...must];
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

/** A set is usable as literals when every member is at least one character (an empty one proves nothing). */
function usable(set: readonly string[] | undefined): readonly string[] | undefined {
  return set !== undefined && set.length > 0 && set.every((s) => s.length > 0) ? set : undefined;
}

function product(a: readonly string[], b: readonly string[]): string[] | undefined {
  if (a.length * b.length > MAX_EXACT) return undefined;
  // Most parts are one character after another: distinct strings with one suffix stay distinct.
  if (b.length === 1) return a.map((x) => x + (b[0] ?? ""));
  return [...new Set(a.flatMap((x) => b.map((y) => x + y)))];
}

/** The better of two literal sets: the longer shortest member (fewer texts hold it), then fewer members. */
function better(a: readonly string[] | undefined, b: readonly string[] | undefined): readonly string[] | undefined {
  const ua = usable(a);
  const ub = usable(b);
  if (ua === undefined) return ub;
  if (ub === undefined) return ua;
  const la = Math.min(...ua.map((s) => s.length));
  const lb = Math.min(...ub.map((s) => s.length));
  return la !== lb ? (la > lb ? ua : ub) : ua.length <= ub.length ? ua : ub;
}

class Reader {
  private readonly chars: string[];
  private at = 0;

  constructor(
    source: string,
    private readonly unicode: boolean,
  ) {
    this.chars = [...source];
  }

  done(): boolean {
    return this.at >= this.chars.length;
  }

  private peek(offset = 0): string | undefined {
    return this.chars[this.at + offset];
  }

  private next(): string {
    const ch = this.chars[this.at++];
    if (ch === undefined) throw new Unsupported("unexpected end");
    return ch;
  }

  alternation(): Info {
    const alternatives = [this.sequence()];
    while (this.peek() === "|") {
      this.at++;
      alternatives.push(this.sequence());
    }
    if (alternatives.length === 1) return alternatives[0] ?? NONE;
    const exacts = alternatives.map((a) => a.exact);
    const allExact = exacts.every((e) => e !== undefined);
    const exact = allExact ? [...new Set(exacts.flatMap((e) => e ?? []))] : undefined;
    const musts = alternatives.map((a) => usable(a.must));
    const must = musts.every((m) => m !== undefined) ? [...new Set(musts.flatMap((m) => m ?? []))] : undefined;
    return { exact: exact !== undefined && exact.length <= MAX_EXACT ? exact : undefined, must };
  }

  private sequence(): Info {
    let run: string[] | undefined = [""];
    let whole: string[] | undefined = [""];
    let must: readonly string[] | undefined;
    while (!this.done() && this.peek() !== "|" && this.peek() !== ")") {
      const item = this.quantified(this.atom());
      whole = whole !== undefined && item.exact !== undefined ? product(whole, item.exact) : undefined;
      if (item.exact !== undefined) {
        const joined: string[] | undefined = run === undefined ? undefined : product(run, item.exact);
        if (joined === undefined) {
          must = better(must, run);
          run = [...item.exact];
        } else run = joined;
      } else {
        must = better(better(must, run), item.must);
        run = [""];
      }
    }
    must = better(must, run);
    return { exact: whole, must };
  }

  private quantified(item: Info): Info {
    const ch = this.peek();
    let min: number;
    let max: number;
    if (ch === "*") [min, max] = [0, Infinity];
    else if (ch === "+") [min, max] = [1, Infinity];
    else if (ch === "?") [min, max] = [0, 1];
    else if (ch === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.chars.slice(this.at, this.at + 24).join(""));
      if (m === null) return item;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.at += m[0].length - 1;
    } else return item;
    this.at++;
    if (this.peek() === "?") this.at++;
    let exact: string[] | undefined;
    if (item.exact !== undefined && max <= MAX_REPEAT) {
      exact = [];
      let power: string[] | undefined = [""];
      for (let k = 0; k <= max && power !== undefined && exact !== undefined; k++) {
        if (k >= min) exact = exact.length + power.length > MAX_EXACT ? undefined : [...new Set([...exact, ...power])];
        power = product(power, item.exact);
      }
      if (power === undefined) exact = undefined;
    }
    return { exact, must: min >= 1 ? usable(item.must ?? item.exact) : undefined };
  }

  private atom(): Info {
    const ch = this.next();
    if (ch === "(") return this.group();
    if (ch === "[") return this.characterClass();
    if (ch === ".") return NONE;
    if (ch === "^" || ch === "$") return EMPTY;
    if (ch === "\\") return this.escape();
    if (ch === ")" || ch === "|" || ch === "*" || ch === "+" || ch === "?") throw new Unsupported(`stray ${ch}`);
    return { exact: [ch], must: [ch] };
  }

  private group(): Info {
    let lookaround = false;
    if (this.peek() === "?") {
      this.at++;
      const kind = this.next();
      if (kind === "=" || kind === "!") lookaround = true;
      else if (kind === "<" && (this.peek() === "=" || this.peek() === "!")) {
        this.at++;
        lookaround = true;
      } else if (kind === "<") {
        while (this.next() !== ">");
      } else if (kind !== ":") throw new Unsupported(`group (?${kind}`);
    }
    const inner = this.alternation();
    if (this.next() !== ")") throw new Unsupported("unclosed group");
    // A look-around consumes nothing: the text it looks at is not part of the match.
    return lookaround ? EMPTY : inner;
  }

  private escape(): Info {
    const ch = this.next();
    if (ch === "b" || ch === "B") return EMPTY;
    if ("dDwWsS".includes(ch)) return NONE;
    if (ch === "p" || ch === "P") {
      if (this.peek() === "{") while (this.next() !== "}");
      return NONE;
    }
    if (/[1-9]/.test(ch) || ch === "k") throw new Unsupported("back-reference");
    const literal = this.escapedChar(ch);
    return { exact: [literal], must: [literal] };
  }

  /** The character an escape outside `\d`-like classes stands for. */
  private escapedChar(ch: string): string {
    const simple: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", f: "\f", v: "\v" };
    if (simple[ch] !== undefined) return simple[ch];
    if (ch === "0" && !/[0-9]/.test(this.peek() ?? "")) return "\0";
    if (ch === "x") return String.fromCharCode(this.hex(2));
    if (ch === "u") {
      if (this.peek() !== "{") return String.fromCharCode(this.hex(4));
      if (!this.unicode) throw new Unsupported("\\u{ without the u flag");
      this.at++;
      let digits = "";
      while (this.peek() !== "}") digits += this.next();
      this.at++;
      if (!/^[0-9a-fA-F]{1,6}$/.test(digits)) throw new Unsupported("code point");
      return String.fromCodePoint(Number.parseInt(digits, 16));
    }
    if (ch === "c" || /[0-9]/.test(ch)) throw new Unsupported(`\\${ch}`);
    if (/[A-Za-z]/.test(ch)) throw new Unsupported(`\\${ch}`);
    return ch;
  }

  private hex(length: number): number {
    const digits = this.chars.slice(this.at, this.at + length).join("");
    if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digits)) throw new Unsupported("hex escape");
    this.at += length;
    return Number.parseInt(digits, 16);
  }

  /** A class of a few listed characters (`[sz]`, `[a-c]`) is a set of one-character strings; any other tells nothing. */
  private characterClass(): Info {
    const members = new Set<string>();
    let known = this.peek() !== "^" && this.peek() !== "]";
    while (this.peek() !== "]") {
      const first = this.classChar();
      if (first === undefined) known = false;
      if (this.peek() === "-" && this.peek(1) !== "]") {
        this.at++;
        const last = this.classChar();
        const from = first?.codePointAt(0);
        const to = last?.codePointAt(0);
        if (from === undefined || to === undefined || to - from >= MAX_CLASS) known = false;
        else for (let cp = from; cp <= to; cp++) members.add(String.fromCodePoint(cp));
      } else if (first !== undefined) members.add(first);
    }
    this.at++;
    // Without the u flag a class holds UTF-16 units, not the astral characters its source shows.
    if (!known || members.size > MAX_CLASS || (!this.unicode && [...members].some((m) => m.length > 1))) return NONE;
    const set = [...members];
    return { exact: set, must: set };
  }

  /** One character of a class, or undefined for a class escape (`\w`, `\p{L}`) or a `^` that negates. */
  private classChar(): string | undefined {
    const ch = this.next();
    if (ch === "^" && this.chars[this.at - 2] === "[") return undefined;
    if (ch !== "\\") return ch;
    const escaped = this.next();
    if ("dDwWsS".includes(escaped)) return undefined;
    if (escaped === "p" || escaped === "P") {
      if (this.peek() === "{") while (this.next() !== "}");
      return undefined;
    }
    if (escaped === "b") return "\b";
    if (escaped === "-") return "-";
    return this.escapedChar(escaped);
  }
}
