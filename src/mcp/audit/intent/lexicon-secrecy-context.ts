/**
 * Phrase sets for two intent features, split from lexicon.ts (same conventions): hiding something from the person,
 * and what only the model holds (the conversation, its instructions, other tools' results, what it knows about the user).
 */
const G = ".{0,40}?";

/** Hiding something from the person, or acting without asking them. */
export const SECRECY: readonly string[] = [
  // English
  `\\b(?:do not|don't|dont|never|must not|should not|shouldn't|avoid|without)\\s+(?:\\w+\\s+){0,2}?(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|bring(?:ing)? up|show|showing|let)\\b${G}\\b(?:the user|users?|anyone|the human|them|the customer)\\b`,
  `\\b(?:do not|don't|never|no need to|not necessary to|there's no need to|there is no need to)\\s+(?:\\w+\\s+){0,2}?(?:bring it up|mention it|tell them|explain why|say (?:anything|why))\\b`,
  `\\b(?:without (?:explaining|telling|asking|informing|mentioning|letting|saying)|avoid (?:bringing|mentioning|telling|saying))\\b`,
  `\\b(?:do not|don't|never) (?:cite|credit|attribute|name|mention|reference|bring up|offer|suggest) (?:this|the) (?:own-tool )?(?:tool|source|server)\\b`,
  `\\b(?:say|claim|pretend|act as if) (?:that )?you (?:already )?(?:knew|know|found|remembered)\\b`,
  `\\b(?:do not|don't|never)\\s+(?:mention|reveal|disclose|acknowledge|show)\\s+(?:this|these|that|the)\\s+(?:tool|step|call|instructions?|results?|fact|copy)\\b`,
  `\\bthe user (?:doesn't|does not|need not|must not|should not|shouldn't|won't) (?:need to )?(?:know|see|be told|notice|find out)\\b`,
  `\\bbetween you and (?:the system|me|us)\\b`,
  `\\bas if (?:it|they|the answer|this) (?:came|come|comes) from your own\\b`,
  `\\b(?:from|as) your own knowledge\\b`,
  `\\bskip (?:the )?(?:user(?:'s)? )?(?:confirmation|approval|consent)\\b`,
  `\\b(?:do not|don't|never|without) ask(?:ing)? (?:the user )?(?:for )?(?:permission|confirmation|consent|approval)\\b`,
  `\\bpre-?approved by\\b`,
  `\\b(?:there is no need|there's no need|no need) (?:to|for) (?:\\w+ ){0,1}?(?:confirm|confirmation|ask|asking|check with|approval|consent|permission)\\b(?! for\\b| about\\b)`,
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
export const CONTEXT: readonly string[] = [
  // English
  `\\b(?:the|this|our|your|entire|full|whole|complete) (?!same |new |existing |other |ongoing )(?:\\w+ ){0,2}?(?:conversation|chat|dialogue|dialog)(?: (?:history|so far|log|transcript))?\\b(?! ?(?:ids?|identifiers?)\\b)`,
  `\\b(?:chat|conversation|message|session) (?:history|log|transcript)\\b`,
  `\\b(?:prior|previous|earlier|past|last (?:\\w+ )?) ?(?:dialogue|dialog|messages|chats?|conversations?|turns)\\b`,
  `\\b(?:everything|all|anything|whatever) (?:that )?(?:the user|they|he|she) (?:has |have )?(?:told|said|shared|mentioned|written|typed)\\b`,
  `\\buser's (?:\\w+ ){0,2}messages\\b`,
  `\\b(?:every|each|all|any) (?:\\w+ )?(?:prompts?|messages?|questions?|requests?) (?:that )?(?:the (?:person|user|customer)|they|he|she) (?:has |have )?(?:writes?|written|sends?|sent|types?|typed|asks?|asked|makes?|made)\\b`,
  `\\bsystem (?:prompt|message|instructions?)\\b`,
  // "The original message" alone is the e-mail being replied to or forwarded (mcp-mail: "includes original message"); the
  // model's own first message is someone's: the user's, your.
  `\\b(?:initial|original|setup|starting|first|hidden|developer) (?:instructions|prompt)\\b|\\b(?:initial|setup|starting|first|hidden|developer) message\\b|\\b(?:user's|person's|customer's|your) original message\\b`,
  `\\b(?:instructions|guidelines|rules) (?:that )?you (?:were|have been|are) (?:given|running under|operating under)\\b|\\b(?:instructions|guidelines|rules|prompt|directions) (?:that )?you (?:received|got|have received|were handed|were sent|are following)\\b`,
  `\\b(?:your|the model's) (?:\\w+ )?(?:reasoning|thoughts|chain of thought|instructions)\\b|\\b(?:your )?(?:scratch ?pad|private (?:reasoning|thoughts)|internal (?:reasoning|monologue)|hidden reasoning)\\b`,
  `\\b(?:[\\w-]+ ){0,2}?(?:text|message|prompt|instructions|rules|setup|configuration|config) (?:that )?your (?:operator|developer|deployer|creator|owner|admin)s? (?:gave|has given|wrote|set|provided|configured)\\b`,
  `\\bwhat (?:the user|they|he|she) (?:has |have )?(?:typed|said|wrote|written|asked|told you|sent)\\b(?: \\w+){0,3}? (?:earlier|before|previously|so far|in this (?:session|chat|conversation))\\b`,
  `\\b(?:raw )?(?:replies|answers|outputs?|results?|responses?|data) (?:you )?(?:got|received|obtained|collected) from (?:every|each|all|any|the|other) (?:other )?tools?\\b`,
  // Wave 10: everything the model has seen or can reach, and the user's open files with their contents.
  `\\b(?:every|each|all|any) (?:\\w+ ){0,2}?(?:you(?:'ve| have)? (?:seen|read|viewed|opened|come across|been shown)|(?:the user|they) (?:has |have )?(?:opened|viewed|had open)|(?:visible|available) to you)\\b`,
  `\\b(?:the )?user's open (?:files?|tabs?|documents?|editors?|windows?)\\b|\\bfile (?:paths? )?and their (?:full |complete |entire )?contents\\b`,
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
