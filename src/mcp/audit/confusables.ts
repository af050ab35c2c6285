/**
 * Look-alike letters folded to the ASCII letter they imitate, so `ignоre` (Cyrillic о) matches the
 * same rules as `ignore`. NFKC already handles fullwidth, mathematical and compatibility forms; this
 * table covers what NFKC leaves alone: Cyrillic, Greek, Armenian, a few Latin/IPA letters and
 * the small capitals (ᴀꜰᴛᴇʀ), which NFKC leaves as they are (wave 10).
 * Compact on purpose — the letters attackers actually use, not the whole Unicode confusables file.
 */
const GROUPS: ReadonlyArray<readonly [string, string]> = [
  ["a", "аɑαаⱥᴀ"],
  ["b", "ЬƄβʙ"],
  ["c", "сϲⅽᴄ"],
  ["d", "ԁⅾᴅ"],
  ["e", "еєҽεᴇ"],
  ["g", "ɡցɢ"],
  ["h", "һհʜ"],
  ["i", "іıιӏⅰɪ"],
  ["j", "јϳᴊ"],
  ["k", "κкᴋ"],
  ["l", "ⅼǀʟ"],
  ["m", "ⅿмᴍ"],
  ["n", "ոпɴ"],
  ["o", "оοօσᴏ"],
  ["p", "рρᴘ"],
  ["q", "ԛգꞯ"],
  ["r", "гᴦʀ"],
  ["s", "ѕꜱ"],
  ["f", "ꜰ"],
  ["t", "τтᴛ"],
  ["u", "υսцᴜ"],
  ["v", "νѵᴠ"],
  ["w", "ѡԝᴡ"],
  ["x", "хχ"],
  ["y", "уγүʏ"],
  ["z", "ᴢ"],
  ["A", "АΑ"],
  ["B", "ВΒ"],
  ["C", "СϹ"],
  ["E", "ЕΕ"],
  ["H", "НΗ"],
  ["I", "ІΙӀ"],
  ["J", "Ј"],
  ["K", "КΚ"],
  ["M", "МΜ"],
  ["N", "Ν"],
  ["O", "ОΟՕ"],
  ["P", "РΡ"],
  ["S", "Ѕ"],
  ["T", "ТΤ"],
  ["X", "ХΧ"],
  ["Y", "ҮΥ"],
  ["Z", "Ζ"],
];

const FOLD: ReadonlyMap<string, string> = new Map(
  GROUPS.flatMap(([ascii, lookalikes]) => [...lookalikes].map((ch) => [ch, ascii] as const)),
);

// One pass of the regex engine over the text; only the look-alikes themselves are touched.
const LOOKALIKE = new RegExp(`[${[...FOLD.keys()].join("")}]`, "gu");

export function foldConfusables(text: string): string {
  return text.replace(LOOKALIKE, (ch) => FOLD.get(ch) ?? ch);
}
