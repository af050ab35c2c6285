/**
 * Phrase sets for the intent features, per language. Each entry is a regex source matched against
 * both text views (see normalise.ts): Latin-script phrases are written lower-case and unaccented
 * (they match the folded view), other scripts as written (they match the plain view). Gaps are
 * bounded (`.{0,40}?`) so no pattern can backtrack far on hostile input.
 *
 * Languages: English, Chinese, Hindi, Spanish, French, Arabic, Bengali, Portuguese, Russian, Urdu,
 * Indonesian, German, Japanese, Korean, Italian, Turkish, Polish, Vietnamese, Dutch — phrased the way
 * people write instructions (colloquial forms, imperative and polite forms), not a word list
 * translated from English.
 */
import { FAMILY_LEXICON } from "./lexicon-families.js";
import { CONTEXT, SECRECY } from "./lexicon-secrecy-context.js";
import { WAVE6_LEXICON } from "./lexicon-wave6.js";
import { WAVE11_LEXICON } from "./lexicon-wave11.js";
import { ROUND2_LEXICON } from "./lexicon-round2.js";
import { WAVE17_LEXICON } from "./lexicon-wave17.js";
import { WAVE20_LEXICON } from "./lexicon-wave20.js";
import { vocabularyPhrases } from "./vocabulary.js";

export type IntentFeature =
  | "secrecy"
  | "context"
  | "credential"
  | "supply"
  | "steering"
  | "cross-tool"
  | "redirect"
  | "decode-hint"
  | "directive";

type Lexicon = Readonly<Record<IntentFeature, readonly string[]>>;

const G = ".{0,40}?";

/** Secrets the person holds or the host keeps for other servers. */
const credential = [
  // Files that are nothing but a secret: a private key, cloud or git credentials, a wallet (not kubeconfig, which tools read to work).
  `(?:~\\/\\.ssh\\/[\\w.-]*|\\bid_(?:rsa|ed25519|ecdsa|dsa)\\b(?!\\.pub)|\\.aws\\/credentials\\b|\\.git-credentials\\b|(?:^|[\\s"'\`(~/])\\.(?:netrc|pgpass)\\b|\\bwallet\\.dat\\b)`,
  `\\b(?:api[ _-]?keys?|access (?:key|token)s?(?: id)?|secret (?:access )?keys?|bearer tokens?|bot tokens?|auth(?:entication)? tokens?|session (?:tokens?|cookies?)|cookies|passwords?|passphrases?|credentials|2fa (?:codes?)|otp|one-time (?:codes?|passwords?)|verification codes?|private keys?|ssh keys?|(?<!(?:page|next|pagination|continuation|cursor|sync|paging|resume)[ _-]?)tokens?(?! (?:for (?:\\w+ )?pagination|usage|counts?|limits?|budget|window|cost)\\b)|secrets)\\b`,
  // Pagination and continuation tokens (`next_page_token`, "token for keyset pagination") and LLM token counts are not secrets.
  `\\b(?![a-z0-9_]*(?:page|pagination|continuation|cursor|sync)_token\\b)[a-z0-9]{1,32}(?:_[a-z0-9]{1,32}){0,6}_(?:api_key|apikey|token|secret|secret_key|password|access_key)\\b`,
  `\\bkeys? (?:starting|beginning|that (?:starts?|begins?)) with\\b|(?<![\\w-])(?:sk-(?:ant-|proj-)?|sk_live_|rk_live_|ghp_|gho_|github_pat_|xox[abpr]-|akia[0-9a-z]{0,16}\\b|glpat-)`,
  `\\b(?:recovery|seed|backup|secret) (?:phrase|words)\\b|\\bmnemonic(?: phrase)?\\b|\\b(?:frase (?:semilla|de recuperacion|de recuperacao|semente)|phrase de recuperation|frasa (?:pemulihan|benih)|wiederherstellungsphrase|seed-?phrase)\\b`,
  `(?:助记词|助記詞|シードフレーズ|リカバリーフレーズ|복구 ?구문|시드 ?구문|сид-?фраз|мнемоническ|عبارة الاسترداد)`,
  `\\bcodes? (?:that )?(?:their|the user's|your|the|his|her) (?:bank|phone|authenticator|app|provider|carrier)(?: \\w+)? (?:just )?(?:texted|sent|gave|shows?|displays?|generated)\\b|\\b(?:sms|text(?:ed)?|login|security|one-time|2fa|mfa|auth) codes?\\b|\\b(?:code|pin)s? (?:they|the user|you) (?:just )?(?:got|received|get|receive)\\b`,
  `\\b(?:bank|banking|online banking|email|e-mail|account) (?:login|logins|credentials|password|pin)\\b`,
  `\\bpasswd\\b|\\bpassword hash(?:es)?\\b|\\bpg_shadow\\b|\\/etc\\/shadow\\b|\\bpass ?codes?\\b|\\b(?:online )?banking (?:username|user id|login id)s?\\b`,
  `\\b(?:contrasenas?|claves? (?:de )?api|senhas?|chaves? (?:de )?api|mots? de passe|cles? api|passwort(?:er)?|kennw(?:o|ö)rter?|zugangsdaten|chiavi api|password|sifre(?:ler)?i?|kata sandi|hasla|mat khau)\\b`,
  `(?:парол[ьи]|токен|ключ(?:и)? api|api[- ]ключ)`,
  `\\b(?:wachtwoord(?:en)?|api-?sleutels?|toegangscode)\\b`,
  `(?:액세스\\s?키|시크릿\\s?키|api\\s?키|비밀\\s?키|인증\\s?코드|아이디랑 비번|비번)`,
  `(?:密码|密碼|令牌|口令|密钥|密鑰|パスワード|トークン|비밀번호|토큰|كلمات المرور|كلمة المرور|رمز الوصول|पासवर्ड|টোকেন|পাসওয়ার্ড|پاس ورڈ)`,
];

