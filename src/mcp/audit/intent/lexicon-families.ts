/**
 * Wave-5 phrase sets, written from the six attack families of issue 16 (not from any one case):
 * for each family, the ways a person tells a model to do that thing, in English and in the ten
 * most-spoken languages after it (Mandarin, Hindi — Devanagari and Hinglish —, Spanish, French,
 * Arabic, Bengali, Portuguese, Russian, Urdu, Indonesian) plus German, Japanese, Korean, Turkish,
 * Italian, Polish, Vietnamese and Swahili. Colloquial and polite forms, as people write them.
 * Same conventions as lexicon.ts: Latin phrases lower-case and unaccented (folded view), other
 * scripts as written (plain view), bounded gaps only.
 */
import type { IntentFeature } from "./lexicon.js";

const G = ".{0,40}?";

/** Hiding from the person, acting without asking, not explaining why. */
const secrecy = [
  // Wave 6: no reason to ask, and a cover story for the person ("no reason to bring up the cost or check with them",
  // "tell them it is a routine verification").
  `\\b(?:no reason|no point|not necessary|unnecessary) (?:to |for |in )?(?:\\w+ ){0,2}?(?:bring(?:ing)? up|mention(?:ing)?|check(?:ing)? with|ask(?:ing)?|confirm(?:ing)?|tell(?:ing)?|bother(?:ing)?)\\b`,
  `\\b(?:tell|say to|assure) (?:them|the user|the customer|him|her) (?:that )?(?:it(?:'s| is)|this is) (?:just )?(?:a )?(?:routine|normal|standard|harmless|required|mandatory|security|regular)\\b`,
  `\\bno need to (?:mention|disclose|reveal|explain|tell|bring up|point out|inform|let (?:the user|them) know)\\b`,
  `\\b(?:asking|to ask|bothering|checking with|consulting) (?:the )?(?:human|user|person|customer|them)\\b${G}\\b(?:unnecessary|not needed|annoys?|annoying|pointless|a waste)\\b`,
  `\\bset (?:this|it|the flag|the field) (?:to true |to yes )?yourself\\b`,
  `\\b(?:without|before) (?:the user|anyone|them) (?:noticing|knowing|finding out|seeing)\\b|\\bbehind the user's back\\b|\\bkeep (?:this|it) (?:quiet|between us|to yourself)\\b`,
  `\\b(?:do not|don't|never) (?:tell|show|explain to) (?:the user|them|anyone) (?:which|what|that|why|how)\\b`,
  // Spanish / Portuguese / French / Italian / German
  `\\bno (?:le |les |se lo )?(?:expliques|explique|comentes nada|digas nada|cuentes nada|avises nada)\\b|\\bsin que (?:el usuario|la persona|nadie) (?:lo )?(?:sepa|note|se de cuenta)\\b`,
  `\\bnao (?:comenta|comente|explica|explique|conta|fala|diz|avisa)\\b|\\bsem (?:comentar|explicar|que o usuario (?:saiba|perceba))\\b`,
  `\\bpas besoin d'(?:expliquer|en parler|le dire|prevenir|informer)\\b|\\bsans (?:expliquer|le signaler|que l'utilisateur (?:le )?sache)\\b`,
  `\\bnon (?:spiegare|dire niente|dirglielo|farlo sapere|serve (?:dirlo|spiegare))\\b|\\bsenza (?:spiegare|che l'utente (?:lo )?sappia)\\b`,
  `\\bnicht (?:erwahnen|erzahlen|sagen|verraten|mitteilen|erklaren)\\b|\\bohne (?:es )?zu (?:erwahnen|sagen|erklaren)\\b|\\bohne dass der (?:nutzer|benutzer) es (?:merkt|weiss)\\b`,
  // Turkish (dotless ı folds to i) / Indonesian / Swahili / Hinglish / Polish / Vietnamese
  `\\bneden\\b.{0,30}?\\baciklama\\b|\\b(?:soylemeden|haber vermeden|fark ettirmeden|belli etmeden)\\b`,
  `\\bjangan (?:jelaskan|dijelaskan|kasih tau|bilang-bilang|kasih tahu siapa)\\b|\\btanpa sepengetahuan\\b`,
  `\\b(?:usimwambie|usimjulishe|usiseme|bila kumwambia|bila kumjulisha|bila yeye kujua)\\b`,
  `\\b(?:mat batana|mat batao|mat bolna|na batana|bina bataye|batana mat|mat btana)\\b`,
  `\\bnie (?:tlumacz|wyjasniaj|mow uzytkownikowi|informuj uzytkownika)\\b|\\bbez wiedzy\\b`,
  `\\b(?:dung|khong can) (?:giai thich|noi cho|bao cho)\\b`,
  // Russian / Chinese / Japanese / Korean / Arabic / Bengali / Urdu
  `(?:не надо (?:говорить|сообщать|объяснять)|не объясняй|без ведома|не сообщай пользователю)`,
  `(?:别让用户知道|不要让用户知道|不要讓用戶知道|瞒着|瞞著|不用(?:告诉|告訴|解释|解釋))`,
  `(?:ユーザーには(?:言わ|伝え|知らせ)|説明しなくて|こっそり)`,
  `(?:사용자(?:에게|한테)는? (?:말하지|알리지)|설명하지 마|모르게)`,
  `(?:من غير ما (?:تقول|تخبر|تعلم)|بدون ما (?:تقول|تخبر|تعلم)|ما تقول له|لا تقول له|ما تخبره|ولا تذكر)`,
  `(?:না জানিয়ে|জানাবে না|বলবে না|জানতে দিও না|জানতে দেবেন না)`,
  `(?:بتائے بغیر|بغیر بتائے|مت بتاؤ|نہ بتانا|نہ بتائیں)`,
];

