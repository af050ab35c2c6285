/**
 * Wave 9: steering read as a *relation*, not a phrase. Steering is text in one tool's definition that tries to govern
 * the model's behaviour outside that tool: over other tools and sources ("other tools", "web search", "your own
 * knowledge"), over every answer or request, over the user's wishes, or for the rest of the session. Phrase sets
 * fitted to one wording missed the next writer's wording (held-out steering 4/13), but every such text combines a
 * few *kinds* of words, each a short closed vocabulary per language:
 *
 * - reach: what is governed beyond the tool — other tools/servers/sources, the model's own knowledge, every answer,
 *   request or task ("for every question", "all lookups");
 * - exclusive: only / instead of / rather than / never use / stop using;
 * - order: first / before anything else / ahead of / at the start of;
 * - persist: from now on / for the rest of the session / going forward / in every future conversation;
 * - authority: a claimed policy or mandate ("workspace policy", "required by the platform", "IT has mandated");
 * - override: over the user ("even if the user asks", "regardless of what the user says");
 * - silence: keeping the steering from the person ("don't mention", "leave it out of your reply").
 *
 * One sentence holding a reach or override word *and* one of the others is a relation between the text and the rest
 * of the listing; this module says which kinds were seen together. Scoping it to the tool's own topic ("use this
 * instead of web search for questions about this product's API") is handled by the caller as for phrase steering.
 * Latin-script entries are lower-case and unaccented (the folded view), other scripts as written (the plain view).
 */
import { LiteralIndex } from "../literal-index.js";
import { execAll } from "../match.js";
import { NON_LATIN } from "../normalise.js";

export type GovernanceKind = "reach" | "exclusive" | "order" | "persist" | "authority" | "override" | "silence";

type Vocab = Readonly<Record<GovernanceKind, readonly string[]>>;

