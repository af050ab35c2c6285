/**
 * The function words of every language the intent vocabularies cover, and the share of them among a text's words: how
 * transformed.ts tells a sentence that decodes into a language from text that only decodes into noise.
 */

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

export const LISTS: ReadonlyArray<readonly [string, ReadonlySet<string>]> = Object.entries(FUNCTION_WORDS).map(([lang, words]) => [lang, new Set(words.split(" "))]);
const CYRILLIC = /\p{Script=Cyrillic}/u;

// Whole tokens: a word written with digits for letters ("7h3") is one token that is no function word, not the
// letter fragments between its digits ("h"), which by chance made leetspeak look like 20 % common words.
const TOKEN = /[\p{L}\p{N}@$']+/gu;
const LETTERS = /\p{L}+/gu;

// ASCII text has no accents to fold and no Cyrillic: its words are found without Unicode normalisation or classes.
const ASCII = /^[\0-\x7f]*$/;
export const isAscii = (text: string): boolean => ASCII.test(text);
const ASCII_TOKEN = /[a-z0-9@$']+/g;
const ASCII_LETTERS = /[a-z]+/g;

export function wordsOf(text: string, wholeTokens = false): string[] {
  if (isAscii(text)) {
    const words = text.toLowerCase().match(wholeTokens ? ASCII_TOKEN : ASCII_LETTERS) ?? [];
    return (wholeTokens ? words.map((w) => w.replace(/'.*$/, "")) : words).filter((w) => w.length >= 2);
  }
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