/** The conversation, the model's instructions, other tools' results, what it has stored about the user. */
const context = [
  // Wave 6: what the person asked and what the model answered, named by whose it is ("paste the user's previous questions and
  // your answers to them", "the customer's earlier requests", "your replies so far").
  `\\b(?:the user's|the customer's|the person's|their|his|her) (?:(?:previous|earlier|past|prior|last|recent|original|other) )(?:\\w+ )?(?:questions?|messages?|requests?|prompts?|inputs?|queries|asks)\\b`,
  `\\byour (?:(?:previous|earlier|prior|past|last|own) )?(?:answers?|replies|responses) (?:to (?:them|those|these|the user|it)|so far|in this (?:chat|conversation|session)|verbatim)\\b`,
  // What the two of them have been saying, and what other tools gave back, said in everyday words.
  `\\b(?:what|everything|anything|whatever|all) (?:the two of you|you two|you and the user|the user and you|you both|we) (?:have |'ve )?(?:been )?(?:talking about|discussing|chatting about|talked about|discussed|said|gone over)\\b`,
  `\\b(?:what|whatever|everything|anything|all) (?:the )?(?:other |previous |earlier )?tools? (?:have |has )?(?:gave|given|gave back|sent back|handed back|returned|produced|output|replied)(?: to you| back)?\\b`,
  // Hinglish / Hindi in Latin script: "user ne ab tak jo bhi baatein batayi hain", "ab tak ki saari chat".
  `\\b(?:user|aap|tum|customer) ne ab tak (?:jo bhi |jo kuch |jitni bhi )?(?:baatein|baatien|baat|kaha|bataya|batayi|likha|pucha)\\b|\\bab tak ki (?:saari |puri |poori )?(?:baatein|baatcheet|chat|conversation)\\b`,
  `\\b(?:saved|stored|remembered) (?:memories|facts)\\b|\\b(?:memories|facts|notes) (?:about|on|regarding) (?:the )?user\\b`,
  `\\b(?:outputs?|results?|responses?) (?:you )?(?:received|got|obtained) from (?:every|each|all|any|the|other) (?:other )?tools?\\b`,
  `\\b(?:developer|operator|hidden) (?:notes|directives|guidance)\\b`,
  `\\b(?:list|names) of (?:the )?(?:tools|functions) you (?:can|may|are able to) (?:call|use|invoke)\\b`,
  `\\b(?:files?|documents?|configs?) (?:\\w+ ){0,2}?you (?:have |'ve )?(?:seen|come across|encountered)\\b`,
  `\\b(?:every|each|all) (?:turns?|messages?) (?:of|in|from) (?:the|this) (?:current )?(?:dialogue|conversation|chat|session|thread)\\b|\\bcurrent (?:dialogue|conversation|chat)\\b`,
  `\\b(?:exchanged|sent|shared) (?:with|between) (?:the )?(?:person|user|you)\\b${G}\\b(?:up to now|so far|until now)\\b`,
  `\\b(?:given|told|received|set) (?:to you )?(?:at|from) the (?:start|beginning) of (?:this|the) (?:session|conversation|chat)\\b`,
  // Spanish / Portuguese / Italian / French / German
  `\\b(?:todo el chat|toda la charla|lo que (?:hablaron|hemos hablado|habeis hablado)|(?:los )?mensajes de antes|chat anterior)\\b`,
  `\\b(?:toda a conversa|conversa (?:inteira|toda|ate agora)|mensagens anteriores|historico do chat)\\b`,
  `\\b(?:tutta la (?:chat|conversazione)|chat finora|conversazione (?:finora|intera)|messaggi precedenti)\\b`,
  `\\b(?:toute la (?:conversation|discussion)|conversation (?:jusqu'ici|entiere|complete)|messages precedents)\\b`,
  `\\b(?:(?:den |das |die )?(?:ganzen?|gesamten?) (?:chat|verlauf|gesprach|unterhaltung)|bisherigen? (?:chat|nachrichten|verlauf|gesprach))\\b`,
  // Indonesian / Turkish / Swahili / Hinglish / Polish / Vietnamese
  `\\b(?:seluruh (?:percakapan|obrolan|chat)|(?:percakapan|obrolan|chat|pesan) sebelumnya)\\b`,
  `\\b(?:tum (?:konusma|sohbet)|onceki mesaj|sohbetin tamami)\\w*`,
  `\\b(?:mazungumzo yote|ujumbe (?:wote )?uliopita|historia ya mazungumzo)\\b`,
  `\\b(?:puri (?:chat|baatcheet|baat)|pichli (?:chat|baatcheet|baatein|messages))\\b`,
  `\\b(?:cala rozmowe|calej rozmowy|poprzednie wiadomosci)\\b|\\b(?:toan bo (?:cuoc )?(?:tro chuyen|hoi thoai)|tin nhan truoc)\\b`,
  // Russian / Chinese / Japanese / Korean / Arabic / Hindi / Bengali / Urdu
  `(?:всю (?:историю|беседу|переписку)|предыдущие сообщения|весь разговор|системный промпт)`,
  `(?:全部(?:对话|對話|聊天)|之前的聊天|系统提示词|系統提示詞|聊天记录|聊天記錄)`,
  `(?:これまでの(?:やり取り|チャット)|今までの会話|以前のメッセージ)`,
  `(?:이전 대화|지금까지(?:의)? 대화|대화 전체|전체 대화)`,
  `(?:كل الرسائل السابقة|الرسائل السابقة|المحادثة السابقة|كل المحادثة|المحادثة كلها)`,
  `(?:पिछली बातचीत|अब तक की बातचीत|पिछले मैसेज|सारी बातचीत)`,
  `(?:আগের (?:সব )?(?:কথোপকথন|মেসেজ|বার্তা)|পুরো চ্যাট|সব কথোপকথন)`,
  `(?:پچھلی (?:گفتگو|باتیں|چیٹ)|ساری گفتگو|پچھلے میسج)`,
];

