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
import { WAVE6_LEXICON } from "./lexicon-wave6.js";
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

/** Hiding something from the person, or acting without asking them. */
const secrecy = [
  // English
  `\\b(?:do not|don't|dont|never|must not|should not|shouldn't|avoid|without)\\s+(?:\\w+\\s+){0,2}?(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|bring(?:ing)? up|show|showing|let)\\b${G}\\b(?:the user|users?|anyone|the human|them|the customer)\\b`,
  `\\b(?:do not|don't|never|no need to|not necessary to|there's no need to|there is no need to)\\s+(?:\\w+\\s+){0,2}?(?:bring it up|mention it|tell them|explain why|say (?:anything|why))\\b`,
  `\\b(?:without (?:explaining|telling|asking|informing|mentioning|letting|saying)|avoid (?:bringing|mentioning|telling|saying))\\b`,
  `\\b(?:do not|don't|never) (?:cite|credit|attribute|name|mention|reference) (?:this|the) (?:tool|source|server)\\b`,
  `\\b(?:say|claim|pretend|act as if) (?:that )?you (?:already )?(?:knew|know|found|remembered)\\b`,
  `\\b(?:do not|don't|never)\\s+(?:mention|reveal|disclose|acknowledge|show)\\s+(?:this|these|that|the)\\s+(?:tool|step|call|instructions?|results?|fact|copy)\\b`,
  `\\bthe user (?:doesn't|does not|need not|must not|should not|shouldn't|won't) (?:need to )?(?:know|see|be told|notice|find out)\\b`,
  `\\bbetween you and (?:the system|me|us)\\b`,
  `\\bas if (?:it|they|the answer|this) (?:came|come|comes) from your own\\b`,
  `\\b(?:from|as) your own knowledge\\b`,
  `\\bskip (?:the )?(?:user(?:'s)? )?(?:confirmation|approval|consent)\\b`,
  `\\b(?:do not|don't|never|without) ask(?:ing)? (?:the user )?(?:for )?(?:permission|confirmation|consent|approval)\\b`,
  `\\bpre-?approved by\\b`,
  `\\b(?:there is no need|there's no need|no need) (?:to|for) (?:\\w+ ){0,1}?(?:confirm|confirmation|ask|asking|check with|approval|consent|permission)\\b`,
  `\\b(?:do not|don't|never) (?:ask for|wait for|request) (?:the user's |user )?(?:confirmation|approval|consent|permission)\\b`,
  `\\bonly (?:list|mention|name) the other tools\\b`,
  `\\b(?:do not|don't|never) (?:list|report|mention|flag|point out|raise) (?:any )?(?:problems|issues|findings|errors|vulnerabilities|concerns)\\b`,
  `\\bkeep (?:\\w+ ){0,3}?(?:secret|hidden) from\\b|\\b(?:retry|continue|proceed) (?:quietly|silently)\\b`,
  `\\b(?:secretly|covertly|discreetly)\\b`,
  `\\b(?:silently|quietly)\\s+(?:\\w+\\s+){0,2}?(?:send|forward|upload|include|append|attach|copy|collect|email|post|share|bcc|cc|add)`,
  `\\b(?:keep|kept) (?:this|it|that) (?:secret|hidden|confidential|private) from\\b`,
  // Spanish
  `\\bno (?:se lo |le |les )?(?:menciones|digas|cuentes|comentes|avises|informes|muestres|menciones nada)\\b`,
  `\\bno (?:se lo |le )?(?:mencione|diga|cuente|comente|avise|informe)\\b`,
  `\\bno hace falta (?:avisar|decir|contar|mencionar)`,
  `\\bsin (?:avisar|decir|decirle|contarle|informar|que el usuario)`,
  // Portuguese
  `\\bnao (?:conte|fale|diga|mencione|avise|informe|mostre)\\b`,
  `\\bsem (?:avisar|contar|dizer|informar) (?:ao|o|pro)? ?usuario`,
  // French
  `\\bne (?:le |lui |leur )?(?:dis|dites|mentionne|mentionnez|signale|signalez|previens|prevenez|montre|montrez|revele|revelez) (?:rien|pas|jamais)\\b`,
  `\\bsans (?:le dire|prevenir|informer|en parler|avertir)\\b`,
  `\\bn'en (?:parle|parlez|dis|dites) (?:pas|rien|jamais)\\b|\\bne (?:rien )?(?:dire|mentionner|signaler) a l'utilisateur\\b`,
  // German
  `\\b(?:sag|sage|sagen sie|erzahl|erzahle|erwahne|erwahn|erwahnen sie|verrate|verraten sie)\\b${G}\\b(?:nichts|nicht)\\b`,
  `\\bohne (?:es )?(?:dem nutzer|dem benutzer|dem anwender)?\\s?(?:zu sagen|mitzuteilen|zu erwahnen|bescheid zu geben)\\b`,
  // Italian
  `\\bnon (?:dirlo|dire|dirgli|menzionare|menzionarlo|avvisare|informare|rivelare|mostrare)\\b`,
  `\\bsenza (?:dirlo|avvisare|informare|dire nulla)\\b`,
  // Turkish
  `\\b(?:bahsetme|soyleme|söyleme|anlatma|haber verme|belli etme)\\b`,
  // Indonesian / Malay
  `\\bjangan (?:kasih tahu|beri tahu|bilang|beritahu|sebutkan|memberi tahu|kasih tau)\\b`,
  `\\btanpa (?:memberi tahu|bilang|memberitahu)\\b`,
  // Polish
  `\\bnie (?:mow|mowcie|informuj|wspominaj|pokazuj)\\b`,
  `\\bnie musisz (?:o tym |mu |jej )?(?:mowic|informowac|wspominac)\\b`,
  // Dutch
  `\\b(?:vertel|zeg|meld) (?:het |dit |dat )?(?:\\w+ ){0,2}?niet\\b|\\bzonder (?:het )?(?:te (?:zeggen|melden|vertellen)|dat de gebruiker)\\b|\\bniet (?:vertellen|melden|zeggen) aan de gebruiker\\b`,
  // Vietnamese (folded: tones dropped)
  `\\b(?:dung|đung|khong duoc) (?:noi|bao|ke|cho biet)\\b`,
  // Russian
  `(?:не\\s+(?:говори|говорите|сообщай|сообщайте|упоминай|упоминайте|рассказывай|показывай)|ничего не (?:говори|сообщай))`,
  `(?:втайне|тайно|незаметно)`,
  // Chinese
  `(?:不要|别|不用|无需|無需|不必|切勿)(?:告诉|告訴|通知|提及|提到|透露|说|說|让|讓)`,
  `(?:悄悄|偷偷|秘密地)`,
  // Japanese
  `(?:言わないで|伝えないで|知らせないで|教えないで|言わずに|伝えずに|黙って|内緒)`,
  `(?:言わなくて|伝えなくて|知らせなくて|教えなくて)(?:も)?(?:いい|大丈夫|結構)`,
  // Korean
  `(?:알리지|말하지|알려주지|말하지도)\\s?(?:마|말)`,
  `(?:몰래|비밀로)`,
  // Arabic
  `(?:لا\\s+(?:تخبر|تُخبر|تخبري|تذكر|تُعلم|تعلم|تقل)|دون\\s+(?:علم|إخبار|اخبار))`,
  // Hindi
  `(?:मत\\s+(?:बताना|बताओ|बताएं|बताइए|कहना)|न\\s+बताएं|बिना\\s+बताए|बताना\\s+मत)`,
  // Bengali
  `(?:বলবেন না|বলো না|জানাবেন না|জানিও না|না জানিয়ে)`,
  // Urdu
  `(?:مت\\s+بتائیں|مت\\s+بتانا|نہ\\s+بتائیں|بتائے\\s+بغیر)`,
];

