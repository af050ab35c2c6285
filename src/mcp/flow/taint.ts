import { textViews } from "../audit/normalise.js";

/**
 * Origin labels for data MCP servers hand to the guest, by content: the host cannot see inside the
 * sandbox, but it sees every value it hands in and every argument that comes out. What a server
 * returned is remembered (folded, below); an outgoing argument carries a server's label when it
 * contains a piece of that server's data:
 *
 * - text is compared folded (fold(): look-alike letters, fullwidth forms, invisible characters and
 *   case do not matter);
 * - every 12-character window of a returned string is findable (indexed at every 3rd position, and
 *   outgoing text is checked at every position), so any copied run of 14 or more characters is
 *   caught, and a whole returned string of 12 or more anywhere it is copied;
 * - a returned string of 8–11 characters is caught where it appears whole;
 * - text that also appears in the script's own source is not data from a server (a constant the
 *   script wrote), so windows found there are skipped.
 *
 * Not followed (documented in docs/SECURITY.md): data re-encoded by the script (base64, hex,
 * reversed, split into pieces shorter than the windows, one character at a time), a piece of 8–13
 * characters cut from inside a longer returned string (no indexed window need start where it does),
 * booleans, strings and numbers under 8 characters, and implicit flows (a branch taken because of a
 * value). Numbers count by their decimal text and bytes by their UTF-8 and UTF-16 text runs, both ways;
 * arguments are walked at any depth.
 */

export const WINDOW = 12;
export const STRIDE = 3;
export const MIN_WHOLE = 8;
/** Past this many characters remembered from one run, a server's further data is not indexed: it then taints every long outgoing string (fail closed). */
export const MAX_INDEXED_CHARS = 4 * 1024 * 1024;
/** Up to this many short (8–11 character) returned strings, each is searched for in an outgoing string; past it, the outgoing string's substrings are looked up. */
const WHOLE_SEARCH_MAX = 64;
/** Pieces whose presence in the script's source is remembered, per run. */
const IN_CODE_CACHE = 100_000;

interface ServerData {
  readonly texts: string[];
  readonly windows: Set<number>;
  readonly whole: Set<string>;
  /** Texts remembered but not yet indexed: indexing waits for the first check, which most runs never make. */
  readonly pending: string[];
  overflow: boolean;
}

/** Where in the outgoing arguments a server's data was found (a JSON path, never the data). */
export interface TaintMatch {
  readonly server: string;
  readonly path: string;
}

export class TaintIndex {
  private readonly servers = new Map<string, ServerData>();
  private indexed = 0;
  private readonly code: string;
  private readonly inCode = new Map<string, boolean>();

  constructor(code: string) {
    this.code = fold(code);
  }

  /** Remembers every string in `value` (keys included) as data from `server`. */
  label(server: string, value: unknown): void {
    let data = this.servers.get(server);
    if (data === undefined) {
      data = { texts: [], windows: new Set(), whole: new Set(), pending: [], overflow: false };
      this.servers.set(server, data);
    }
    for (const text of strings(value)) this.add(data, fold(text));
  }

  /**
   * The servers whose data appears in `value`, each with the first argument path it was found in. The
   * path is recorded (audit log) and shown: a key the script's source does not spell out is written
   * `[key]`, so the path never holds server data, not even a piece too short or too far inside a
   * longer text for the windows to find (a password cut out of a sentence and used as a key).
   * `except`'s data is neither indexed nor searched: the guard lets a server's data go back to it.
   */
  find(value: unknown, except?: string): TaintMatch[] {
    const found = new Map<string, string>();
    // A server's own data going back to it is no flow: with no other server's data in the run (one
    // server, or the first calls), the arguments need not be walked at all.
    let others = 0;
    for (const server of this.servers.keys()) if (server !== except) others++;
    if (others === 0) return [];
    walk(value, (text, path) => {
      if (text.length < MIN_WHOLE) return;
      const lower = fold(text);
      for (const [server, data] of this.servers) {
        if (server === except) continue;
        this.indexPending(data);
        if (found.has(server)) continue;
        if (this.contains(data, lower)) found.set(server, pathText(path, (key) => !this.code.includes(key.toLowerCase())) || "(the argument)");
      }
    });
    return [...found].map(([server, path]) => ({ server, path }));
  }