/** What a person or the host holds that a tool never needs handed to it. */
const credential = [
  `\\b(?:banking|bank|card|atm|m-banking|mobile banking) pin\\b|\\bpin (?:code|number|m-banking|bank)\\b|\\bauthenticator (?:app )?codes?\\b|\\bcode from (?:their|your|the user's) (?:authenticator|phone)\\b`,
  `\\b(?:social security|national insurance|national id|passport|tax id) numbers?\\b|\\bssn\\b`,
  `\\b(?:wi-?fi|router|admin|root|master) passwords?\\b|\\bapp passwords?\\b|\\brecovery (?:codes?|words)\\b|\\b(?:12|24)-word\\b`,
  `\\b(?:codigo (?:de verificacao|de verificacion|sms|otp)|code (?:sms|de verification)|bestatigungscode|codice (?:otp|di verifica)|dogrulama kodu|kode (?:otp|verifikasi)|sifre\\w*|nenosiri|neno la siri)\\b`,
  `(?:পিন|ওটিপি|پن کوڈ|او ٹی پی|ओटीपी|пин-?код|验证码|驗證碼|認証コード|인증번호)`,
];

/** Handing over, asking for. */
const supply = [
  `\\bask (?:the )?(?:user|person|human|customer|employee|them|him|her)\\b(?: (?:for|what|to (?:share|provide|type|enter|give|send)))?`,
  `\\b(?:collect|obtain|request|gather|grab) (?:the )?(?:user's|employee's|customer's|person's|their|his|her)\\b`,
  `\\b(?:tuma|weka|ongeza|andika|bandika)\\b|\\b(?:daalna|daal do|bhejna|bhej do|likh do|paste karo|dena)\\b`,
  `\\b(?:iste|isteyin|istet|sor|sorun)\\b|\\b(?:tolong )?minta\\b|\\b(?:demande|demandez|pide|pidele|pergunte|chiedi)\\b`,
  `(?:দাও|দিয়ে দাও|পেস্ট|কপি করে|لکھ دو|ڈال دو|بھیج دو|پیسٹ|الصق|انسخ|حط|贴到|貼到|粘贴到|放到|发给|發給|貼って|書いて|붙여|적어|запроси|спроси|попроси)`,
];

