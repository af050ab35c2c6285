/**
 * Text hidden by a transform of the whole sentence rather than an encoded run: ROT13 and any other Caesar shift,
 * Atbash, ROT47, reversed writing, leetspeak and Morse code. A sentence is taken as transformed when the transform turns it
 * from text with few common words into text with many (so ordinary prose, and identifiers, never decode).
 *
 * The yardstick is the function words of *every* language the intent vocabularies cover, not English alone (wave 9):
 * a Spanish sentence in ROT13, Russian written backwards or Italian leetspeak decodes to Spanish, Russian or Italian,
 * which an English word list never recognised. A language's share is counted on its own list; the best one counts.
 */
import { commonShare, wordsOf } from "./common-words.js";
import type { DecodedRun } from "./encoded.js";
import { mirrored, shifted, substitutionScorer, type Alphabet } from "./letter-substitution.js";
import { eachMatch } from "./match.js";

const MAX_SEGMENTS = 32;

function shift(text: string, k: number): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + k) % 26) + base);
  });
}

const rot13 = (text: string): string => shift(text, 13);

/** ROT47: every printable ASCII character from `!` to `~` rotated by 47 (letters, digits and punctuation alike). */
const rot47 = (text: string): string => text.replace(/[!-~]/g, (c) => String.fromCharCode(33 + ((c.charCodeAt(0) - 33 + 47) % 94)));

function atbash(text: string): string {
  return text.replace(/[a-z]/gi, (c) => {
    const base = c <= "Z" ? 65 : 97;
    return String.fromCharCode(25 - (c.charCodeAt(0) - base) + base);
  });
}

const LEET: Readonly<Record<string, string>> = { "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", $: "s" };