  private add(data: ServerData, text: string): void {
    if (text.length < MIN_WHOLE) return;
    if (this.indexed + text.length > MAX_INDEXED_CHARS) {
      data.overflow = true;
      return;
    }
    this.indexed += text.length;
    if (text.length < WINDOW) {
      data.whole.add(text);
      return;
    }
    data.texts.push(text);
    data.pending.push(text);
  }

  private indexPending(data: ServerData): void {
    for (const text of data.pending) {
      for (let i = 0; i + WINDOW <= text.length; i += STRIDE) data.windows.add(hashWindow(text, i));
      // The last window too, so the string's tail is as findable as its head.
      data.windows.add(hashWindow(text, text.length - WINDOW));
    }
    data.pending.length = 0;
  }

  private contains(data: ServerData, text: string): boolean {
    if (data.overflow && !this.code.includes(text)) return true;
    if (data.whole.size > 0 && this.containsWhole(data.whole, text)) return true;
    if (data.windows.size === 0 || text.length < WINDOW) return false;
    for (let i = 0; i + WINDOW <= text.length; i++) {
      if (!data.windows.has(hashWindow(text, i))) continue;
      const window = text.slice(i, i + WINDOW);
      // A hash hit is confirmed on the text itself; a window the script wrote itself is its own.
      if (this.scriptWrote(window)) continue;
      if (data.texts.some((t) => t.includes(window))) return true;
    }
    return false;
  }

  /**
   * Whether a returned string of 8–11 characters appears whole in `text`. Past a few dozen such
   * strings they are looked up by the text's substrings of those lengths instead of searched for one
   * by one: 60,000 returned dates or ids against 60,000 sent strings held the host for 93 s.
   */
  private containsWhole(whole: Set<string>, text: string): boolean {
    if (whole.size <= WHOLE_SEARCH_MAX) {
      for (const piece of whole) if (text.includes(piece) && !this.scriptWrote(piece)) return true;
      return false;
    }
    for (let length = MIN_WHOLE; length < WINDOW; length++) {
      for (let i = 0; i + length <= text.length; i++) {
        const piece = text.slice(i, i + length);
        if (whole.has(piece) && !this.scriptWrote(piece)) return true;
      }
    }
    return false;
  }

  /** Whether the script's source holds `piece` (remembered: the same piece is asked about once per hit). */
  private scriptWrote(piece: string): boolean {
    let known = this.inCode.get(piece);
    if (known === undefined) {
      known = this.code.includes(piece);
      if (this.inCode.size < IN_CODE_CACHE) this.inCode.set(piece, known);
    }
    return known;
  }
}

/**
 * Text as compared: the audit's folded view (hidden characters dropped, NFKC, look-alike letters to
 * ASCII, accents dropped, lower case, whitespace runs as one space), for what is returned, what is
 * sent and the script's source alike. A script that sent a server's data in fullwidth letters, with
 * Cyrillic look-alikes or with a zero-width character between every two letters sent text a reader
 * sees as the data itself, and no window matched. ASCII text is only lower-cased and its whitespace
 * collapsed.
 */
function fold(text: string): string {
  // Most text is printable ASCII, single-spaced: the folded view of it is the text lower-cased.
  const plain = PRINTABLE.test(text) && !text.includes("  ") && !text.startsWith(" ") && !text.endsWith(" ");
  return plain ? text.toLowerCase() : textViews(text).folded;
}

const PRINTABLE = /^[\x20-\x7e]*$/;