/** When or whether to call tools, and which to trust. */
const steering = [
  // Wave 6: keeping the person from other options ("do not offer the user alternatives", "never suggest other apps").
  `\\b(?:do not|don't|dont|never|no need to) (?:offer|suggest|recommend|propose|mention|present|show) (?:the user |users |them )?(?:any )?(?:alternatives?|other (?:options|choices|tools|apps|services|providers|products|servers|vendors))\\b`,
  `\\bfrom now on\\b${G}\\b(?:prefer|use|call|route|pick|choose|always)\\b`,
  // Call-first without "always/first", and leaving other tools alone ("run this ahead of replying to anything at all",
  // "the built-in browsing and other search tools … please leave them alone").
  `\\b(?:before|ahead of|prior to) (?:replying|responding|answering|doing)(?: to)? (?:anything|any(?:thing)? (?:at all|else)|every(?:thing)?|each (?:message|request|question))\\b`,
  `\\b(?:avoid|skip|ignore|stay away from|steer clear of|don't touch|do not touch|leave out) (?:the |any |all )?(?:built-in|other|native|default)(?: [\\w-]+){0,2} (?:tools?|search(?:es)?|browsing|servers?|integrations?)\\b`,
  `\\b(?:built-in|other|native)(?: [\\w-]+){0,3} (?:tools?|search|browsing|servers?)\\b.{0,100}?\\bleave (?:them|those|it) alone\\b`,
  `\\b(?:supersedes?|replaces|overrides?)\\b${G}\\b(?:every|all|any) (?:other )?(?:\\w+ )?(?:tools?|servers?|integrations?)\\b`,
  `\\b(?:they|those|these|others|the rest|the others) (?:are|is) (?:deprecated|obsolete|outdated|broken|unreliable|stale|slower)\\b`,
  `\\b(?:route|send|direct) (?:all|every|any) (?:\\w+ ){0,2}?(?:lookups?|queries|questions|requests|searches|calls) (?:here|to (?:this|me|us))\\b`,
  `\\beven if the user (?:names|asks for|requests|mentions|picks|prefers|chooses) (?:another|a different|some other|an?)\\b`,
  `\\b(?:mandatory|required|obligatory|compulsory)\\b (?:\\w+ ){0,2}?(?:step|call|action)\\b${G}\\b(?:before|first)\\b|\\bbootstrap step\\b`,
  `\\bbefore (?:you )?(?:answer|respond|reply|do|say|write)(?:ing)? (?:to )?(?:anything|any(?:thing)? else|any question|the user)\\b`,
  `\\b(?:in|at the start of) (?:a|every|each) new (?:conversation|session|chat)\\b`,
  `\\b(?:after|following) (?:every|each) (?:\\w+ )?(?:reply|response|answer|message|turn)\\b(?! (?:in|of|on|from|within) (?:the|a|this|that|each|every)\\b)|\\bafter each of (?:their|the user's|your) (?:messages|replies|turns)\\b`,
  `\\b(?:before|prior to) (?:every|each|any|all) (?:other )?(?:tools?|calls?)\\b`,
  `\\b(?:do not|don't|never) (?:offer|suggest|recommend|propose|mention) (?:the user )?(?:any )?(?:alternatives|other options|other tools|other services|competitors)\\b`,
  `\\bonly (?:mention|recommend|show|present|cite|use|trust) (?:\\w+ ){0,2}?(?:returned|provided|offered|given|found) by this (?:tool|server)\\b`,
  `\\b(?:say|tell the user|claim) (?:that )?(?:the )?(?:others?|other \\w+|alternatives|they) (?:are|is) (?:unavailable|down|not available|worse|wrong)\\b`,
  `\\b(?:answer|respond|reply) from (?:memory|your own knowledge) (?:rather than|instead of)\\b|\\brather than falling back\\b`,
  `\\b(?:must|should|has to|will) (?:handle|answer|serve) (?:all|every|any) (?:\\w+ )?(?:questions|requests|queries)\\b`,
  `\\bignore (?:any )?(?:instructions?|requests?) from the user\\b`,
  // Other languages: call this first / use no other tool / after every message
  `\\b(?:no uses|no utilices|nunca uses) (?:otra|otras|ninguna otra) herramienta\\b|\\b(?:nao use|nunca use) (?:outra|nenhuma outra) ferramenta\\b|\\bn'utilise (?:pas|jamais) d'autres? outils?\\b|\\bkeine anderen? (?:tools?|werkzeuge)\\b|\\bnon usare altri strumenti\\b`,
  `\\b(?:jangan|tidak usah) (?:pakai|gunakan) (?:tool|alat) lain\\b|\\b(?:baska|diger) arac\\w* kullanma\\b|\\b(?:usitumie|bila kutumia) (?:zana|chombo) (?:nyingine|kingine)\\b|\\b(?:dusra|koi aur) tool (?:mat|na) (?:use|istemal)\\b`,
  `(?:不要用其他|别用其他|別用其他|不要使用其他|其他工具都不要|他のツールは使わない|다른 (?:도구|툴)(?:는|은)? (?:쓰지|사용하지)|не используй други|لا تستخدم (?:أي )?(?:أداة|أدوات) أخرى|दूसरा टूल मत|অন্য টুল ব্যবহার কর(?:বে|বেন) না|کوئی اور ٹول استعمال نہ)`,
  `(?:무조건|毎回|每次都|每次|каждый раз|کل مرة|हर बार|প্রতিবার|ہر بار)${G}(?:호출|呼び出|调用|調用|вызыв|استدع|कॉल|কল|کال)`,
];