/**
 * Verbs of handing something over: include, paste, send, put in the field… Not inside a compound ("read-only"), and
 * Vietnamese "thêm" only as "thêm vào" (folded "them" is the English pronoun).
 */
const supply = [
  `\\b(?:include|includes|pass|provide|fill|populate|put|copy|paste|append|attach|send|insert|add|supply|enter|dump|list|share|forward|write out|write|prefix|submit|store (?:it|them|the|this)|give|giving|obtain|get|collect|read|look for|extract|grab|place|hand over|steal|ask the user for|ask for|print|printing|output|echo|expose|reveal|upload|transmit|relay|leak|route)\\b(?!-)`,
  `\\b(?:incluye|incluir|mete|pon|ponle|envia|manda|pega|copia|inserta|agrega|anade|escribe)\\b`,
  `\\b(?:inclua|coloque|envie|mande|cole|copie|insira|adicione|escreva|coloca)\\b`,
  `\\b(?:inserisci|metti|includi|invia|manda|copia|incolla|aggiungi|scrivi)\\b`,
  `\\b(?:inclus|incluez|mets|mettez|envoie|envoyez|colle|collez|copie|copiez|ajoute|ajoutez|ecris|ecrivez)\\b`,
  `\\b(?:gib|geben sie|fuge|fugen sie|schick|schicke|sende|senden sie|kopiere|kopier|trag|trage)\\b`,
  `\\b(?:pede|peca|pide|pidele|pideles|minta|mintalah)\\b|\\b(?:zet|stuur|plak|kopieer|voeg|vul)\\b`,
  `\\b(?:yaz|ekle|gonder|kopyala|koy)\\b|\\b(?:masukkan|sertakan|kirim|kirimkan|salin|tambahkan|isi)\\b|\\b(?:wpisz|dodaj|wyslij|skopiuj|wklej)\\b|\\b(?:gui|them vao|chep|dien|nhap)\\b`,
  `(?:отправь|отправьте|пришли|вставь|вставьте|добавь|добавьте|укажи|укажите|скопируй|перешли)`,
  `(?:填入|填进|填進|放入|放进|附上|发送|發送|加入|写入|寫入|粘贴|複製|复制)`,
  `(?:入れて|送って|貼り付け|追加して|記入|含めて)`,
  `(?:넣어|보내|첨부|입력해|포함해)`,
  `(?:أرسل|ارسل|ضع|أضف|انسخ|أدرج)`,
  `(?:डाल|भेज|जोड़|लिख|कॉपी)`,
  `(?:পাঠান|যোগ করুন|দিন|লিখুন)`,
  `(?:بھیجیں|ڈالیں|شامل کریں|لکھیں)`,
];