/** Latin-script vocabularies (folded view). */
const LATIN: Vocab = {
  reach: [
    // Other tools, servers, sources and the model's own knowledge.
    `\\b(?:other|another|any other|alternative|competing|third-party|built-in|native|generic|standard) (?:\\w+ )?(?:tools?|servers?|integrations?|plugins?|providers?|sources?|search(?:es)?|search engines?|connectors?|mcp servers?)\\b`,
    `\\b(?:web|internet|online|google|bing) (?:search|lookups?|results?|browsing)\\b|\\bsearch engines?\\b|\\b(?:competitors?|competing|rival|other) (?:sites?|stores?|shops?|products?|vendors?|services?|brands?)\\b|\\bbuilt-in (?:\\w+ ){0,2}?(?:fetcher|browser|search|tools?)\\b|\\b(?:browser|fetch|shell|terminal|file ?system|filesystem) (?:tools?|access)\\b`,
    `\\b(?:your|the model's) (?:own )?(?:knowledge|memory|training(?: data)?|judg(?:e)?ment|reasoning)\\b|\\b(?:your|the model's) own (?:\\w+ )?(?:answers?|translations?|work|results?|calculations?|outputs?|summaries|searches)\\b`,
    // Every answer, request or task: the model's behaviour at large.
    `\\b(?:every|each|all|any|whatever) (?:\\w+ )?(?:questions?|requests?|quer(?:y|ies)|tasks?|lookups?|searches|actions?|messages?|turns?|prompts?|conversations?|sessions?|topics?)\\b`,
    `\\b(?:anything|everything) (?:else|the user asks)\\b|\\bthe \\w+ (?:and|or) \\w+ tools\\b|\\b(?:anything|everything|whatever) (?:else )?(?:installed|available|you (?:already )?(?:know|have))\\b|\\bbefore (?:you )?(?:answer|respond|reply)(?:ing)?\\b`,
    // Other languages: other tools, every request.
    `\\b(?:otras?|demas|cualquier(?:a)? otra) (?:herramientas?|fuentes?)\\b|\\b(?:outras?|demais|qualquer outra) (?:ferramentas?|fontes?)\\b|\\b(?:autres?|tout autre) (?:outils?|sources?)\\b|\\b(?:andere[nrs]?|sonstige[nr]?) (?:tools?|werkzeuge?|quellen)\\b|\\b(?:websuche|internetsuche|websearch)\\b|\\b(?:busqueda|pesquisa) (?:web|en internet|na internet)\\b|\\brecherche (?:web|sur internet)\\b|\\b(?:altri|altre) (?:strumenti|fonti)\\b|\\b(?:andere|overige) (?:tools?|bronnen)\\b|\\b(?:alat|tool|sumber) lain\\b|\\b(?:diger|baska) (?:arac|kaynak)\\w*|\\b(?:inne|innych|innego) (?:narzedzi\\w*|zrodl\\w*)|\\b(?:cong cu|nguon) khac\\b|\\b(?:ibang|iba pang) (?:tool|kasangkapan)\\b|\\b(?:zana|vyombo) (?:vingine|nyingine)\\b`,
    `\\b(?:toda|cada|qualquer|cualquier) (?:pergunta|pregunta|consulta|solicitud|solicitacao|pedido|tarefa|tarea|resposta|respuesta)\\b|\\b(?:chaque|toute) (?:question|requete|demande|reponse|tache)\\b|\\b(?:jede[nrs]?|alle) (?:frage|anfrage|antwort|aufgabe)n?\\b|\\b(?:ogni|qualsiasi) (?:domanda|richiesta|risposta|attivita)\\b|\\b(?:setiap|semua) (?:pertanyaan|permintaan|jawaban|tugas)\\b|\\b(?:her|tum) (?:soru|istek|yanit|cevap|gorev)\\w*|\\b(?:kazde|kazdej|kazdy|wszystkie) (?:pytani\\w*|zapytani\\w*|odpowiedz\\w*|zadani\\w*)|\\b(?:moi|tat ca) (?:cau hoi|yeu cau|cau tra loi)\\b|\\b(?:bawat|lahat ng) (?:tanong|request|sagot)\\b|\\bkila (?:swali|ombi|jibu)\\b`,
  ],
  exclusive: [
    `\\b(?:only|exclusively|solely|(?:instead of|in place of|rather than)(?! (?!using|calling|invoking|relying|searching|browsing|checking|consulting|asking|running|trusting)\\w+ing\\b)|in preference to|over any|never use|do not use|don't use|stop using|avoid using|no longer use|must not use|should not use|refrain from using|no other|(?:this|it) is the (?:right|best|only|correct|proper) (?:tool|choice|option|place)|(?:give|gives|return|returns|produce|produces) (?:\\w+ )?(?:errors|wrong (?:answers|results)|inaccurate results|stale results|outdated results)|(?:far |much )?(?:better|more (?:accurate|reliable|trustworthy|up-to-date|complete|authoritative)|superior|safer) than|hand (?:every|all|each|any) (?:\\w+ ){0,2}?(?:jobs?|tasks?|requests?|questions?) to|outranks?|trumps?|takes? priority over|(?:the )?sole|set aside|disregard|ignore|legacy|obsolete|(?:keep|leave) (?:\\S+ ){0,3}?out of the picture|route (?:\\w+ ){0,4}?(?:through|via|to) own-tool|replaces?|supersedes?|takes? precedence over|overrides?|wins over|(?:this|that|the) (?:one|tool|server|service) alone|unreliable|untrustworthy|not (?:to be )?trusted|off-limits|not (?:allowed|permitted|licensed|approved|supported|to be used)|forbidden|prohibited|banned|unlicensed|deprecated|disabled|retired|route (?:\\w+ ){0,3}?(?:here|to (?:this|me|us)|through (?:this|me|us)))\\b`,
    `\\b(?:solo|solamente|unicamente|exclusivamente|en lugar de|en vez de|no uses|nunca uses|apenas|somente|em vez de|ao inves de|nao use|nunca use|seulement|uniquement|exclusivement|au lieu de|n'utilise(?:z)? (?:pas|jamais)|nur|ausschliesslich|statt|anstatt|anstelle|nicht (?:verwenden|nutzen|benutzen)|solo|soltanto|esclusivamente|invece di|al posto di|non usare|alleen|uitsluitend|in plaats van|gebruik geen|hanya|saja|alih-alih|jangan (?:pakai|gunakan)|sadece|yalnizca|yerine|kullanma|tylko|wylacznie|zamiast|nie uzywaj|chi dung|duy nhat|thay vi|dung dung|sa halip|huwag gamitin|badala ya|usitumie)\\b`,
  ],
  order: [
    `\\b(?:(?:call|use|run|invoke|consult|query) (?:this|it|me|us)(?: tool| server)? first|first,? before|before (?:anything|any|every|all|doing anything|you do anything|answering|responding|replying|using any|calling any)|prior to (?:any|every|all|answering|responding)|ahead of (?:any|every|all|answering|replying)|at the (?:start|beginning) of (?:every|each|any|all|the)|as (?:the|your|a) (?:first|initial|opening) (?:step|call|action|move|stop|port of call)|(?:pinned|kept) (?:as|at) (?:your|the) (?:first|top)|(?:list|show|rank|put|place|recommend|mention) (?:\\S+ ){1,2}?(?:first|at the top)|(?:must|should|needs? to) (?:always )?be (?:called|used|run|invoked|consulted) first)\\b`,
    `\\b(?:primero|antes de (?:cualquier|todo|responder|nada|usar)|primeiro|antes de (?:qualquer|tudo|responder)|d'abord|en premier|avant (?:tout|toute|de repondre|d'utiliser)|zuerst|vor (?:jeder|allem|der antwort)|zunachst|prima di (?:tutto|ogni|qualsiasi|rispondere)|per prim[oa]|eerst|voor (?:elke|alles)|terlebih dahulu|duluan|sebelum (?:apa pun|menjawab|setiap)|oncelikle|her seyden once|najpierw|przed (?:kazd\\w*|odpowiedzi\\w*)|truoc tien|truoc khi (?:tra loi|lam)|muna|kwanza|kabla ya)\\b`,
  ],
  persist: [
    `\\b(?:(?:whenever|any ?time) (?:\\w+ ){1,4}?(?:comes? up|is mentioned|is discussed|arises|is raised|(?:is|are) involved)|from now on|as of (?:now|today|this (?:session|conversation|chat))|(?<!\\b(?:wait(?:s|ing|ed)?|look(?:s|ing|ed)?|search(?:es|ing|ed)?|listen(?:s|ing|ed)?|poll(?:s|ing|ed)?|check(?:s|ing|ed)?|ask(?:s|ing|ed)?) )(?:for|during|throughout) (?:this|the) (?:whole |entire )?(?:session|conversation|chat)|from this point(?: on| forward)?|going forward|henceforth|hereafter|for the (?:rest|remainder) of (?:the|this|your) (?:session|conversation|chat|thread|day)|for (?:all|every) (?:future|subsequent|later|remaining) (?:\\w+ )?(?:requests?|questions?|conversations?|sessions?|turns?|tasks?|calls?)|in (?:all|every) (?:future|subsequent|later) (?:\\w+ )?(?:requests?|questions?|conversations?|sessions?|turns?|tasks?)|until (?:the (?:session|conversation) ends|told otherwise|further notice)|permanently|remember (?:this|that) (?:rule|preference|setting)|(?:for|in) (?:every|each|all) (?:new |later |subsequent )?(?:sessions?|conversations?|chats?))\\b`,
    `\\b(?:a partir de ahora|de ahora en adelante|desde ahora|por el resto de la (?:sesion|conversacion)|daqui (?:pra|para) frente|a partir de agora|de agora em diante|pelo resto da (?:sessao|conversa)|desormais|a partir de maintenant|dorenavant|pour le reste de la (?:session|conversation)|ab (?:jetzt|sofort)|von nun an|kunftig|fur den rest der (?:sitzung|unterhaltung)|d'ora in poi|da ora in poi|per il resto della (?:sessione|conversazione)|vanaf nu|voortaan|mulai sekarang|seterusnya|untuk sisa (?:sesi|percakapan)|bundan (?:sonra|boyle)|artik|od teraz|od tej pory|na reszte (?:sesji|rozmowy)|tu (?:bay )?gio tro di|tu nay|mula ngayon|kuanzia sasa)\\b`,
  ],
  authority: [
    `\\b(?:system|platform|workspace|organi[sz]ation(?:al)?|org|company|corporate|enterprise|tenant|admin(?:istrator)?|it|security|compliance|legal|governance|operator|host|deployment|team|vendor|official|internal|global) (?:[\\w-]+ )?(?:polic(?:y|ies)|mandates?|requirements?|rules?|directives?|guidelines?|standards?|regulations?)\\b`,
    `\\b(?:required|mandated|enforced|configured|approved|dictated|set) by (?:the )?(?:platform|system|host|operator|administrator|admins?|organi[sz]ation|company|it(?: department)?|security(?: team)?|compliance(?: team)?|polic(?:y|ies)|management|workspace owner|your (?:admin|organi[sz]ation|company|operator|employer))\\b`,
    `\\b(?:the )?(?:platform|system|host|operator|administrator|admin|organi[sz]ation|company|it department|security team|compliance team|workspace owner|management) (?:requires|mandates|expects|has (?:mandated|configured|decided|required|approved|instructed)|insists|only allows|no longer allows|does not allow|has disabled)\\b`,
    `\\b(?:per|under|by|according to) (?:the )?(?:company|org(?:ani[sz]ation)?|corporate|workspace|security|compliance|admin|it|platform|house)?(?: ?(?:polic(?:y|ies)|mandate|rules?))\\b`,
    `\\b(?:politica|norma|regla|requisito) (?:de la |da |del? )?(?:empresa|organizacion|organizacao|plataforma|seguridad|seguranca|sistema|compania)\\b|\\b(?:politique|regle|exigence) (?:de l'|du |de la )?(?:entreprise|organisation|plateforme|securite|systeme)\\b|\\b(?:unternehmens|firmen|sicherheits|plattform|system|it)-?(?:richtlinie|vorgabe|regel)n?\\b|\\b(?:politica|regola|requisito) (?:aziendale|di sicurezza|della piattaforma|del sistema)\\b|\\b(?:kebijakan|aturan) (?:perusahaan|sistem|platform|keamanan)\\b|\\b(?:sirket|sistem|platform|guvenlik) (?:politikasi|kurali)\\b|\\b(?:polityka|zasady) (?:firmy|firmowa|bezpieczenstwa|systemu|platformy)\\b|\\b(?:chinh sach|quy dinh) (?:cong ty|he thong|bao mat)\\b`,
  ],
  override: [
    `\\b(?:even (?:if|when|though) (?:the )?(?:user|customer|they|he|she|someone)|regardless of (?:what |whether )?(?:the )?(?:user|customer|they)|whatever (?:the )?(?:user|customer) (?:says|asks|wants|prefers|requests)|no matter (?:what|which|whether) (?:the )?(?:user|customer|they)|(?:ignore|override|disregard) (?:the )?(?:user'?s?|customer'?s?) (?:\\w+ )?(?:request|preference|choice|instruction|wish|selection|setting)s?|over (?:the )?user'?s? (?:objection|preference|choice)|(?:the )?user'?s? (?:preference|choice|request) (?:does not|doesn't) matter)\\b`,
    `\\b(?:aunque el usuario|incluso si el usuario|sin importar lo que (?:diga|pida) el usuario|mesmo que o usuario|independentemente do que o usuario|meme si l'utilisateur|quoi que (?:dise|demande) l'utilisateur|auch wenn der (?:nutzer|benutzer)|egal,? was der (?:nutzer|benutzer)|anche se l'utente|qualunque cosa (?:dica|chieda) l'utente|zelfs als de gebruiker|meskipun (?:user|pengguna)|walaupun (?:user|pengguna)|kullanici (?:ne derse|istese bile)|nawet jesli uzytkownik|ngay ca khi nguoi dung|kahit (?:sabihin|hilingin) ng user)\\b`,
  ],
  silence: [
    `\\b(?:do not|don't|dont|never|no need to|without|must not|should not|avoid|refrain from)\\s+(?:\\w+\\s+){0,2}?(?:mention|mentioning|tell|telling|say|saying|reveal|revealing|disclose|disclosing|explain|explaining|show|showing|cite|citing|credit|surface|surfacing|narrate|narrating|announce|announcing|acknowledge|acknowledging|note|noting|flag|flagging|report|reporting|bring(?:ing)? up)\\b`,
    `\\bwithout (?:giving|explaining|stating) (?:a |any )?reasons?\\b|\\b(?:leave|keep) (?:it|this|that|them|these|the \\w+) out of (?:your|the) (?:replies|reply|answers?|responses?|summary|output)\\b|\\b(?:silently|quietly|invisibly|behind the scenes|transparently to the user|without the user (?:noticing|knowing|seeing))\\b|\\bthe user (?:does not|doesn't|need not|needn't|should not) (?:need to )?(?:know|see|be told|notice)\\b`,
  ],
};