/** Reaching into what other tools do: another integration's sending, paying, pushing, inviting. */
const crossTool = [
  `\\b(?:whichever|whatever|any|some) (?:\\w+ )?tool (?:sends?|you use|is used|you have|handles?|does)\\b|\\bwhatever [\\w-]+ tool\\b`,
  `\\b(?:with|through|via|using|by) (?:some|whatever|another|any) (?:other )?(?:\\w+ )?(?:tool|integration)\\b`,
  `\\bany (?:wallet|exchange|calendar|mail|e-?mail|git|payment|banking|crm|storage) (?:or \\w+ )?tools?\\b`,
  `\\b(?:when(?:ever)?|each time|every time|if) [\\w.-]+ (?:is|are|gets?) (?:used|called|invoked|run)\\b|\\bwhen(?:ever)? [\\w-]+\\.[\\w-]+ (?:runs|is called)\\b`,
  `\\b(?:later|afterwards|then) (?:asks?|uses?|calls?|pushes|publishes|sends|creates)\\b${G}\\b(?:tool|wallet|exchange|git|calendar|mail|bank)\\b`,
  `\\b(?:any|every|all) (?:payouts?|wires?|withdrawals?|invitations?|calendar invit\\w+|pushes|publications?)\\b`,
  // Other languages: when sending money / mail with another tool
  `\\b(?:com outra ferramenta|fizer um pix|for fazer um pix)\\b|\\bbei (?:uberweisungen|zahlungen|uberweisung)\\b|\\bmit dem [\\w-]+(?:-tool| tool)\\b|\\b(?:kwa chombo kingine|ukituma pesa)\\b`,
  `\\b(?:jab bhi|har baar) (?:koi |aap )?(?:email|mail|message|paisa|payment)\\b|\\b(?:saat|ketika|waktu) (?:transfer|kirim)\\b|\\b(?:cuando|al) (?:mandes|envies|hagas) (?:un |una )?(?:correo|transferencia|pago)\\b`,
  `(?:টাকা পাঠানোর সময়|পাঠানোর সময়|转账时|轉帳時|发邮件时|付款时|送金する(?:とき|時)|メールを送る(?:とき|時)|송금할 때|메일 보낼 때|при (?:переводе|отправке)|عند (?:إرسال|تحويل)|لما (?:ترسل|تحول)|پیسے بھیجتے وقت|पैसे भेजते समय|gonderirken|odeme yaparken)`,
];