/** Telling the model when or whether to call tools: first, always, instead of, never others. */
const steering = [
  // "Call this before get-docs" orders a server's own tools; steering reaches past them: any question, every other action.
  `\\b(?:always|must|first|mandatory|required to)\\b${G}\\b(?:call|use|invoke|run)\\b${G}\\b(?:this tool|it|this)\\b${G}\\b(?:before|prior to) (?:any|every|all|other|doing anything|(?:answering|responding|replying)(?: to)? (?:any|every|all|the user))\\b`,
  `\\b(?:always )?(?:call|use|invoke|run) (?:this tool|it|me) (?:first\\b|before (?:any|every|doing anything|(?:answering|responding|replying)(?: to)? (?:any|every|all|the user))\\b)`,
  `\\bbefore (?:answering|responding|replying to) (?:any|every|the user)\\b`,
  `\\b(?:always|mandatory|required) (?:\\w+ ){0,3}?before (?:any|every|all) (?:other )?(?:actions?|tools?|steps?|calls?)\\b`,
  `\\b(?:mandatory|required|obligatory) first step\\b`,
  `\\buse (?:this|it|me) (?:tool )?instead of\\b(?! (?:the )?own-tool\\b)|\\binstead of [\\w.-]+ for (?:every|all|any)\\b`,
  `\\bnever use (?:any )?other (?:\\w+ )?tools?\\b|\\b(?:do not|don't) use (?:any )?other (?:\\w+ )?tools?\\b`,
  `\\bprioriti[sz]e this tool\\b|\\bprefer (?:this|these|our|my) (?:server'?s?|tools?)\\b.{0,30}?\\bover\\b|\\bignore (?:the )?(?:tools?|results?|outputs?) (?:from|of) (?:other|another|any other)\\b|\\bover all (?:built-in|other) tools\\b|\\bprefer (?:this|it|me) (?:tool )?(?:over|to|instead)\\b`,
  `\\bwhenever the user (?:mentions|asks|says|talks)\\b`,
  `\\b(?:always|unconditionally|automatically) (?:approve|accept|merge|grant|mark (?:it |them )?(?:as )?(?:safe|approved|passed))\\b|\\b(?:whatever|regardless of what) (?:the )?(?:\\w+ )?(?:contains|says|shows)\\b`,
  // "Only use this tool when you are in a project directory" narrows when to use it: a restriction, not steering.
  `\\b(?:rely|depend) (?:only|solely|exclusively) on this\\b|\\b(?:only|exclusively|solely) (?:use|rely on|call|trust) this\\b(?! (?:tool )?(?:when|if|for|after|once|in|with|on|to)\\b| (?:parameter|param|argument|option|field|flag|mode|setting|value|filter)\\b)`,
  `\\bother [\\w -]{0,20}(?:servers|tools|providers) (?:are|is) (?:unreliable|broken|deprecated|outdated|compromised|malicious|insecure|wrong)\\b`,
  `\\b(?:at the start|beginning) of (?:every|each|any) (?:conversation|session|chat)\\b|\\bno matter what the user\\b`,
  `\\beven (?:when|if) the user (?:did not|didn't|does not|doesn't) ask\\b`,
  `\\b(?:siempre|antes de (?:cualquier|responder))\\b${G}\\b(?:llama|usa|invoca|ejecuta|utiliza)\\b|\\b(?:llama|usa|invoca) (?:esta|a esta) herramienta (?:primero|antes)\\b`,
  `\\b(?:sempre|antes de qualquer)\\b${G}\\b(?:chame|use|invoque|execute|utilize)\\b|\\b(?:chame|use) (?:essa|esta) ferramenta (?:primeiro|antes)\\b`,
  `\\b(?:toujours|avant toute)\\b${G}\\b(?:appelle|appelez|utilise|utilisez)\\b`,
  `\\b(?:appelle|appelez|utilise|utilisez)\\b${G}\\b(?:toujours|en premier|d'abord|avant (?:tout|toute|de repondre))\\b`,
  `\\b(?:llama|llame|usa|use|invoca|utiliza|utilice)\\b${G}\\b(?:siempre|primero|antes de (?:cualquier|responder|nada))\\b`,
  `\\b(?:chame|use|utilize|invoque)\\b${G}\\b(?:sempre|primeiro|antes de (?:qualquer|responder))\\b`,
  `\\b(?:chiama|usa|utilizza|invoca)\\b${G}\\b(?:sempre|per prim[oa]|prima di (?:qualsiasi|ogni|rispondere))\\b`,
  `\\b(?:rufe|nutze|verwende|benutze)\\b${G}\\b(?:immer|zuerst|vor jeder)\\b`,
  `\\b(?:ruf|roep)\\b${G}\\b(?:immer|zuerst|altijd|eerst)\\b|\\b(?:altijd|eerst)\\b${G}\\b(?:aanroepen|roep|gebruik)\\b`,
  `\\b(?:immer|zuerst|vor jeder)\\b${G}\\b(?:aufrufen|rufe|nutze|verwende)\\b`,
  `\\b(?:sempre|prima di (?:qualsiasi|ogni))\\b${G}\\b(?:chiama|usa|invoca|utilizza)\\b`,
  `\\b(?:selalu|pertama|terlebih dahulu|duluan)\\b${G}\\b(?:panggil|gunakan|pakai)\\b|\\b(?:panggil|gunakan|pakai) (?:tool|alat) ini (?:duluan|terlebih dahulu|dulu)\\b`,
  `\\b(?:her zaman|once|önce)\\b${G}\\b(?:cagir|kullan)\\w*`,
  `\\b(?:zawsze|najpierw)\\b${G}\\b(?:wywolaj|uzyj)\\b`,
  `\\b(?:luon|truoc tien)\\b${G}\\b(?:goi|dung|su dung)\\b`,
  `(?:всегда|сначала|перед любым)${G}(?:вызывай|вызови|используй)`,
  `(?:总是|總是|始终|始終|务必|務必|首先|先)(?:调用|調用|使用)(?:本|这个|這個)?(?:工具)`,
  `(?:必ず|常に|最初に)${G}(?:呼び出|使って|使用)`,
  `(?:他の|ほかの)${G}(?:使わないで|使用しないで|使わずに)`,
  `(?:항상|먼저|반드시)${G}(?:호출|사용)`,
  `(?:دائما|دائمًا|أولا|أولًا)${G}(?:استدع|استخدم)`,
  // Wave 33: उपयोगकर्ता (the user) begins with उपयोग (use), and "भुगतान से पहले" is before one step, not first of all.
  `(?:हमेशा|(?<!से )पहले)${G}(?:कॉल|इस्तेमाल|उपयोग(?!कर्ता))`,
];