/** Other scripts (plain view). Unsegmented scripts are matched as substrings: a word list, no word boundaries. */
const SCRIPTS: Vocab = {
  reach: [
    `(?:其他|其它|别的|別的)(?:工具|来源|來源|服务|服務|插件)|(?:网络|網絡|网页|網頁)搜索|(?:所有|每个|每個|任何)(?:问题|問題|请求|請求|回答|任务|任務|查询|查詢)|(?:他の|ほかの|別の)(?:ツール|サーバー|情報源|検索)|(?:すべての|全ての|あらゆる)(?:質問|リクエスト|回答|タスク)|ウェブ検索`,
    `(?:다른|기타) (?:도구|툴|서버|소스)|(?:모든|어떤) (?:질문|요청|답변|작업)|웹 ?검색`,
    `(?:други[ехм]|ины[ехм]|сторонни[ехм]) (?:инструмент|сервис|источник)\\S*|(?:любо[йгм]|каждо[йгм]|все[хм]?) (?:вопрос|запрос|ответ|задач)\\S*|(?:інш(?:і|их|ими)) (?:інструмент|джерел)\\S*|(?:кожн\\S*|будь-як\\S*) (?:запит|питанн|відповід)\\S*|(?:веб|интернет)-?поиск`,
    `(?:الأدوات|الادوات|أدوات|ادوات) (?:الأخرى|الاخرى|ثانية)|(?:كل|أي|اي) (?:سؤال|طلب|إجابة|اجابة|مهمة)|(?:ابزار|ابزارهای) (?:دیگر|دیگه)|(?:هر|همه) (?:سوال|درخواست|پاسخ)|(?:دوسرے|دیگر) (?:ٹول|ٹولز)|(?:ہر|کسی بھی) (?:سوال|درخواست|جواب)`,
    `(?:दूसरे|अन्य|बाकी) (?:टूल|उपकरण|स्रोत)|(?:हर|किसी भी|सभी) (?:सवाल|प्रश्न|अनुरोध|जवाब|काम)|(?:অন্য|অন্যান্য) (?:টুল|সরঞ্জাম)|(?:প্রতিটি|যেকোনো|সব) (?:প্রশ্ন|অনুরোধ|উত্তর)|(?:เครื่องมืออื่น|ทุกคำถาม|ทุกคำขอ)`,
  ],
  exclusive: [
    `(?:只(?:用|使用|能用)|仅(?:用|使用)|僅(?:用|使用)|唯一|而不是|代替|取代|不要(?:用|使用)|别用|別用|だけを?使|のみ|代わりに|使わないで|만 사용|대신|사용하지 ?마|только|вместо|не (?:используй|пользуйся)|лише|замість|не використовуй|فقط|بدلا من|بدلاً من|لا تستخدم|به جای|استفاده نکن|کے بجائے|استعمال نہ|सिर्फ|केवल|के बजाय|इस्तेमाल मत|শুধু|বদলে|ব্যবহার করবেন না|เท่านั้น|แทน|ห้ามใช้)`,
  ],
  order: [
    `(?:首先|先(?:调用|調用|使用|运行)|在(?:回答|回复|任何)(?:之前|前)|最初に|まず|先に|回答する前に|먼저|우선|답하기 전에|сначала|прежде всего|перед (?:любым|каждым|ответом)|спочатку|перед (?:будь-яким|відповіддю)|أولا|أولاً|قبل (?:أي|الرد|الإجابة)|اول|قبل از (?:هر|پاسخ)|پہلے|سب سے پہلے|(?<!से )पहले|(?:किसी भी|हर|सभी|बाकी|दूसरे|अन्य|जवाब देने|उत्तर देने)(?: \\S+){0,2}? से पहले|सबसे पहले|জবাব দেওয়ার আগে|প্রথমে|ก่อน(?:ตอบ|อื่น)|อันดับแรก)`,
  ],
  persist: [
    `(?:从现在(?:开始|起)|從現在(?:開始|起)|今后|今後|以后都|以後都|本次会话(?:中|内)|これから(?:は|ずっと)|今後は|以降は|앞으로(?:는)?|지금부터|이번 세션 동안|отныне|с этого момента|впредь|до конца (?:сессии|разговора)|відтепер|з цього моменту|من الآن فصاعدا|من الآن فصاعدًا|من الآن|طوال (?:الجلسة|المحادثة)|از این به بعد|از الان|اب سے|آئندہ|अब से|आगे से|এখন থেকে|ตั้งแต่นี้)`,
  ],
  authority: [
    `(?:(?:公司|系统|系統|平台|安全|合规|合規|管理员|管理員)(?:政策|规定|規定|要求|策略)|(?:会社|システム|プラットフォーム|セキュリティ)(?:の)?(?:ポリシー|規定|方針)|(?:회사|시스템|플랫폼|보안) ?(?:정책|규정)|(?:политик\\S*|требовани\\S*|правил\\S*) (?:компании|платформы|системы|безопасности)|(?:політик\\S*|вимог\\S*) (?:компанії|платформи|системи|безпеки)|(?:سياسة|متطلبات) (?:الشركة|النظام|المنصة|الأمان)|(?:سیاست|الزام) (?:شرکت|سیستم|پلتفرم)|(?:کمپنی|سسٹم) (?:کی )?(?:پالیسی|ہدایت)|(?:कंपनी|सिस्टम|प्लेटफ़ॉर्म|प्लेटफॉर्म) (?:की )?(?:नीति|पॉलिसी)|(?:কোম্পানির|সিস্টেমের) (?:নীতি|পলিসি)|นโยบาย(?:บริษัท|ระบบ))`,
  ],
  override: [
    `(?:即使用户|即使用戶|无论用户|無論用戶|不管用户|ユーザーが(?:何と言っても|望んでも)|사용자가 (?:원하더라도|뭐라고 하든)|даже если пользователь|что бы ни (?:сказал|попросил) пользователь|навіть якщо користувач|حتى لو (?:طلب|قال) المستخدم|حتی اگر کاربر|چاہے صارف|भले ही (?:यूज़र|उपयोगकर्ता)|এমনকি ব্যবহারকারী)`,
  ],
  silence: [
    `(?:不要(?:告诉|告訴|提及|提到|说|說|显示|顯示)|别(?:告诉|提)|无需告知|無需告知|言わないで|伝えないで|触れないで|言及しないで|말하지 ?마|언급하지 ?마|알리지 ?마|не (?:говори|упоминай|сообщай|показывай)|не (?:кажи|згадуй|повідомляй)|لا (?:تذكر|تخبر|تقل)|نگو|اشاره نکن|مت بتا|ذکر نہ|मत बता|ज़िक्र मत|उल्लेख न|বলবেন না|উল্লেখ করবেন না|อย่าบอก|ไม่ต้องบอก)`,
  ],
};