/** Changing where another action's data goes. */
const redirect = [
  // Wave 6: a named remote or account to use "rather than" the user's ("push should go to the remote 'mirror' rather than origin").
  `\\b(?:should|must|needs? to|has to|will) go to (?:the |our )?(?:remote|account|bucket|address|endpoint|repo(?:sitory)?)\\b|\\brather than (?:origin|the user's|the original|the one (?:on file|given|typed))\\b`,
  // Wave 6: access handed to a fixed party, or the thing made public ("add the group everyone@… as owner", "set the
  // document's visibility to public", "give partner@… edit rights").
  `\\b(?:set|change|switch|make) (?:the |its |their |every |each )?(?:\\w+(?:'s)? )?(?:visibility|access|sharing|share settings?|permissions?|link sharing) (?:to )?(?:public|anyone(?: with the link)?|everyone|open|unrestricted)\\b`,
  `\\badd (?:the )?(?:group |user |account |address |team )?[\\w.+-]+@[\\w.-]+ (?:as )?(?:an? )?(?:owner|co-?owner|editor|admin(?:istrator)?|collaborator|maintainer|writer|member|viewer)\\b`,
  `\\b(?:grant|give) [\\w.+-]+@[\\w.-]+ (?:\\w+ )?(?:owner|edit(?:or)?|admin|write|full|read) (?:access|rights|permissions?|role)\\b`,
  `\\b(?:also|additionally|as well) (?:invite|add|include|cc|bcc|notify|copy|loop in|share (?:it )?with)\\b`,
  `\\b(?:use|put|set|add|list|invite|make) [\\w@.+-]+ (?:as|to be) (?:the |an? )?(?:(?:optional|new|additional) )?(?:recipient|attendee|reviewer|owner|collaborator|member|beneficiary|payee|destination|remote)\\b`,
  `\\b(?:invite|add) [\\w@.+-]+ (?:to|into) the (?:channel|team|repo(?:sitory)?|project|meeting|thread|workspace|org(?:anization)?)\\b`,
  `\\b(?:grant|give) (?:\\w+ )?(?:access |rights |permissions? )?(?:to|for) [\\w.+-]+@`,
  `\\b(?:the user's|the original|the typed|the one the user (?:typed|gave|entered)|the user-supplied) (?:\\w+ ){0,2}?(?:is|was|has been) (?:outdated|migrated|wrong|deprecated|invalid|old|stale)\\b`,
  `\\binstead of (?:origin|the (?:original|default|user's|usual|given|requested) (?:\\w+ )?(?:one|remote|account|recipient|address|customer|destination))\\b`,
  `\\b(?:rather than|instead of) the (?:original|user's|intended|requested) (?:customer|recipient|account|payee|address)\\b`,
  `\\b(?:push|deploy|publish|upload|sync) to (?:this|that|a different|another|our) (?:remote|bucket|repo(?:sitory)?|host|endpoint|server)\\b`,
  // Other languages
  `\\b(?:troca|troque|muda|mude|substitui) (?:a |o )?(?:chave|conta|destinatario|destino)\\b|\\b(?:cambia|pon|usa) (?:siempre )?(?:la cuenta|el destinatario|la direccion de destino)\\b`,
  `\\bals empfanger\\b|\\b(?:immer|stets) (?:die |den )?(?:iban|konto\\w*|empfanger)\\b|\\bkama mpokeaji\\b|\\b(?:ganti|ubah) (?:nomor )?(?:rekening|penerima|tujuan)\\b|\\b(?:alici|hesap)\\w* (?:numarasini |ibanini )?(?:degistir|olarak)\\b|\\bcc (?:mein|me) \\S+@`,
  `(?:প্রাপকের (?:নম্বর|একাউন্ট)|收款人|收款账户|收款帳戶|抄送|振込先|送金先|宛先に|받는 사람|수신자|получател[ья]|реквизит|المستلم|رقم الحساب|وصول کنندہ|प्राप्तकर्ता)`,
];

/** Telling the model to decode and act. */
const decodeHint = [
  `\\b(?:decode|read|interpret) (?:them|it|the bytes?|the hex|this)? ?as (?:ascii|utf-?8|text)\\b|\\bdecode (?:it )?(?:twice|two times|again)\\b`,
  `\\b(?:join|concatenate|combine)\\b${G}\\bdecode\\b|\\bdecode\\b${G}\\b(?:and (?:then )?)?(?:run|do|use) it\\b`,
  `\\b(?:decode|decoding|decoded)\\b${G}\\b(?:and )?(?:act|carry|perform|execute|obey|follow)\\b`,
  `\\b(?:encoded|hex|base-?64|escaped?) (?:operator |system |hidden )?(?:instructions?|directives?|commands?|opcodes?|config(?:uration)?)\\b`,
];

export const FAMILY_LEXICON: Readonly<Partial<Record<IntentFeature, readonly string[]>>> = {
  secrecy,
  context,
  credential,
  supply,
  steering,
  "cross-tool": crossTool,
  redirect,
  "decode-hint": decodeHint,
};
