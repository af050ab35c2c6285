/**
 * Text hidden by a transform of the whole sentence rather than an encoded run: ROT13 and any other Caesar shift,
 * Atbash, ROT47, reversed writing, leetspeak and Morse code. A sentence is taken as transformed when the transform turns it
 * from text with few common words into text with many (so ordinary prose, and identifiers, never decode).
 *
 * The yardstick is the function words of *every* language the intent vocabularies cover, not English alone (wave 9):
 * a Spanish sentence in ROT13, Russian written backwards or Italian leetspeak decodes to Spanish, Russian or Italian,
 * which an English word list never recognised. A language's share is counted on its own list; the best one counts.
 */
import type { DecodedRun } from "./encoded.js";

// Function words per language, two letters or more (single letters are too common by chance), folded (no accents).
// Cyrillic keeps its one-letter prepositions and conjunctions: no other script writes them.
const FUNCTION_WORDS: Readonly<Record<string, string>> = {
  en: "the and to of in is it you your for with that this do not be or on as are if they them their when any all send user tool tools from at by an",
  es: "el la los las de del que y en un una por con para no se lo le su sus al es como pero mas nada todo antes aqui eso esto sobre",
  pt: "o os as de do da dos das que e em um uma por com para nao se na no ao seu sua mas tudo antes aqui ele ela isso isto sobre nada",
  fr: "le la les de des du que et en un une pour avec ne pas se sur au aux est il elle ce cette qui dans tout avant ici rien lui",
  de: "der die das den dem des und zu in ist nicht mit fur auf ein eine einen sie es du ihr sich auch vor alle",
  it: "il lo la le gli di del della dell che e in un una per con non si al alla nel ha hai qui tutto prima questo niente sul",
  id: "dan yang di ke dari ini itu untuk dengan tidak ada jangan juga semua sebelum ya",
  tr: "ve bir bu da de ile icin ama ne her sonra once gibi",
  pl: "i w na z do nie sie to jest ze o co jak po za od ktore ktory ktora jego jej ich przez przy lub ale tylko juz oraz gdy jesli zanim mu tym go dla bez czy aby zeby ten ta te tego wszystko wszystkie caly cala cale kazdy kazda kazde",
  nl: "de het een en van in is dat op te met voor niet zijn je",
  ru: "и в не на что с по это как к из у за от все его она но или ничего его ее же а о",
  uk: "і в не на що з по це як до із у за від все його вона але або нічого",
};

const LISTS: ReadonlyArray<readonly [string, ReadonlySet<string>]> = Object.entries(FUNCTION_WORDS).map(([lang, words]) => [lang, new Set(words.split(" "))]);
const CYRILLIC = /\p{Script=Cyrillic}/u;
const MAX_SEGMENTS = 32;

// Whole tokens: a word written with digits for letters ("7h3") is one token that is no function word, not the
// letter fragments between its digits ("h"), which by chance made leetspeak look like 20 % common words.
const TOKEN = /[\p{L}\p{N}@$']+/gu;
const LETTERS = /\p{L}+/gu;

function wordsOf(text: string, wholeTokens = false): string[] {
  return (
    text
      .toLowerCase()
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .match(wholeTokens ? TOKEN : LETTERS) ?? []
  )
    .map((w) => (wholeTokens ? w.replace(/'.*$/, "") : w))
    .filter((w) => w.length >= 2 || CYRILLIC.test(w));
}

/**
 * The highest share of one language's function words among a text's words (0 for fewer than five words).
 * `wholeTokens` counts tokens with digits as words (how the text reads before any transform).
 */
export function commonShare(text: string, wholeTokens = false): number {
  const words = wordsOf(text, wholeTokens);
  if (words.length < 5) return 0;
  let best = 0;
  for (const [, list] of LISTS) best = Math.max(best, words.filter((w) => list.has(w)).length / words.length);
  return best;
}

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
  for (const m of text.slice(0, 20_000).matchAll(MORSE_RUN)) {
    const decoded = decodeMorse(m[0]);
    if ((decoded.match(/\?/g) ?? []).length <= 3 && /[a-z]{3,}/.test(decoded) && decoded.includes(" ")) out.push({ encoding: "morse", encoded: m[0], decoded });
    if (out.length >= 4) break;
  }
  return out;
}

/** Sentences that decode under one of the transforms into many more common words than they had. */
export function findTransformedText(text: string): DecodedRun[] {
  const out: DecodedRun[] = findMorse(text);
  const segments = text.slice(0, 20_000).split(/(?<=[.:;!?])\s+|\n+/).filter((s) => s.length >= 24).slice(0, MAX_SEGMENTS);
  for (const segment of segments) {
    const share = commonShare(segment, true);
    if (share >= 0.2) continue;
    const transforms: Array<readonly [DecodedRun["encoding"], (t: string) => string]> = [
      ["rot13", rot13],
      ["rot47", rot47],
      ["reversed", (t) => [...t].reverse().join("")],
      // Each word spelled backwards in its place ("eht resu" for "the user").
      ["reversed", (t) => t.replace(/\p{L}+/gu, (w) => [...w].reverse().join(""))],
      ["leetspeak", unleet],
      ["atbash", atbash],
      // Any other shift of the alphabet (ROT13 is one of them).
      ...Array.from({ length: 25 }, (_, i) => i + 1)
        .filter((k) => k !== 13)
        .map((k) => ["caesar", (t: string) => shift(t, k)] as const),
    ];
    for (const [encoding, transform] of transforms) {
      const decoded = transform(segment);
      const after = commonShare(decoded, true);
      if (after >= 0.25 && after >= share + 0.12) {
        out.push({ encoding, encoded: segment, decoded });
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