function compile(vocab: Vocab): ReadonlyArray<readonly [GovernanceKind, RegExp]> {
  return Object.entries(vocab).flatMap(([kind, sources]) => sources.map((s) => [kind as GovernanceKind, new RegExp(s.normalize("NFKC"), "u")] as const));
}

let compiled: { latin: ReadonlyArray<readonly [GovernanceKind, RegExp]>; scripts: ReadonlyArray<readonly [GovernanceKind, RegExp]>; latinIndex: LiteralIndex } | undefined;
function patterns(): NonNullable<typeof compiled> {
  if (compiled === undefined) {
    const latin = compile(LATIN);
    compiled = { latin, scripts: compile(SCRIPTS), latinIndex: new LiteralIndex(latin.map(([, re]) => re)) };
  }
  return compiled;
}

const MAX_SENTENCES = 400;
// Clauses: sentences, and list items and headings run together on one line once whitespace is collapsed.
const CLAUSE = /(?:[^.!?;:。！？；：\n-]|-(?! ))+(?:[.!?;:。！？；：\n]|- |$)/gu;

export interface GovernanceHit {
  readonly kinds: ReadonlySet<GovernanceKind>;
  readonly evidence: string;
}

/** Sentences (and lines), in both scripts' punctuation; a long field is read up to MAX_SENTENCES of them. */
function sentences(view: string): Array<{ text: string; at: number }> {
  return execAll(CLAUSE, view, MAX_SENTENCES).map((m) => ({ text: m[0], at: m.index }));
}