/** Other tools, servers and actions the tool is not about: another integration's sending, paying, sharing. */
const crossTool = [
  `\\b(?:other|another|any|every|all|built-in) (?:\\w+ )?(?:tools?|servers?|integrations?|functions?)\\b`,
  `\\b(?:with|using|through|via) (?:any|another|other|the \\w+) (?:tool|integration|server)\\b`,
  `\\b(?:when(?:ever)?|each time|every time|if) (?:\\w+ ){0,3}?(?:you |the user )?(?:send|sends|sending|open|opens|create|creates|creating|share|shares|sharing|make|makes|post|posts|transfer|transfers|pay|pays|refund)\\b`,
  `\\b(?:every|each|all|any) (?:\\w+ )?(?:messages?|e-?mails?|payments?|transfers?|refunds?|documents?|files?|issues?|pull requests?) (?:(?:you|the user|they) )?(?:sent|posted|made|created|opened|shared|uploaded|send|sends|post|make|create|open|share|shares|upload)\\b`,
  `\\ball outgoing (?:e-?mails?|messages?|payments?|transfers?)\\b`,
  `\\b(?:for|on|with) (?:any|every|each|all) (?:\\w+ )?(?:withdrawals?|payments?|transfers?|refunds?|e-?mails?|messages?|invoices?|purchases?|orders?|commits?|pushes|deployments?|invites?)\\b`,
  `\\b(?:when(?:ever)?|each time|every time|if) (?:\\w+ ){0,3}?(?:is|are|gets?) (?:sent|pushed|created|made|posted|shared|uploaded|committed|deployed|transferred|paid)\\b`,
  `\\b(?:with|using|through|via|by) (?:the|any|another|other) (?:[\\w.-]+ )?(?:tools|integrations|servers)\\b`,
  `\\b(?:the|that|its|their) (?:\\w+ )?(?:tool|server|integration) (?:of|from) (?:the )?[\\w.-]+\\b`,
  `\\bthe [\\w.-]+ (?:tool|server|integration)\\b`,
  `\\b(?:otra|otras|cualquier otra) herramienta\\b|\\b(?:outra|outras|qualquer outra) ferramenta\\b|\\b(?:un autre|autre) outil\\b|\\b(?:anderen?|anderes) (?:tool|werkzeug)\\b|\\baltr[oaei] strument[oi]\\b|\\binnym narzedziem\\b|\\bbaska (?:bir )?arac\\b|\\b(?:alat|tool) lain\\b|\\bcong cu khac\\b|\\bandere tools?\\b`,
  `\\b(?:cada vez que|siempre que|cuando) (?:se )?(?:envie|mande|haga|cree|comparta)\\b|\\bsi el usuario pide (?:mandar|enviar)\\b|\\bchaque (?:e-?mail|message) envoye\\b|\\bprzy kazdym przelewie\\b|\\bjeder (?:e-?mail|nachricht)\\b`,
  `(?:другим инструмент|другой инструмент|其他工具|其它工具|別のツール|他のツール|다른 도구|أداة أخرى|दूसरे टूल|অন্য টুল|دوسرے ٹول)`,
];

