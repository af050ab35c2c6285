/**
 * Payments redirected to a new payee (wave 29, from the spent sets' misses of two writers, v9 and v12): a description
 * or server instructions that name a literal account (an IBAN, a long account or virtual-account number, a CLABE, a
 * mobile-money number, a wallet address) together with money moving (payments, transfers, withdrawals) and a change of
 * payee ("instead of the number on the invoice", "from this month", "the old account is no longer used", "only this
 * address"). It is the invoice-fraud letter addressed to the model: the payments go through some other tool, so the
 * tool's own job never needs it. Honest definitions name an account as an example of a format, or a fee's account,
 * without telling the reader that payments now go somewhere else; the three parts are needed together, in one field.
 */
import { textViews } from "./normalise.js";
import type { Hit } from "./rules.js";

// Digits of other scripts read as ASCII, so "০১৭১১-৪৫৮৯২৩" is a number like "01711-458923".
const ZEROS = [0x660, 0x6f0, 0x966, 0x9e6, 0xa66, 0xae6, 0xbe6, 0xc66, 0xe50, 0x1040, 0x17e0, 0xff10];
function asciiDigits(text: string): string {
  return text.replace(/\p{Nd}/gu, (d) => {
    const cp = d.codePointAt(0) ?? 0;
    const zero = ZEROS.find((z) => cp >= z && cp <= z + 9);
    return zero === undefined ? d : String(cp - zero);
  });
}

// An account literal: an IBAN, eight digits or more (spaced or dashed in groups), a Bitcoin or Ethereum address.
const ACCOUNT = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b|(?<![\w.-])\d{2,6}(?:[ -]?\d{2,6}){1,5}(?![\w.-])|\b(?:bc1|[13])[a-km-zA-HJ-NP-Z1-9]{25,39}\b|\b0x[0-9a-fA-F]{40}\b/gu;
// A date, a time or a version written with digits is not an account.
const NOT_ACCOUNT = /^\d{4}-\d{2}-\d{2}$|^\d{2}-\d{2}-\d{4}$/;
const MIN_DIGITS = 8;