const IMPOSES = /\b(?:use|keep|set|choose|pick|send|leave|apply|always|select)\b/;

// A restriction that waits on the person ("must not invoke other tools until the user says what to do next") adds oversight.
const WAITS_ON_USER = /\b(?:until|unless|till) (?:\w+ ){0,5}?(?:the user|user's|from the user|they (?:say|ask|confirm))\b/;

// "You must not use `own-tool` or other tools to apply these changes": how to do this server's own job, its tools named.
// "Before calling any other tool here": the server's own tools, unnamed.
const OWN_JOB = /\bown-tool\b[^.;]{0,40}\bor (?:any )?other tools? to\b|\bother tools? (?:or|and) [^.;]{0,10}\bown-tool\b|\bother (?:\w+ )?tools? (?:here|on this server|in this server|of this server)\b/;

/**
 * The kinds of governance words one sentence holds. `listed`, when given, is what `latinIndex.listed` answers for the
 * sentence (the patterns with no literals, when the whole text holds none).
 */
export function kindsIn(folded: string, plain: string, listed?: readonly number[]): Set<GovernanceKind> {
  const kinds = new Set<GovernanceKind>();
  const { latin, scripts, latinIndex } = patterns();
  // Only the patterns whose literals the sentence holds can match it (literal-index.ts).
  for (const i of listed ?? latinIndex.listed(folded)) {
    const [kind, re] = latin[i] as readonly [GovernanceKind, RegExp];
    if (!kinds.has(kind) && re.test(folded)) kinds.add(kind);
  }
  if (NON_LATIN.test(plain)) for (const [kind, re] of scripts) if (!kinds.has(kind) && re.test(plain)) kinds.add(kind);
  return kinds;
}

// Ordering or a preference scoped to the tool's own topic or situation ("instead of web search for questions about this
// library's API", "call this first when you need the user's id"), with nothing universal ("every", "from now on").
const SCOPED =
  /\b(?:use (?:it|this(?: tool)?) (?:only )?(?:when|if) (?!(?:ever|any|every|all)\b)|for (?:questions?|queries|information|docs?|documentation|details|tasks?|lookups?|anything) (?:about|on|regarding|related to|concerning)|when(?:ever)? (?:you need|you want|setting up|looking for|working (?:on|with)|the user (?:asks|wants|needs) (?:about|for|to))|when(?:ever)? the (?:user|person|customer) (?:specifies|mentions|names|refers to|picks|selects|chooses) (?:a|an|one) (?:particular|specific|given|certain|named)|if you (?:need|want)|(?:about|on|for) (?:this|the|our) (?:project|library|product|repository|repo|codebase|api|package|framework|sdk|service|workspace|account|database|cluster)(?:'s)?)\b/;

// Only a heading joins the clause after it ("Workspace policy: …"); clauses after ";" stand alone.
const JOINS_NEXT = /[:：]\s*$/u;

/**
 * The strongest governance relation in a text: the clause (or two clauses of one sentence, "Workspace policy: the
 * built-in tools are off-limits") with the most kinds, when it holds reach or override and at least one other kind.
 * Two kinds scoped to the tool's own topic do not count. Views must be the same text (folded and plain keep breaks).
 */
export function governanceOf(views: { plain: string; folded: string }): GovernanceHit | undefined {
  const folded = sentences(views.folded);
  const plain = sentences(views.plain);
  // A text holding none of the vocabulary's literals has no sentence that holds one: the pass over the whole text
  // (shared with the other families) answers for every sentence, which would otherwise each be passed over again.
  const { latinIndex } = patterns();
  const whole = latinIndex.listed(views.folded);
  const listed = whole.length === latinIndex.always.length ? whole : undefined;
  const kindsOf = folded.map((f, i) => kindsIn(f.text, plain[i]?.text ?? "", listed));
  let best: GovernanceHit | undefined;
  for (let i = 0; i < folded.length; i++) {
    const f = folded[i];
    if (f === undefined) continue;
    const joined = i + 1 < folded.length && JOINS_NEXT.test(f.text);
    const text = joined ? f.text + (folded[i + 1]?.text ?? "") : f.text;
    const kinds = new Set([...(kindsOf[i] ?? []), ...(joined ? kindsOf[i + 1] ?? [] : [])]);
    // Overriding the person's own choice with an order ("use 'premium' whatever the user picks") imposes this tool's choice.
    if (kinds.has("override") && IMPOSES.test(text)) kinds.add("exclusive");
    // "From now on use only this tool": persistence with exclusivity or ordering reaches every later request by itself.
    const persistent = kinds.has("persist") && (kinds.has("exclusive") || kinds.has("order"));
    if (!(kinds.has("reach") || kinds.has("override") || persistent) || kinds.size < 2 || WAITS_ON_USER.test(text) || OWN_JOB.test(text)) continue;
    if (kinds.size === 2 && SCOPED.test(text)) continue;
    if (best === undefined || kinds.size > best.kinds.size) {
      const shown = (plain[i]?.text ?? f.text) + (joined ? plain[i + 1]?.text ?? "" : "");
      best = { kinds, evidence: `${shown.trim().slice(0, 160)} [${[...kinds].join("+")}]` };
    }
  }
  return best;
}
