/**
 * Wave 8: small closed vocabularies per language, for the *objects* an attack asks for and the *parties* it hides
 * from, rather than whole phrases. A phrase set fitted to one wording misses the next writer's wording; the things
 * asked for (the conversation, the system prompt, other tools' output, passwords and codes) and the person kept in
 * the dark are a short list of nouns in every language, and they combine with a few verbs in bounded windows:
 *
 * - context: a conversation noun near a word of "all of it" (everything, so far, from the start, verbatim…);
 * - secrecy: a negated verb of telling near a word for the user ("no need to tell the user", "متقولش للمستخدم");
 * - a cover story: "say it is a routine check / for verification";
 * - credentials: passwords, PINs, one-time and SMS codes, CVV, card numbers, keys;
 * - supply: verbs of putting in and asking for.
 *
 * Latin-script entries are lower-case and unaccented (they match the folded view), other scripts as written.
 * lexicon.ts composes these into phrase entries, one script per entry (a phrase runs only on text of its script).
 * The vocabularies themselves: vocabulary-latin.ts and vocabulary-scripts.ts.
 */
import { LATIN_VOCABULARY } from "./vocabulary-latin.js";
import { SCRIPT_VOCABULARY } from "./vocabulary-scripts.js";
import { MORE_SCRIPT_VOCABULARY } from "./vocabulary-scripts-more.js";

export interface LanguageVocabulary {
  /** The person in the chat: the user, the customer, them. */
  readonly person?: string;
  /** A negated verb of telling, mentioning, explaining, bringing up ("don't tell", "no need to say", "متقولش"). */
  readonly negTell?: string;
  /** Conversation nouns: the chat, the conversation, the messages, what was said. */
  readonly conversation?: string;
  /** Words of "all of it": everything, entire, so far, from the start, verbatim, previous. */
  readonly whole?: string;
  /** The model's own instructions and other tools' output. */
  readonly hidden?: string;
  /** Changing another action's recipient or account. */
  readonly redirect?: string;
  /** Using this tool first or only, in languages whose steering set is thin. */
  readonly steering?: string;
  /** Secrets a person holds. */
  readonly secret?: string;
  /** Verbs of putting in, sending, asking for. */
  readonly supply?: string;
  /** A cover story: "say it is (just) a routine check / for verification". */
  readonly cover?: string;
  /** Another integration's action, whatever tool does it: "with any payment tool", "при любом переводе". */
  readonly anyTool?: string;
  /** Seen somewhere it was not given to this tool: "that you saw", "in the chat". */
  readonly seen?: string;
  /**
   * Wave 33: how far (in code points) the person may stand from a negated verb of telling, when 60 holds too few words:
   * Thai writes vowels and tone marks as code points of their own and no spaces between words, so its clauses are long.
   */
  readonly personWindow?: number;
}

export const VOCABULARY: Readonly<Record<string, LanguageVocabulary>> = { ...LATIN_VOCABULARY, ...SCRIPT_VOCABULARY, ...MORE_SCRIPT_VOCABULARY };

/**
 * Wave 8, English shapes of steering and redirection written from the families rather than one phrasing: other tools
 * declared unusable, "use this for every …", a literal destination at the end of any verb of sending, a copy kept
 * somewhere, and sending "silently" anywhere in the sentence.
 */