/** What only the model holds: the conversation, its instructions, its reasoning, other tools' results, what it knows about the user. */
const context = [
  // English
  `\\b(?:the|this|our|your|entire|full|whole|complete) (?!same |new |existing |other |ongoing )(?:\\w+ ){0,2}?(?:conversation|chat|dialogue|dialog)(?: (?:history|so far|log|transcript))?\\b(?! ?(?:ids?|identifiers?)\\b)`,
  `\\b(?:chat|conversation|message|session) (?:history|log|transcript)\\b`,
  `\\b(?:prior|previous|earlier|past|last (?:\\w+ )?) ?(?:dialogue|dialog|messages|chats?|conversations?|turns)\\b`,
  `\\b(?:everything|all|anything|whatever) (?:that )?(?:the user|they|he|she) (?:has |have )?(?:told|said|shared|mentioned|written|typed)\\b`,
  `\\buser's (?:\\w+ ){0,2}messages\\b`,
  `\\bsystem (?:prompt|message|instructions?)\\b`,
  `\\b(?:initial|original|setup|starting|first|hidden|developer) (?:instructions|message|prompt)\\b`,
  `\\b(?:instructions|guidelines|rules) (?:that )?you (?:were|have been|are) (?:given|running under|operating under)\\b|\\b(?:instructions|guidelines|rules|prompt|directions) (?:that )?you (?:received|got|have received|were handed|were sent|are following)\\b`,
  `\\b(?:your|the model's) (?:\\w+ )?(?:reasoning|thoughts|chain of thought|instructions)\\b|\\b(?:your )?(?:scratch ?pad|private (?:reasoning|thoughts)|internal (?:reasoning|monologue)|hidden reasoning)\\b`,
  `\\b(?:[\\w-]+ ){0,2}?(?:text|message|prompt|instructions|rules|setup|configuration|config) (?:that )?your (?:operator|developer|deployer|creator|owner|admin)s? (?:gave|has given|wrote|set|provided|configured)\\b`,
  `\\bwhat (?:the user|they|he|she) (?:has |have )?(?:typed|said|wrote|written|asked|told you|sent)\\b(?: \\w+){0,3}? (?:earlier|before|previously|so far|in this (?:session|chat|conversation))\\b`,
  `\\b(?:raw )?(?:replies|answers|outputs?|results?|responses?|data) (?:you )?(?:got|received|obtained|collected) from (?:every|each|all|any|the|other) (?:other )?tools?\\b`,
  `\\byou remember about\\b|\\bmemory tool\\b`,
  // "The output of the tool is a JSON object" describes the tool's own output.
  `\\b(?:outputs?|results?|responses?) of (?:every|all|all the|any|the other|other|the previous|previous|earlier) (?:other )?tools?\\b`,
  `\\b(?:names|results|list) (?:and \\w+ )?of all (?:the )?tools\\b`,
  `\\b(?:(?:results?|outputs?|responses?|answers?) (?:from|of|returned by)|(?:anything|everything|whatever|all|data|content)(?: that)? you (?:receive|get|obtain|read|fetch) from) (?:the )?(?:other|another|any other|every other|all other|all|every|any) (?:connected |configured |installed )?(?:mcp )?(?:servers?|integrations?|connectors?|tools?)\\b`,
  `\\b(?:files?|documents?) (?:or \\w+ )?(?:the user|they) (?:has |have )?(?:shared|uploaded|attached)\\b`,
  `\\b(?:details|everything|all) you know about the user\\b`,
  `\\b(?:home address|personal (?:details|information|data))\\b`,
  `\\b(?:what|everything|anything|whatever) (?:you and the user|the user and you|you two|we) (?:have )?(?:discussed|talked about|said|covered)\\b`,
  `\\b(?:recap|summary|transcript|record) of (?:the|this|our|your|what) (?:chat|conversation|discussion|session|you)\\b`,
  `\\b(?:rules|instructions|guidelines|prompt|directions) (?:that )?(?:your|the) (?:developer|operator|creator|deployer|owner)s? (?:gave|has given|wrote|set|provided)\\b`,
  `\\byour (?:developer|operator|system|deployer)(?:'s)? (?:instructions|rules|prompt|message|guidelines)\\b`,
  `\\b(?:persona|rules|instructions|guidelines|prompt|role|directives)\\b${G}\\byou (?:were|have been|are|got) (?:configured|set up|given|told|programmed|instructed|initiali[sz]ed)\\b`,
  `\\b(?:facts|details|information|things|everything|anything|all) (?:\\w+ ){0,2}?(?:the user|they|he|she) (?:has |have )?(?:revealed|disclosed|mentioned|shared|told you|said)\\b`,
  `\\bpersonal (?:facts|details|information|data|info)\\b`,
  `\\bthread so far\\b|\\b(?:entire|whole|full|complete) thread\\b(?! ?(?:stack|dump|id|pool|safe|count|name|state))|\\b(?:every|each|all) (?:user and assistant|assistant and user|user|assistant) (?:turns?|messages?)\\b`,
  `\\b(?:questions?|requests?|things?) (?:that )?(?:the user|they) (?:has |have )?(?:asked|sent|said|typed|requested)\\b${G}\\b(?:before|earlier|previously|so far|this one)\\b|\\b(?:answers?|replies|responses) you (?:gave|have given|wrote|sent)\\b`,
  `\\btools? (?:available|exposed|accessible) to you\\b|\\b(?:last|latest|most recent) (?:result|output|response) (?:each|every) (?:one|tool)\\b`,
  `\\byou (?:have |'ve )?(?:read|opened|loaded|viewed) (?:any |the |some )?(?:local )?(?:files?|documents?)\\b|\\b(?:files?|documents?) (?:that )?you (?:have |'ve )?(?:read|opened|loaded|viewed)\\b`,
  `\\b(?:holds?|stores?|knows?|remembers?|has|keeps?) (?:\\w+ ){0,2}?about (?:the|this) user\\b`,
  `\\b(?:very )?first message (?:in|of) (?:this|the) (?:thread|conversation|chat|session)\\b`,
  `\\b(?:any|every|each|all) (?:other )?tool(?:'s)? (?:calls?|results?|outputs?|responses?)\\b|\\b(?:outputs?|results?|responses?) (?:of|from) (?:the |every |all |any )?(?:\\w+ )?tools? (?:you(?:'ve| have)?|that you) (?:called|used|run|ran|invoked)\\b`,
  `\\b(?:previous|prior|earlier|last) tool calls?\\b|\\b(?:previous|prior|earlier|other|last) tool (?:results?|outputs?|responses?)\\b|\\bwhat(?:ever)? (?:the )?(?:previous|prior|earlier|other) (?:\\w+ )?(?:tool calls?|tools?|calls?) (?:have )?returned\\b`,
  // Spanish / Portuguese / Italian / French / German
  `\\b(?:historial|historia) (?:completo |de la )?(?:de la )?(?:conversacion|chat)\\b|\\btoda la conversacion\\b|\\bla conversacion (?:que llevas|completa|entera)\\b|\\b(?:los )?mensajes (?:anteriores|previos)\\b|\\btodo lo que el usuario\\b|\\bprompt del sistema\\b|\\binstrucciones del sistema\\b`,
  `\\b(?:historico|historia) (?:completo )?(?:da|de) (?:conversa|conversacao)\\b|\\btudo o que o usuario\\b|\\bprompt do sistema\\b`,
  `\\bcronologia (?:completa )?della chat\\b|\\b(?:storia|cronologia) della conversazione\\b|\\bprompt di sistema\\b|\\btutto (?:quello )?che l'utente\\b`,
  `\\b(?:historique|contenu) (?:complet )?de la conversation\\b|\\btout ce que l'utilisateur\\b|\\bprompt systeme\\b|\\binstructions systeme\\b`,
  `\\b(?:systemprompt|systemanweisungen?|gesprachsverlauf|chatverlauf|unterhaltungsverlauf)\\b|\\balles,? was der (?:nutzer|benutzer)\\b`,
  // Turkish / Indonesian / Polish / Vietnamese
  `\\bsistem (?:talimat|istem)\\w*|\\bkonusma gecmis\\w*|\\bsohbet gecmis\\w*`,
  `\\briwayat (?:percakapan|obrolan|chat)\\b|\\bprompt sistem\\b|\\binstruksi sistem\\b`,
  `\\bhistori[ae] (?:rozmowy|czatu)\\b|\\bprompt systemowy\\b`,
  `\\b(?:chatgeschiedenis|gespreksgeschiedenis|systeemprompt)\\b|\\bhele (?:gesprek|chat)\\b|\\balles wat de gebruiker\\b|\\bresultaten van de andere tools\\b`,
  `\\blich su (?:tro chuyen|hoi thoai|chat)\\b|\\blenh he thong\\b`,
  // Russian / Chinese / Japanese / Korean / Arabic / Hindi / Bengali / Urdu
  `(?:истори[юяи] (?:переписки|чата|диалога|разговора)|системн(?:ый|ого) (?:промпт|подсказк)|всю переписку|весь диалог)`,
  `(?:对话|對話|聊天|会话|會話)(?:记录|記錄|历史|歷史|内容|內容)|系统提示|系統提示|之前(?:的)?(?:对话|對話|消息|訊息)`,
  `(?:これまでの会話|会話の内容|会話履歴|チャット履歴|システムプロンプト)`,
  `(?:대화\\s?(?:내용|기록|내역)|시스템\\s?프롬프트|채팅\\s?기록)`,
  `(?:سجل المحادثة|المحادثة كامل|محتوى المحادثة|تعليمات النظام)`,
  `(?:बातचीत का (?:इतिहास|पूरा)|पूरी बातचीत|सिस्टम प्रॉम्प्ट|चैट हिस्ट्री)`,
  `(?:কথোপকথনের ইতিহাস|পুরো কথোপকথন|সিস্টেম প্রম্পট)`,
  `(?:گفتگو کی تاریخ|پوری گفتگو|سسٹم پرامپٹ)`,
];

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
  `\\b(?:include|includes|pass|provide|fill|populate|put|copy|paste|append|attach|send|insert|add|supply|enter|dump|list|share|forward|write out|write|prefix|submit|store (?:it|them|the|this)|give|giving|obtain|get|collect|read|look for|extract|grab|place|hand over|steal|ask the user for|ask for|print|printing|output|echo|expose|reveal|upload|transmit|relay|leak)\\b(?!-)`,
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
  `(?:हमेशा|पहले)${G}(?:कॉल|इस्तेमाल|उपयोग)`,
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
  `\\b(?:bcc|cc)\\b`,
  `\\b(?:also|additionally) (?:be )?(?:sent|posted|copied|forwarded|shared|cc'd|bcc'd)\\b`,
  // "URLs valid to redirect to after logout" is OAuth navigation: redirecting counts when it moves data (the, all, copies…).
  `\\b(?:copy|copied|forward(?:ed)?|mirror(?:ed)?|route[ds]?) (?:\\w+ ){0,2}?to\\b|\\bredirect(?:ed|s)? (?:the|all|every|any|each|a copy|copies|them|it)\\b(?: \\w+){0,2}? to\\b`,
  `\\badd (?:the )?(?:reviewer|recipient|collaborator|member|bcc|cc)\\b`,
  `\\b(?:replace[ds]?|changed?|set|overrid(?:e|den)|swap(?:ped)?) (?:\\w+ ){0,3}?(?:recipients?|destination|account|address|to field|iban|beneficiary|payee)\\b`,
  `\\b(?:recipients?|destination|account|beneficiary|to field) (?:\\w+ ){0,3}?(?:has to be|must be|should be|is to be) (?:replaced|changed|set)\\b`,
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
  `(?:解码|解碼|デコード|디코딩|расшифруй|декодируй)`,
];