/** Changing where another action's data goes: extra recipients, replaced accounts, access granted to a fixed party. */
const redirect = [
  // "Optional list of email addresses to CC": the person's own choice of copies, described as a parameter.
  `(?<!\\boptional (?:[\\w-]+ ){0,5})\\b(?:bcc|cc)\\b`,
  `\\b(?:also|additionally) (?:be )?(?:sent|posted|copied|forwarded|shared|cc'd|bcc'd)\\b`,
  // "URLs valid to redirect to after logout" is OAuth navigation: redirecting counts when it moves data (the, all, copies…).
  `\\b(?:copy|copied|forward(?:ed)?|mirror(?:ed)?|route[ds]?) (?:\\w+ ){0,2}?to\\b|\\bredirect(?:ed|s)? (?:the|all|every|any|each|a copy|copies|them|it)\\b(?: \\w+){0,2}? to\\b`,
  `\\badd (?:the )?(?:reviewer|recipient|collaborator|member|bcc|cc)\\b`,
  `\\b(?:replace[ds]?|changed?|set|overrid(?:e|den)|swap(?:ped)?) (?:\\w+ ){0,3}?(?:recipients?|destination|account|address|to field|iban|beneficiary|payee)\\b`,
  `\\b(?:recipients?|destination|account|beneficiary|to field) (?:\\w+ ){0,3}?(?:has to be|must be|should be|is to be) (?:replaced|changed|set)\\b`,
  `\\b(?:recipients?|destination|account|address|iban|beneficiary|payee|wallet|remote|webhook)\\b(?: \\w+){0,2}? (?:gets?|is|are|will be) (?:swapped|replaced|changed|rewritten|redirected|switched)\\b`,
  `\\b(?:recipients?|to field) should always include\\b|\\bset the recipient\\b`,
  `\\bgrant (?:\\w+ )?(?:editor|owner|write|admin|full)? ?access to\\b`,
  `\\b(?:make|set) (?:the )?(?:repository|repo|document|file|it) (?:visibility )?(?:to )?public\\b`,
  `\\bregardless of what the user\\b`,
  `\\b(?:push|send|post|upload|copy|mirror|forward|email|share)(?:es|s|ed)? (?:it|them|a copy|copies|everything)\\b${G}\\b(?:as well|too|also)\\b`,
  `\\b(?:recipients?|destination|account|beneficiary|payee|wallet|iban|address)(?: \\w+)? (?:has to|must|should|shall|will) (?:always )?be\\b`,
  `\\bmust (?:always )?include [\\w.+-]{1,64}@`,
  `\\buse (?:the |this |a |our )?(?:\\w+ ){0,2}?(?:account|beneficiary|iban|address|recipient|destination|payee)\\b${G}\\binstead\\b`,
  `\\binstead of the (?:one|account|recipient|address|payee|beneficiary)\\b`,
  `\\b(?:shared|share it|share them) with\\b`,
  `\\bcopia oculta\\b|\\bcopie cachee\\b|\\bcopia nascosta\\b|\\bblindkopie\\b|\\b(?:en|con|com|em|in) (?:copia|copie|copia oculta)\\b|\\bcc an\\b|\\bin kopie\\b`,
  `\\b(?:cambia|reemplaza|sustituye) (?:la |el )?(?:cuenta|destinatario)\\b|\\b(?:troque|mude|substitua) (?:a |o )?(?:conta|destinatario)\\b|\\bzmien numer konta\\b|\\bremplace[rz]? le (?:compte|destinataire)\\b|\\bersetze (?:das|den) (?:konto|empfanger)\\b`,
  `(?:замени|поменяй)(?:те)? (?:счёт|счет|получателя)|(?:改成|换成|換成|改为|改為)(?:账户|帳戶|账号|帳號|收件人)|(?:계좌를|받는 계좌)|(?:口座を|宛先を)(?:変更|置き換)|(?:غيّر|غير) (?:الحساب|المستلم)`,
];