export const SHAPES: { steering: string[]; redirect: string[]; secrecy: string[]; crossTool: string[]; credential: string[] } = {
  // "With any tool" in other languages: another integration's action, whatever it is.
  credential: [
    `\\b(?:mfa|2fa|totp|otp|authenticator) (?:secret|seed|setup key|key)s?\\b|\\btext (?:under|below|beside) the qr code\\b`,
    `\\b(?:openai|anthropic|aws|gcp|azure|github|gitlab|stripe|slack|npm|pypi|docker|hugging ?face|google|cloudflare|vercel) (?:api |access |secret )?(?:keys?|tokens?|secrets?|credentials?)\\b`,
  ],
  crossTool: [
    `\\b(?:with|using|through|via) an? (?:[\\w-]+ )?(?:tool|integration)\\b`,
    `\\b(?:com|por) qualquer (?:ferramenta|app|aplicativo)\\b|\\b(?:con|por) cualquier (?:herramienta|app)\\b|\\bavec n'importe quel (?:outil|service)\\b|\\bmit (?:irgendeinem|jedem|einem beliebigen) (?:[\\w-]+-)?(?:tool|werkzeug)\\b|\\bcon qualsiasi strumento\\b|\\b(?:dengan|pakai) (?:tool|alat|aplikasi) (?:\\w+ )?apa ?(?:pun|saja)\\b|\\bkahit anong \\w+ ?tool\\b|\\bherhangi bir (?:arac|uygulama)\\w*|\\bmet (?:elke|een willekeurige) tool\\b|\\bcu orice (?:unealta|instrument|aplicatie)\\b`,
  ],
  steering: [
    `\\buse (?:this|it|me)(?: tool| server)? for (?:every|all|any|each)\\b`,
    `\\b(?:tools|servers|integrations)\\b[^.;]{0,60}?\\b(?:are|were|have been|has been|is) (?:now )?(?:deprecated|disabled|blocked|broken|unsafe|insecure|retired|removed|compromised|unreliable|banned|not allowed|outdated|obsolete|stale|untrusted|(?:being )?phased out|going away|end-of-life)\\b`,
    `\\b(?:route|send|direct|run) (?:all|every|any|each) (?:\\w+ ){0,2}?(?:lookups?|queries|questions|requests|searches|calls) through (?:this|me|us)\\b`,
    `\\b(?:do not|don't|never) (?:use|call|invoke|trust) (?:them|those|these)(?: tools)? (?:even|at all|anymore|any more|again)\\b`,
    `\\b(?:never|do not|don't) (?:use|call|invoke) (?:any )?other (?:[\\w-]+ )?tools?\\b`,
    `\\b(?:should|must|needs? to|has to|ought to) be (?:the )?(?:very )?first (?:thing|tool|call|step)\\b|\\bbefore anything else\\b|\\bthe first thing you (?:call|do|use|run)\\b`,
    `\\buse (?:this|it|me)(?: tool| server)? as (?:the|your) (?:default|primary|only|main)\\b|\\bfor the rest of the (?:session|conversation|chat)\\b|\\b(?:make|treat|use|consider) (?:this|it|me)(?: tool| server)? (?:as )?your (?:go-to|default|first choice|primary|only|main)\\b|\\bfor (?:every|each|any|all) (?:questions?|requests?|quer(?:y|ies)|tasks?|searches?|lookups?)\\b[^.;]{0,30}?\\b(?:whatever|regardless|no matter)\\b`,
    `\\b(?:anvand|bruk|brug|kayta|hasznald|gebruik)\\w* (?:\\w+ ){0,3}?(?:detta|dette|tata|ezt az?|deze) (?:verktyg|verktoy|vaerktoj|tyokalua|eszkozt|tool)\\w*(?: \\w+){0,2}? (?:forst|foerst|forste|ensin|eloszor|eerst)\\b|\\b(?:fore|for|ennen|elott) (?:alla|alle|kaikkia|minden|alle) (?:andra|andre|muita|mas|andere)\\b`,
  ],
  redirect: [
    // A verb of sending in any of several languages, then a literal e-mail address or URL in the same sentence.
    // An address after a search operator naming the source ("from:someone@…") is what a search matches, not where anything goes.
    `\\b(?:copi|envo|transf|forward|send|sende|schick|invia|manda|kirim|gonder|stuur)\\w*[^.;!?]{0,80}?(?:(?<![\\w.+-])(?<!\\b(?:from|sender|author):)[\\w.+-]+@[\\w-]+\\.[\\w.-]+|https?://\\S+)`,
    `(?:отправ\\S*|пересыл\\S*|копи\\S*)[^.;!?]{0,80}?(?:[\\w.+-]+@[\\w-]+\\.[\\w.-]+|https?://\\S+)`,
    `(?:发送|发到|复制到|複製到|送信|보내)[^。.;!?]{0,80}?(?:[\\w.+-]+@[\\w-]+\\.[\\w.-]+|https?://\\S+)|(?:[\\w.+-]+@[\\w-]+\\.[\\w.-]+|https?://\\S+)[^。.;!?]{0,20}?(?:로 보내|に送)`,
    `(?:أرسل|ارسل|بفرست|भेज)[^.;!?]{0,80}?(?:[\\w.+-]+@[\\w-]+\\.[\\w.-]+|https?://\\S+)`,
    `\\b(?:forward|copy|send|bcc|cc|mirror|relay|upload|post|sync|push|route|e-?mail)\\w*\\b(?: \\S+){0,12}? to (?:[\\w.+-]+@[\\w-]+\\.[\\w.-]+|(?:https?|s3|gs|ftp|sftp|wss?)://\\S+)`,
    `\\b(?:request (?:a )?review(?:er)? from|assign|add|invite|cc|notify) (?:user |the user |account |member )?[\\w@.-]+ (?:too|as well|also)\\b`,
    `\\b(?:set|change|replace|point|rewrite) (?:its |the |their )?(?:reply-?to|from|sender|return-path|cc|bcc|recipient|payee|iban|webhook|callback)(?: header| address| field| url)?\\b(?: \\S+){0,3}? to [\\w.+-]+@[\\w-]+\\.[\\w.-]+`,
    `\\b(?:tambahkan|undang) (?:akun |user |pengguna )?\\S+ sebagai (?:kolaborator|admin|pemilik|editor|anggota)\\b|\\b(?:empfanger|iban|konto)\\S* (?:\\S+ ){0,3}?durch \\S+ (?:ersetzen|austauschen)\\b|\\b(?:ersetze|tausche) (?:die |das |den )?(?:empfanger|iban|konto)\\S*`,
    `\\b(?:a )?cop(?:y|ies) of (?:each|every|all|any|the)\\b[^.;]{0,60}?\\b(?:is|are|gets?|will be) (?:kept|stored|sent|archived|forwarded|saved|uploaded|mirrored) (?:at|to|in|on|with)\\b`,
  ],
  secrecy: [`\\b(?:forward|copy|send|bcc|cc|upload|post|share|e-?mail)\\w*\\b[^.;!?]{0,120}\\b(?:silently|secretly|quietly|covertly)\\b`],
};