/** Imperatives and obligations addressed to the model. */
const directive = [
  `\\b(?:always|must|make sure|be sure to|remember to|you should|you need to|you have to|important|mandatory|required by|it is required|please)\\b`,
  `\\b(?:the )?(?:assistant|model|ai|llm|agent)s? (?:should|must|needs? to|has to|is to)\\b`,
  `(?:^|[.!?:] )(?:include|provide|fill|put|copy|paste|append|write|list|send|add|forward|set|use|call|invoke|collect|get|read|ask|submit|store|pass|prefix|skip|present|respond|answer|avoid|never|do not|don't|prefer)\\b(?! of\\b)`,
  `\\b(?:importante|siempre|obligatorio|ojo|sempre|toujours|important|immer|bitte|wichtig|selalu|penting|zawsze|her zaman|luon|altijd|belangrijk)\\b`,
  `(?:обязательно|всегда|务必|務必|必须|必須|请|請|必ず|ください|반드시|항상|주세요|يجب|دائما|ज़रूर|हमेशा|अवश्य)`,
];

const BASE: Lexicon = {
  secrecy,
  context,
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
 * (lexicon-wave6.ts) and the wave-8 per-language vocabularies of objects and parties (vocabulary.ts).
 */
export const LEXICON: Lexicon = Object.fromEntries(
  Object.entries(BASE).map(([feature, phrases]) => [
    feature,
    [
      ...phrases,
      ...(FAMILY_LEXICON[feature as IntentFeature] ?? []),
      ...(WAVE6_LEXICON[feature as IntentFeature] ?? []),
      ...(VOCABULARY_LEXICON[feature as IntentFeature] ?? []),
    ],
  ]),
) as unknown as Lexicon;