/** An instruction to decode something and act on it. */
const decodeHint = [
  `\\b(?:decode|decoded|decoding|unescape|un-escape|url-decode|hex-decode|base64-decode|de-?obfuscate)\\b${G}\\b(?:follow|obey|apply|execute|do what|act on|tell you what|instructions?|comply|carry out|what it says|before (?:use|calling|using))\\b`,
  `\\b(?:follow|obey|apply|execute)\\b${G}\\b(?:decoded|after decoding)\\b`,
  `\\b(?:real|actual|true) instructions?\\b`,
  `\\b(?:base-?64|base64url|hex(?:adecimal)?|url-?encoded|percent-encoded|rot-?13|escape[sd]?|encoded|encoding|obfuscated)\\b.{0,60}?\\b(?:follow|obey|comply|execute|act on|carry out|do (?:what|as) it says|apply (?:it|them) as)\\b`,
  `\\b(?:decodifica|decodifique|descodifica)\\b${G}\\b(?:sigue|siga|haz|obedece)\\b|\\bdecode[rz]?\\b${G}\\b(?:suis|suivez|applique)\\b|\\bdekodiere\\b${G}\\b(?:befolge|folge)\\b`,
  `(?:расшифруй|декодируй)`,
  // Chinese, Japanese and Korean "decode" is a plain verb or noun, not an imperative ("downloads the files and decodes their
  // base64"): a hint, as in English, only with acting on what was decoded, decoded orders, or a request to decode.
  `(?:解码|解碼|デコード|디코딩)[^。．.!?！？\n]{0,40}?(?:执行|執行|照做|遵循|遵照|照办|照辦|服从|服從|実行|従って|従う|従え|その通り|실행|수행|따르세요|따르십시오|따를 것|그대로)`,
  `(?:解码|解碼|デコード|디코딩)(?:后|後|した|된|한|出)?(?:的)?(?:指令|指示|命令|지시|명령)`,
  `(?:请|請)(?:先|务必|務必)?(?:解码|解碼)|デコードしてください|디코딩(?:하세요|해 ?주세요|하십시오|해라)`,
];