/** FNV-1a over one window's UTF-16 code units. */
function hashWindow(text: string, start: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < start + WINDOW; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function strings(value: unknown): string[] {
  const out: string[] = [];
  walk(value, (text) => out.push(text));
  return out;
}

/** Paths are spelled out this deep; below it they end in "…" (a guest can nest arguments thousands deep). */
const PATH_DEPTH = 64;
const UTF8 = new TextDecoder("utf-8", { fatal: false });
const UTF16 = new TextDecoder("utf-16le", { fatal: false });
/** Control characters and undecodable bytes: what separates the text runs inside binary data. */
// eslint-disable-next-line no-control-regex
const NOT_TEXT = /[\u0000-\u0008\u000e-\u001f\u007f\ufffd]+/u;

/** Outside Latin, Greek and Cyrillic letters and punctuation: what separates the text runs of bytes read as UTF-16. */
const NOT_UTF16_TEXT = /[^\t\n\r\x20-\x7e\u00a0-\u024f\u0370-\u04ff\u2000-\u206f]+/u;

/**
 * The text runs of at least MIN_WHOLE characters in bytes: read as UTF-8, and where the bytes hold
 * zeros (UTF-16 text of Latin letters is half zeros) also as UTF-16 at both byte alignments (little-
 * and big-endian). A server's UTF-16 file read as a binary resource and decoded by the script was
 * not followed. Random bytes read as UTF-16 are mostly other scripts' characters, so they add
 * almost no runs.
 */
function textRuns(bytes: Uint8Array): string[] {
  const runs = UTF8.decode(bytes).split(NOT_TEXT);
  if (bytes.includes(0)) {
    for (const start of [0, 1]) {
      const aligned = bytes.subarray(start, start + ((bytes.length - start) & ~1));
      runs.push(...UTF16.decode(aligned).split(NOT_UTF16_TEXT));
    }
  }
  return runs.filter((run) => run.length >= MIN_WHOLE);
}

/** Where a string sits: its parent and the key or index that leads to it (built into text only for a match). */
interface PathNode {
  readonly parent: PathNode | undefined;
  readonly step: string | number;
}

/** `a.b[2].c`, the first PATH_DEPTH steps only; a key `hide` says may be data is written `[key]`. */
function pathText(node: PathNode | undefined, hide: (key: string) => boolean): string {
  const steps: (string | number)[] = [];
  for (let at = node; at !== undefined; at = at.parent) steps.push(at.step);
  steps.reverse();
  let text = "";
  for (const step of steps.slice(0, PATH_DEPTH)) {
    if (typeof step === "number") text += `[${step}]`;
    else text += `${text === "" ? "" : "."}${hide(step) ? "[key]" : step}`;
  }
  return steps.length > PATH_DEPTH ? `${text}…` : text;
}

/**
 * Every string in a JSON-like value (numbers as their decimal text), keys included, with where it sits; no cycles. Iterative and
 * without a depth limit: a value nested past any limit would otherwise be a way around the guard.
 * Bytes (a binary resource, an image, a Uint8Array argument) count by their text runs (textRuns) of at
 * least MIN_WHOLE characters: a script that decodes a server's bytes holds that server's text.
 */
function walk(value: unknown, visit: (text: string, path: PathNode | undefined) => void): void {
  const seen = new Set<object>();
  const stack: { value: unknown; path: PathNode | undefined }[] = [{ value, path: undefined }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value: item, path } = next;
    if (typeof item === "string") {
      visit(item, path);
      continue;
    }
    // A number counts by its decimal text: an account or card number in a structured result is data
    // as much as the same digits in a string, and a script can send it either way.
    if (typeof item === "number") {
      if (Number.isFinite(item)) visit(String(item), path);
      continue;
    }
    if (item === null || typeof item !== "object" || seen.has(item)) continue;
    seen.add(item);
    if (item instanceof Uint8Array) {
      for (const run of textRuns(item)) visit(run, path);
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(item) ? item.map((element, index) => [index, element]) : Object.entries(item);
    // Pushed in reverse so that items are visited in order (the first match names the first path), a key before its value.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [step, element] = entries[i] as [string | number, unknown];
      const at: PathNode = { parent: path, step };
      stack.push({ value: element, path: at });
      if (typeof step === "string") stack.push({ value: step, path: at });
    }
  }
}