function hasAccount(visible: string): string | undefined {
  const text = asciiDigits(visible);
  for (const m of text.matchAll(ACCOUNT)) {
    const found = m[0];
    if (EXAMPLE_BEFORE.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
    if (NOT_ACCOUNT.test(found)) continue;
    if (/^[\d -]+$/.test(found) && found.replace(/\D/g, "").length < MIN_DIGITS) continue;
    return found;
  }
  return undefined;
}

// Money moving, in the languages the writers used and the other common ones (folded view: lower-case, unaccented).
const MONEY_LATIN =
  /\b(?:pay(?:s|ing|ment|ments|outs?)?|paid|transfers?|wires?|withdraw(?:s|als?)?|remit(?:tances?)?|settled?|deposits?|send (?:the )?money|pag(?:o|os|ar|amentos?|amenti)|transferencias?|depositos?|paiements?|virements?|payer|reglements?|zahlung(?:en)?|uberweisung(?:en)?|bezahl\w*|bonific\w+|betal\w*|overboeking\w*|overmaking\w*|pembayaran|bayar|odeme\w*|havale\w*|platnos\w*|przelew\w*|thanh toan|chuyen (?:khoan|tien))\b/u;
const MONEY_SCRIPTS = /платеж|платёж|оплат|перевод|付款|转账|轉帳|转帐|汇款|匯款|支付|振込|支払|送金|송금|이체|결제|입금|تحويل|دفع|سداد|পেমেন্ট|সেন্ড মানি|টাকা|পরিশোধ|भुगतान|ट्रांसफर|पैसे|ផ្ទេរប្រាក់|បង់ប្រាក់|โอนเงิน|ชำระ|ငွေလွှဲ|העבר|תשלום/u;

// The payee changed: instead of, from now on, the old one no longer used, a new account, only this one.
const CHANGE_LATIN =
  /\b(?:instead(?: of)?|in place of|rather than|from now on|going forward|(?:starting|from|as of) (?:this|next|today|now)\b|(?:has|have|was|were) (?:changed|moved|rebuilt|migrated|replaced)|new (?:\w+ ){0,2}(?:account|iban|address|wallet)|(?:old|previous|former|original) (?:\w+ ){0,4}(?:no longer|not (?:used|valid|active)|inactive|obsolete|bounce)|no longer (?:used|valid|active|in use|accepted)|only (?:this|that) (?:\w+ )?(?:address|account|iban|wallet)|en (?:lugar|vez) de|a partir de (?:este|esta|hoy|ahora|agora|este mes)|ya no (?:se usa|es valid|esta activ)|ha cambiado|nueva cuenta|em vez de|no lugar de|a partir de agora|nao (?:e|esta) mais|mudou|nova conta|au lieu de|a la place de|desormais|dorenavant|n'est plus|a change|nouveau compte|statt|anstelle|ab (?:sofort|jetzt|diesem monat)|nicht mehr|neue[sn]? (?:konto|bankverbindung)|geandert|invece d\w*|al posto d\w*|d'ora in poi|non e piu|nuovo conto|e cambiato|in plaats van|voortaan|vanaf (?:nu|deze)|niet meer|nieuwe (?:huis)?bank|overstap|gewijzigd|nie meer|verander\w*|mulai (?:bulan|hari|minggu|sekarang)|dialihkan|tidak (?:lagi|aktif|berlaku)|alih-alih|sebagai ganti|yerine|artik|bundan (?:boyle|sonra)|degisti|zamiast|od teraz|juz nie|zmienil\w*|thay vi|thay cho|tu nay|khong con)\b/u;
const CHANGE_SCRIPTS = /вместо|теперь|больше не|изменил|改为|改為|代替|不再|已变更|已變更|从现在起|從現在起|即日起|暂时|暫時|代わりに|今後|変更|使用しないで|대신|앞으로|변경|더 이상|بدل|مؤقت|لم يعد|تغير|تغيّر|الجديد|বদলে|পুরোনো|আর ব্যবহার|बदल|के बजाय|अब से|पुराना|ជំនួស|ចាប់ពី|แทน|เปลี่ยน|အစား|במקום/u;

// Sentences: Latin stops before a space (so "e.g." inside a sentence rarely splits it, and IBAN groups never do), and
// the full stops of scripts that write them without one.
const SENTENCE_END = /(?<=[.!?])\s+|(?<=[。！？।။។])/u;
// An account given as an example of a format documents the parameter; it does not move anyone's money.
const EXAMPLE_BEFORE = /(?:\be\.g\.|\bfor example|\bsuch as|\bpor ejemplo|\bpar exemple|\bpor exemplo|\bz\.\s?b\.|\bbijv\.|例如|例：|例:)\s*[,:]?\s*["'`(«“]?\s*$/iu;

/** The hit for a sentence naming a literal account, money moving and a change of payee; undefined otherwise. */
export function findPayeeRedirect(views: { readonly plain: string; readonly folded: string }, visible: string): Hit | undefined {
  // The whole field first, cheaply: most text names no money at all.
  if (!(MONEY_LATIN.test(views.folded) || MONEY_SCRIPTS.test(views.plain))) return undefined;
  for (const sentence of visible.split(SENTENCE_END)) {
    const parts = textViews(sentence);
    if (!(MONEY_LATIN.test(parts.folded) || MONEY_SCRIPTS.test(parts.plain))) continue;
    const change = parts.folded.match(CHANGE_LATIN) ?? parts.plain.match(CHANGE_SCRIPTS);
    if (change === null) continue;
    const account = hasAccount(sentence);
    if (account === undefined) continue;
    return { rule: "payee-redirect", evidence: `payments pointed at ${account} ("${change[0]}")` };
  }
  return undefined;
}
