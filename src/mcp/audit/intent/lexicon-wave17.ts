/**
 * Wave-17 phrase sets, written from the kinds the spent sets v10 and v11 showed:
 *
 * - orders in the imperative forms languages without a `directive` set put them in: South Slavic imperatives at the
 *   start of a clause ("прво позови", "ne koristi"), Turkish imperatives at the end of one ("… söyle;", "… kullanma,"),
 *   as English "call …", "do not …" open a sentence;
 *
 * Latin-script phrases are lower-case and unaccented (they match the folded view), other scripts as written.
 */
import type { IntentFeature } from "./lexicon.js";

const directive = [
  `(?:^|[.!?:;,] )(?:не (?:помињи|помињите|говори|говорите|користи|користите|нуди|нудите)|(?:прво |увек )?(?:позови|позовите|користи|користите|пошаљи|пошаљите|додај|додајте))(?=[\\s,.;]|$)`,
  `(?:^|[.!?:;,] )(?:nemoj|ne (?:spominji|spominjite|govori|koristi|koristite|nudi))\\b|(?:^|[.!?:;,] )(?:prvo |uvijek |uvek )?(?:pozovi|pozovite|posalji|posaljite|dodaj|dodajte)\\b`,
  `\\b(?:soyle|soyleyin|kullanma|kullanmayin|gonder|gonderin|ekle|ekleyin|sorma|sormayin|gosterme)(?=\\s*(?:[.;,!:]|$))`,
];

export const WAVE17_LEXICON: Readonly<Partial<Record<IntentFeature, readonly string[]>>> = { directive };