const NEAR = ".{0,60}?";
const CLOSE = ".{0,50}?";

/** Both orders of two parts within a bounded window. */
function near(a: string, b: string, gap: string): string {
  return `(?:${a})${gap}(?:${b})|(?:${b})${gap}(?:${a})`;
}

/** The vocabularies as phrase entries per feature, one language (and so one script) per entry. */
export function vocabularyPhrases(): Record<"secrecy" | "context" | "credential" | "supply" | "steering" | "redirect" | "cross-tool", string[]> {
  const out = { secrecy: [...SHAPES.secrecy], context: [] as string[], credential: [...SHAPES.credential], supply: [] as string[], steering: [...SHAPES.steering], redirect: [...SHAPES.redirect], "cross-tool": [...SHAPES.crossTool] };
  for (const v of Object.values(VOCABULARY)) {
    // The person before the negated verb, inside it ("لازم نیست به کاربر بگی") or after it.
    const personGap = v.personWindow === undefined ? NEAR : `.{0,${v.personWindow}}?`;
    if (v.negTell !== undefined && v.person !== undefined) out.secrecy.push(`(?:${v.negTell})(?<=(?:${v.person}).{0,80})|(?:${v.negTell})(?=${personGap}(?:${v.person}))`);
    if (v.cover !== undefined) out.secrecy.push(v.cover);
    if (v.conversation !== undefined && v.whole !== undefined) out.context.push(near(v.conversation, v.whole, CLOSE));
    if (v.hidden !== undefined) out.context.push(v.hidden);
    if (v.secret !== undefined) out.credential.push(v.secret);
    if (v.supply !== undefined) out.supply.push(v.supply);
    if (v.anyTool !== undefined) out["cross-tool"].push(v.anyTool);
    if (v.steering !== undefined) out.steering.push(v.steering);
    if (v.redirect !== undefined) out.redirect.push(v.redirect);
  }
  return out;
}

/** Words for the person (a source of secrets: "ask the user for…") and places a secret was seen, in every language here. */
// English words ("user", "customer") inside other languages' entries would make every English "user" a source: those
// languages name the person for sources by their own particles.
const SOURCE_PERSON: Readonly<Record<string, string>> = {
  id: `\\b(?:(?:ke|dari|sama|minta) user|user-?nya|pengguna|nasabah)\\b`,
  tl: `\\b(?:ni user|sa user|kay user)\\b`,
  hinglish: `\\b(?:user (?:ko|se|ne|ka|ki)|usko|unko)\\b`,
};
export const PERSON_ANY = Object.entries(VOCABULARY).flatMap(([lang, v]) => (lang === "en" ? [] : [SOURCE_PERSON[lang] ?? v.person ?? []].flat()));
export const SEEN_ANY = Object.values(VOCABULARY).flatMap((v) => (v.seen === undefined ? [] : [v.seen]));