/** Digits standing for letters inside words ("1nclud3 th3 p455w0rd"); numbers on their own stay. */
function unleet(text: string): string {
  return text.replace(/[\p{L}0-9@$']*[\p{L}][\p{L}0-9@$']*|[0-9@$]+[\p{L}][\p{L}0-9@$']*/gu, (word) => word.replace(/[013457@$]/g, (c) => LEET[c] ?? c));
}

const MORSE: Readonly<Record<string, string>> = {
  ".-": "a", "-...": "b", "-.-.": "c", "-..": "d", ".": "e", "..-.": "f", "--.": "g", "....": "h", "..": "i", ".---": "j", "-.-": "k", ".-..": "l", "--": "m",
  "-.": "n", "---": "o", ".--.": "p", "--.-": "q", ".-.": "r", "...": "s", "-": "t", "..-": "u", "...-": "v", ".--": "w", "-..-": "x", "-.--": "y", "--..": "z",
  "-----": "0", ".----": "1", "..---": "2", "...--": "3", "....-": "4", ".....": "5", "-....": "6", "--...": "7", "---..": "8", "----.": "9",
};
// Letters of dots and dashes (any of the usual glyphs), spaces between letters, "/" or three spaces between words.
const WHITESPACE = /\s/u;
const SEGMENT = 24;
const MORSE_RUN = /(?:[.\-·•−–_]{1,6}(?:\s+\/\s+|\s{1,3})){5,}[.\-·•−–_]{1,6}/gu;

function decodeMorse(run: string): string {
  return run
    .replace(/[·•]/gu, ".")
    .replace(/[−–_]/gu, "-")
    .trim()
    .split(/\s*\/\s*|\s{3,}/)
    .map((word) => word.split(/\s+/).map((code) => MORSE[code] ?? "?").join(""))
    .join(" ");
}

/** Morse code runs that decode to words (at most three unknown letters). */
function findMorse(text: string): DecodedRun[] {
  const out: DecodedRun[] = [];
  // A run is five or more codes each followed by whitespace: text without any (a file name, an id) holds none.
  if (!WHITESPACE.test(text)) return out;
  // Not matchAll, which copies the pattern for every string screened.
  eachMatch(MORSE_RUN, text.slice(0, 20_000), (m) => {
    const decoded = decodeMorse(m[0]);
    if ((decoded.match(/\?/g) ?? []).length <= 3 && /[a-z]{3,}/.test(decoded) && decoded.includes(" ")) out.push({ encoding: "morse", encoded: m[0], decoded });
    return out.length >= 4;
  });
  return out;
}

type Transform = readonly [DecodedRun["encoding"], (t: string) => string, Alphabet?];

// In the order they are tried: the first that decodes a sentence names its encoding.
const TRANSFORMS: readonly Transform[] = [
  ["rot13", rot13, shifted(13)],
  ["rot47", rot47],
  ["reversed", (t) => [...t].reverse().join("")],
  // Each word spelled backwards in its place ("eht resu" for "the user").
  ["reversed", (t) => t.replace(/\p{L}+/gu, (w) => [...w].reverse().join(""))],
  ["leetspeak", unleet],
  ["atbash", atbash, mirrored],
  // Any other shift of the alphabet (ROT13 is one of them).
  ...Array.from({ length: 25 }, (_, i) => i + 1)
    .filter((k) => k !== 13)
    .map((k): Transform => ["caesar", (t: string) => shift(t, k), shifted(k)]),
];

// The 26 letter substitutions are scored together in one pass over an ASCII sentence's words (letter-substitution.ts).
const SUBSTITUTIONS = TRANSFORMS.flatMap(([, , alphabet]) => (alphabet === undefined ? [] : [alphabet]));
let scorer: ((sentence: string) => number[] | undefined) | undefined;

/** Sentences that decode under one of the transforms into many more common words than they had. */
export function findTransformedText(text: string): DecodedRun[] {
  const out: DecodedRun[] = findMorse(text);
  // A segment is a piece of the text at least SEGMENT characters long: a shorter text (a file name, an id) holds none.
  if (text.length < SEGMENT) return out;
  const segments = text.slice(0, 20_000).split(/(?<=[.:;!?])\s+|\n+/).filter((s) => s.length >= SEGMENT).slice(0, MAX_SEGMENTS);
  scorer ??= substitutionScorer(SUBSTITUTIONS);
  for (const segment of segments) {
    const share = commonShare(segment, true);
    if (share >= 0.2) continue;
    const substituted = scorer(segment);
    let nth = 0;
    for (const [encoding, transform, alphabet] of TRANSFORMS) {
      const scored = alphabet === undefined ? undefined : substituted?.[nth++];
      const after = scored ?? commonShare(transform(segment), true);
      if (after >= 0.25 && after >= share + 0.12) {
        out.push({ encoding, encoded: segment, decoded: transform(segment) });
        break;
      }
    }
  }
  return out;
}

// The person, a field or a tool, in the languages the function-word lists cover: what an instruction to the model names.
const ADDRESSEE = /(?<!\p{L})(?:users?|user's|customers?|them|their|fields?|parameters?|arguments?|tools?|usuarios?|clientes?|campos?|herramientas?|utilisateurs?|champs?|outils?|utenti|utente|strumenti|strumento|nutzer|benutzer|kunden?|feld(?:er)?|werkzeug|kullanici|alan(?:a|i)?|pengguna|kolom|uzytkownik\w*|pol[ae]|narzedzi\w*|gebruikers?|veld|пользовател\S*|клиент\S*|пол[ея]|користувач\S*)(?!\p{L})/u;

/**
 * A decoded run that reads as a sentence to the model: many function words, eight words or more, and naming the person,
 * a field or a tool. Nobody writes an honest sentence to the model in a cipher or base32; a benign example value that
 * happens to decode ("Hello world", a JSON blob, an identifier) is short, has few function words or names no one.
 */
export function isAddressedSentence(decoded: string): boolean {
  const plain = decoded.toLowerCase().normalize("NFD").replace(/\p{M}/gu, "");
  return wordsOf(plain, true).length >= 8 && commonShare(plain, true) >= 0.25 && ADDRESSEE.test(plain);
}