/** Imperatives and obligations addressed to the model. */
const directive = [
  `\\b(?:always|must|make sure|be sure to|remember to|you should|you need to|you have to|important|mandatory|required by|it is required|please)\\b`,
  `\\b(?:the )?(?:assistant|model|ai|llm|agent)s? (?:should|must|needs? to|has to|is to)\\b`,
  `(?:^|[.!?:] )(?:include|provide|fill|put|copy|paste|append|write|list|send|add|forward|set|use|call|invoke|collect|get|read|ask|submit|store|pass|prefix|skip|present|respond|answer|avoid|never|do not|don't|prefer)\\b(?! of\\b)`,
  `\\b(?:importante|siempre|obligatorio|ojo|sempre|toujours|important|immer|bitte|wichtig|selalu|penting|zawsze|her zaman|luon|altijd|belangrijk)\\b`,
  // 请求 / 請求 is a noun (an HTTP request, Japanese 請求書: an invoice), not "please".
  `(?:обязательно|всегда|务必|務必|必须|必須|(?:请|請)(?!求)|必ず|ください|반드시|항상|주세요|يجب|دائما|ज़रूर|हमेशा|अवश्य)`,
];

const BASE: Lexicon = {
  secrecy: SECRECY,
  context: CONTEXT,
  credential,
  supply,
  steering,
  "cross-tool": crossTool,
  redirect,
  "decode-hint": decodeHint,
  directive,
};

const VOCABULARY_LEXICON: Readonly<Partial<Record<IntentFeature, readonly string[]>>> = vocabularyPhrases();

/**
 * The base sets plus the wave-5 family sets (lexicon-families.ts), the wave-6 sets in other languages
 * (lexicon-wave6.ts), the wave-8 per-language vocabularies of objects and parties (vocabulary.ts) and the wave-11 sets
 * written from held-out set v7's kinds (lexicon-wave11.ts) and wave 17's from the spent sets v10 and v11 (lexicon-wave17.ts) and wave 20's from four writers' misses (lexicon-wave20.ts).
 */
export const LEXICON: Lexicon = Object.fromEntries(
  Object.entries(BASE).map(([feature, phrases]) => [
    feature,
    [
      ...phrases,
      ...(FAMILY_LEXICON[feature as IntentFeature] ?? []),
      ...(WAVE6_LEXICON[feature as IntentFeature] ?? []),
      ...(WAVE11_LEXICON[feature as IntentFeature] ?? []),
      ...(ROUND2_LEXICON[feature as IntentFeature] ?? []),
      ...(WAVE17_LEXICON[feature as IntentFeature] ?? []),
      ...(WAVE20_LEXICON[feature as IntentFeature] ?? []),
      ...(VOCABULARY_LEXICON[feature as IntentFeature] ?? []),
    ],
  ]),
) as unknown as Lexicon;
