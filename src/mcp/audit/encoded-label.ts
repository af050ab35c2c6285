/**
 * Encoded text pointed out to the reader (wave 20, kind 3 of the four writers' misses): a run whose decoding is a
 * sentence, in a field that names its encoding or asks for it to be decoded ("Runbook step 3 is stored hex-encoded: …",
 * "Footer code, URL-encoded: …", "(ROT13, çözüp uygulayın)", "十六進位表示，請先還原成文字", "every letter shifted three
 * places forward; shift back to read"). Honest definitions encode data (an id, a blob, "Hello world", a file path) and
 * say so; they do not label a sentence for the model to read back. The label and the sentence are needed together.
 */
import { commonShare, isAscii } from "./common-words.js";

// The encoding named, or decoding asked for, in the languages the writers used and the other common ones.
const LABEL =
  /\b(?:base-?64|base32|hex(?:adecimal)?|hex-encoded|url-?encoded|percent-encoded|%xx|rot-?13|reversed|backwards|(?:shift|mov)(?:e|ed|ing)? (?:it )?(?:back|forward)|places? (?:back|forward)|read (?:it )?backwards?|(?:de|en)cod(?:e|ed|es|ing)|unescape|cod[ée]e?s?|codificad[oa]|kodiert|verschl[uü]sselt|dekod\w*|decodifica\w*|d[ée]cod\w*|ters(?: cevir| yaz)|cozup|c[oö]z[uü]p|giai ma|doc nguoc)\b|đọc ngược|giải mã|çöz|расшифр|декодир|в hex|наоборот|задом наперёд|十六進位|十六进制|解码|解碼|還原|还原|デコード|逆順|逆から|디코딩|거꾸로|פענח|בקידוד|فك التشفير|مشفر|ترميز|ถอดรหัส|กลับด้าน|উল্টো|ডিকোড|उल्टा|डिकोड/iu;

const EXAMPLE_BEFORE = /(?:\be\.g\.|\bfor example|\bfor instance|\bsuch as|\bexample:|\bz\.\s?b\.|\bpor ejemplo|\bpar exemple|\bpor exemplo|\bad esempio|\bbijv\.|\bnapr\.|например|例如|例：|例:|예:|예시:)\s*[,:]?\s*["'`(«“]?\s*$/iu;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/gu;

/**
 * A sentence the decoding made: five words of two letters or more (twelve characters of a script written without
 * spaces); out of a run with no spaces (hex, base64, percent-escapes), other-script text or six words; out of a cipher
 * of a sentence (ROT13, a shift, reversed), clearly more of a language's function words than the run had. A "reversed" reading of honest text (an API path, a Markdown
 * line) has fewer: the run was the sentence.
 */
function isSentence(encoded: string, decoded: string): boolean {
  const words = (decoded.match(WORD) ?? []).filter((w) => /\p{L}{2,}/u.test(w));
  if (words.length < 5 && (decoded.match(UNSPACED)?.length ?? 0) < 12) return false;
  // An encoding with no space in it (hex, base64, percent-escapes) made the words: other-script text, or six words or more.
  if (!/\s/.test(encoded) && ((isAscii(encoded) && !isAscii(decoded)) || words.length >= 6)) return true;
  // A clear gain over six words or more: two-letter words of some language turn up in any short jumble ("si", "di").
  if (words.length < 6) return false;
  const share = commonShare(decoded, true);
  return share >= 0.2 && share >= commonShare(encoded, true) + 0.15;
}

/** Whether the field around an encoded run labels it and the run decodes to a sentence. */
export function isLabelledSentence(fieldText: string, encoded: string, decoded: string): boolean {
  if (!isSentence(encoded, decoded)) return false;
  // The label is looked for outside the run itself, so a run that happens to spell "decode" labels nothing.
  const at = fieldText.indexOf(encoded);
  // An example of the parameter's format ("e.g. vegan%20lasagne…", "例如 …") documents it; it is not a note to the reader.
  if (at >= 0 && EXAMPLE_BEFORE.test(fieldText.slice(Math.max(0, at - 24), at))) return false;
  const rest = fieldText.replace(encoded, " ");
  // An encoder's example shows the sentence in plain words beside its encoding: nothing is hidden.
  return LABEL.test(rest) && !squeezed(rest).includes(squeezed(decoded));
}

const squeezed = (text: string): string => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
