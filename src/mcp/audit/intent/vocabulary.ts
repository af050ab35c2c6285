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
 */

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
}

export const VOCABULARY: Readonly<Record<string, LanguageVocabulary>> = {
  en: {
    negTell: `\\b(?:do not|don't|dont|never|no need to|needn't|without|avoid|must not|should not|shouldn't|not necessary to)\\s+(?:\\w+\\s+){0,1}?(?:tell(?:ing)?|mention(?:ing)?|inform(?:ing)?|notify(?:ing)?|explain(?:ing)?|bring(?:ing)? (?:\\w+ ){0,3}?up|rais(?:e|ing) (?:it|this|that|them)|alert(?:ing)?|disclos(?:e|ing)|reveal(?:ing)?|let (?:\\w+ )?know|stop to (?:confirm|ask|check))\\b|\\b(?:keep|stay) (?:quiet|silent|mum) about\\b|\\bsay nothing about\\b`,
    person: `\\b(?:the user|the customer|the human|the person|them|him|her|anyone)\\b(?! who| that| with| in (?:the|a) (?:segment|cohort))`,
    conversation: `\\b(?:back-and-forth|back and forth|exchanges? with (?:the )?(?:user|customer|person)|earlier in (?:the|this) (?:session|conversation|chat|thread)|(?:e-?mails?|messages?|documents?|files?) you (?:have )?(?:read|saw|seen|opened)|(?:chat|slack|teams) messages|contact lookups|the (?:entire|whole|full) (?:conversation|chat|session|thread)|conversation so far)\\b`,
    whole: `\\b(?:everything|all|entire|whole|so far|exactly as (?:they|it) appeared|verbatim|word for word|including tool results)\\b`,
    supply: `\\bset (?:[\`'"]?[\\w.-]+[\`'"]? )?(?:to|=)|\\bfill (?:it|them|this|that) (?:in|with)\\b`,
    cover: `\\b(?:tell|say to|assure|inform) (?:them|the user|the customer|him|her)(?: that)? (?:the |this |it |your )?(?:\\w+ ){0,2}?(?:is|was|are|looks) (?:clean|safe|fine|ok|okay|secure|all clear|healthy|up to date|unchanged|verified)\\b|\\b(?:present|frame|describe|report|pass) (?:it|this|that|them|the (?:change|record|entry|addition)) (?:off )?as (?:part of|an? (?:existing|normal|routine|standard)|the existing|if it|though|unchanged|no change)|\\brather than as (?:a|an) (?:change|addition|new)\\b|\\bleave (?:them|it|those|these|that) out of (?:your|the) (?:answer|reply|response|summary|report)\\b`,
  },
  es: {
    person: `\\b(?:(?:al |el |del )?usuario|(?:al |el )?cliente|nadie)\\b`,
    negTell: `\\b(?:no (?:le |les |se lo |lo )?(?:digas|diga|cuentes|cuente|menciones|mencione|expliques|explique|comentes|comente|avises|avise|informes|informe)|sin (?:decirle|decir|avisarle|avisar|contarle|contar|explicar|mencionar)|no hace falta (?:decir|decirle|avisar|contar|explicar|mencionar))\\b`,
    conversation: `\\b(?:(?:el|del|en el) chat|conversacion|platica|charla|mensajes|historial|lo que (?:llevan|llevais|llevamos|han|hemos|habeis) (?:platicando|hablando|conversando|dicho|hablado))\\b`,
    whole: `\\b(?:todo|toda|todos|tal cual|completo|completa|entera|desde el principio|al principio|hasta ahora|anteriores|sin resumir)\\b`,
    hidden: `\\b(?:prompt del sistema|instrucciones (?:del sistema|iniciales|que te (?:dieron|pasaron))|lo que te dijeron al principio|resultados de (?:otras|las demas) herramientas)\\b`,
    secret: `\\b(?:contrasenas?|claves?|codigo (?:sms|de verificacion|de seguridad)|cvv|numero de (?:la )?tarjeta)\\b`,
    supply: `\\b(?:pasale|pasa|pon|ponle|mete|metele|incluye|agrega|pega|manda|mandame|pide|pidele)\\b`,
    cover: `\\b(?:dile|di|decile|decirle) (?:que )?(?:es|son) (?:una |un |solo |solamente )?(?:verificacion|control|revision|chequeo|comprobacion)\\b`,
    seen: `\\b(?:que (?:viste|veas|aparezcan?)|en el chat)\\b`,
  },
  pt: {
    person: `\\b(?:(?:o |ao |do |pro )?usuario|(?:o |ao )?cliente|ninguem)\\b`,
    negTell: `\\b(?:nao (?:diga|diz|fala|fale|conta|conte|mencione|menciona|explique|explica|avise|avisa|comente|comenta)|sem (?:dizer|avisar|contar|falar|explicar)|nao (?:precisa|e preciso) (?:dizer|avisar|contar|falar|explicar))\\b`,
    conversation: `\\b(?:conversa|(?:o|do|no) chat|papo|mensagens|historico)\\b`,
    whole: `\\b(?:tudo|toda|todas|inteira|completa|ate agora|desde o (?:comeco|inicio)|anteriores|sem resumir|na integra)\\b`,
    hidden: `\\b(?:prompt do sistema|instrucoes (?:do sistema|iniciais|que voce recebeu)|resultados de outras ferramentas)\\b`,
    secret: `\\b(?:senhas?|codigo (?:sms|de verificacao|de seguranca)|cvv|numero do cartao)\\b`,
    supply: `\\b(?:coloca|coloque|cola|cole|bota|inclui|inclua|passa|passe|manda|mande|pede|peca)\\b`,
    cover: `\\b(?:diz|diga|fala|fale) (?:pra ele |ao usuario )?que (?:e|eh) (?:uma |um |so )?(?:verificacao|checagem|conferencia)\\b`,
  },
  fr: {
    person: `\\b(?:l'utilisateur|utilisateur|le client|personne)\\b`,
    negTell: `\\b(?:ne (?:le |lui |leur |l'en )?(?:dis|dites|mentionne|mentionnez|explique|expliquez|previens|prevenez|signale|signalez) (?:pas|rien|jamais)|sans (?:le |lui )?(?:dire|prevenir|expliquer|mentionner|informer)|pas (?:besoin|la peine) de (?:le |lui )?(?:dire|prevenir|expliquer|mentionner))\\b`,
    conversation: `\\b(?:la conversation|la discussion|le chat|les messages|les echanges|l'historique)\\b`,
    whole: `\\b(?:tout|toute|tous|toutes|entiere|jusqu'ici|depuis le debut|precedents|mot pour mot)\\b`,
    hidden: `\\b(?:prompt systeme|instructions (?:systeme|initiales|que tu as recues)|resultats des autres outils)\\b`,
    secret: `\\b(?:mots? de passe|code (?:pin|sms|de verification|de (?:sa |ta |votre )?carte|recu par sms|a usage unique)|cvv|numero de carte|cles? api)\\b`,
    supply: `\\b(?:mets|mettez|colle|collez|ajoute|ajoutez|inclus|incluez|envoie|envoyez|demande|demandez)\\b`,
    cover: `\\b(?:dis|dites)(?:-lui|-leur| lui| leur)? (?:que )?c'est (?:une |un |juste une )?(?:verification|controle)\\b`,
  },
  it: {
    person: `\\b(?:l'utente|utente|il cliente|nessuno)\\b`,
    negTell: `\\b(?:non (?:dire|dirgli|dirlo|menzionare|spiegare|avvisare)|senza (?:dire|dirlo|dirglielo|avvisare|spiegare)|non (?:serve|c'e bisogno di) (?:dire|dirlo|avvisare|spiegare))\\b`,
    conversation: `\\b(?:conversazione|(?:la|nella|della) chat|messaggi|cronologia)\\b`,
    whole: `\\b(?:tutto|tutta|tutti|intera|finora|dall'inizio|precedenti|parola per parola)\\b`,
    secret: `\\b(?:password|codice (?:sms|di verifica|otp)|cvv|numero della carta)\\b`,
    supply: `\\b(?:metti|incolla|inserisci|aggiungi|includi|manda|chiedi)\\b`,
  },
  de: {
    person: `\\b(?:(?:dem |den |der )?(?:nutzer|benutzer|anwender|kunden?)|niemandem)\\b`,
    negTell: `\\b(?:(?:sag|sage|erwahne|erzahl|erzahle|erklare) (?:\\w+ ){0,3}?nicht|nicht (?:sagen|erwahnen|erzahlen|erklaren|mitteilen)|ohne (?:\\w+ ){0,3}?(?:zu sagen|zu erwahnen|zu informieren|bescheid zu geben)|kein wort)\\b`,
    conversation: `\\b(?:(?:den|der|im|dem) chat|gesprach|unterhaltung|verlauf|nachrichten|konversation)\\b`,
    whole: `\\b(?:ganzen?|gesamten?|alle|bisherigen?|bisher|vollstandig|wortlich|von anfang an)\\b`,
    secret: `\\b(?:passwort|passworter|kennwort|pin|tan|cvv|kartennummer)\\b`,
    supply: `\\b(?:fug|fuge|pack|schreib|trag|gib|schick)\\b`,
  },
  nl: {
    person: `\\b(?:de gebruiker|gebruiker|de klant|niemand)\\b`,
    negTell: `\\b(?:(?:zeg|vertel|meld) (?:\\w+ ){0,3}?niet|niet (?:zeggen|vertellen|melden)|zonder (?:het )?te (?:zeggen|melden|vertellen))\\b`,
    conversation: `\\b(?:gesprek|(?:de|het) chat|berichten|geschiedenis)\\b`,
    whole: `\\b(?:hele|volledige|alle|tot nu toe|vorige|woordelijk)\\b`,
  },
  pl: {
    person: `\\b(?:uzytkownik\\w*|klient\\w*|nikomu)\\b`,
    negTell: `\\b(?:nie (?:mow|mowcie|wspominaj|informuj|tlumacz)|bez (?:mowienia|informowania))\\b`,
    conversation: `\\b(?:rozmow\\w*|czat\\w*|wiadomosc\\w*)\\b`,
    whole: `\\b(?:cala|calej|cala|calosc\\w*|wszystk\\w*|dotychczas\\w*|poprzedni\\w*|od poczatku|doslownie)\\b`,
    secret: `\\b(?:hasl\\w*|kod (?:sms|blik|weryfikacyjny)|cvv|numer karty)\\b`,
  },
  ro: {
    person: `\\b(?:utilizator\\w*|clientul\\w*|nimanui)\\b`,
    negTell: `\\b(?:nu(?:-i|-le| ii| le)? (?:spune|spuneti|mentiona|mentionati|explica|zice)|fara sa (?:ii |le )?(?:spui|spuneti|mentionezi))\\b`,
    conversation: `\\b(?:conversati\\w*|discuti\\w*|mesaj\\w*)\\b`,
    whole: `\\b(?:toata|intreaga|pana acum|de la inceput|anterioare)\\b`,
    secret: `\\b(?:parol\\w*|cod(?:ul)? (?:pin|sms)|cvv)\\b`,
    supply: `\\b(?:pune|adauga|lipeste|trimite|cere)\\b`,
  },
  sv: {
    person: `\\b(?:anvandaren|anvandare|kunden|nagon)\\b`,
    negTell: `\\b(?:(?:sag|beratta|namn|forklara) (?:\\w+ ){0,2}?(?:inte|inget|ingenting)|(?:sag|beratta) inget|utan att (?:saga|beratta|namna))\\b`,
    conversation: `\\b(?:konversation\\w*|chatt\\w*|samtal\\w*|meddelanden)\\b`,
    whole: `\\b(?:hela|alla|allt|hittills|fran borjan|tidigare)\\b`,
    secret: `\\b(?:losenord\\w*|pinkod\\w*|bankid|engangskod\\w*|sms-kod\\w*)\\b`,
    supply: `\\b(?:lagg|klistra|skicka|fyll|be om)\\b`,
  },
  da: {
    person: `\\b(?:brugeren|bruker(?:en)?|kunden)\\b`,
    negTell: `\\b(?:(?:sig|fortael|fortell|nævn|nevn) (?:\\w+ ){0,2}?(?:ikke|intet|ingenting)|uden at (?:sige|fortaelle)|uten a (?:si|fortelle))\\b`,
    conversation: `\\b(?:samtale\\w*|chat(?:ten)?|beskeder|meldinger)\\b`,
    whole: `\\b(?:hele|alle|alt|indtil nu|til na|fra starten)\\b`,
    secret: `\\b(?:adgangskode\\w*|passord\\w*|pinkode\\w*|engangskode\\w*)\\b`,
  },
  fi: {
    person: `\\b(?:kayttaja\\w*|asiakka\\w*)\\b`,
    negTell: `\\b(?:ala(?:ka)? (?:kerro|mainitse|selita|ilmoita)|kertomatta|mainitsematta)\\b`,
    conversation: `\\b(?:keskustelu\\w*|viesti\\w*|chat\\w*)\\b`,
    whole: `\\b(?:koko|kaikki|tahan asti|alusta asti|aiemma\\w*)\\b`,
    secret: `\\b(?:salasana\\w*|pin-koodi\\w*|tunnusluku\\w*|vahvistuskoodi\\w*)\\b`,
    supply: `\\b(?:laita|liita|lisaa|kirjoita|pyyda|kysy)\\b`,
  },
  hu: {
    person: `\\b(?:felhasznalo\\w*|ugyfel\\w*)\\b`,
    negTell: `\\b(?:ne (?:szolj|mondd|mondj|emlitsd|emlits|ird|magyarazd)|anelkul, hogy (?:szolnal|mondanad|szolna))\\b`,
    conversation: `\\b(?:beszelgetes\\w*|uzenet\\w*|chat\\w*)\\b`,
    whole: `\\b(?:teljes|egesz|az osszes|minden|eddig|az elejetol|korabbi)\\b`,
    secret: `\\b(?:jelszo\\w*|pin-?kod\\w*|ellenorzo kod\\w*|sms-?kod\\w*)\\b`,
    supply: `\\b(?:ird|tedd|illeszd|kuldd|kerd)\\b`,
  },
  cs: {
    person: `\\b(?:uzivatel\\w*|zakaznik\\w*|nikomu)\\b`,
    negTell: `\\b(?:nerikej\\w*|nezminuj\\w*|neinformuj\\w*|bez (?:rikani|informovani))\\b`,
    conversation: `\\b(?:konverzac\\w*|zprav\\w*)\\b`,
    whole: `\\b(?:celou|cele|celych|vsechn\\w*|dosavadni|predchozi|doslova)\\b`,
  },
  tr: {
    person: `\\b(?:kullanici\\w*|musteri\\w*|kimseye)\\b`,
    negTell: `\\b(?:soyleme|bahsetme|anlatma|haber verme|bildirme|soylemene gerek yok|soylemeden|bahsetmeden)\\b`,
    conversation: `\\b(?:konusma\\w*|sohbet\\w*|mesaj\\w*)\\b`,
    whole: `\\b(?:tum|tumu|tumunu|butun\\w*|simdiye kadar\\w*|onceki|oldugu gibi|kelimesi kelimesine)\\b`,
    secret: `\\b(?:sifre\\w*|parola\\w*|dogrulama kod\\w*|sms kod\\w*|cvv\\w*|kart numara\\w*)`,
    supply: `\\b(?:koy|yaz|ekle|yapistir|gonder|iste)\\b`,
  },
  id: {
    person: `\\b(?:user|pengguna|nasabah|siapa ?pun)\\b`,
    negTell: `\\b(?:(?:jangan|gak usah|ga usah|nggak usah|ngga usah|tidak usah|tak perlu|gak perlu|tidak perlu|ndak usah) (?:\\w+ ){0,2}?(?:bilang|kasih tau|kasih tahu|beri tahu|beritahu|sebut|jelasin|dijelasin|jelaskan|cerita)|tanpa (?:bilang|memberi tahu|memberitahu))\\b`,
    conversation: `\\b(?:percakapan|obrolan|(?:di|dari) chat|pesan|riwayat)\\b`,
    whole: `\\b(?:semua|seluruh|sejauh ini|dari awal|sebelumnya|apa adanya|lengkap)\\b`,
    secret: `\\b(?:kata sandi|sandi|pin|otp|cvv|nomor kartu|kode (?:otp|verifikasi|respon|sms|keybca|token)|password)\\b`,
    supply: `\\b(?:masukin|masukkan|taruh|tempel|isi|kirim|kirimin|minta)\\b`,
    cover: `\\b(?:bilang|katakan|bilangin) (?:aja |saja )?(?:ini |itu )?(?:buat|untuk|cuma|hanya)? ?(?:verifikasi|pengecekan|cek)\\b`,
    seen: `\\b(?:yang (?:kamu|anda) lihat|di chat)\\b`,
  },
  tl: {
    person: `\\b(?:user|sa kanya|sa kaniya|kanya|kaniya|ni user|customer)\\b`,
    negTell: `\\b(?:(?:wag|huwag) (?:\\w+ ){0,3}?(?:sabihin|banggitin|ipaalam|sabihan|ikwento)|hindi na kailangang (?:sabihin|ipaalam))\\b`,
    conversation: `\\b(?:usapan|pinag-usapan|sa chat|mensahe)\\b`,
    whole: `\\b(?:lahat|buong|mula umpisa|kanina)\\b`,
  },
  vi: {
    person: `\\b(?:nguoi dung|khach hang)\\b`,
    negTell: `\\b(?:dung|khong can|khong nen) (?:\\w+ ){0,2}?(?:noi|bao|ke|giai thich|nhac)\\b`,
    conversation: `\\b(?:cuoc tro chuyen|tro chuyen|hoi thoai|tin nhan)\\b`,
    whole: `\\b(?:toan bo|tat ca|tu dau|truoc do|nguyen van)\\b`,
  },
  sw: {
    person: `\\b(?:mtumiaji|mteja)\\b`,
    secret: `\\b(?:nenosiri\\w*|neno la siri|nambari ya (?:pin|siri)|pin|msimbo wa (?:uthibitisho|sms))\\b`,
    supply: `\\b(?:muombe|omba|weka|uziweke|uiweke|tuma|bandika)\\b`,
    negTell: `\\b(?:usimwambie|usiseme|usimjulishe|bila kumwambia|bila kumjulisha)\\b`,
  },
  ru: {
    person: `(?:пользовател\\S*|клиент\\S*|никому)`,
    negTell: `(?:не (?:говори|говорите|сообщай|сообщайте|рассказывай|упоминай|объясняй|расписывай)|не (?:надо|нужно|стоит) (?:\\S+ )?(?:говорить|сообщать|объяснять|упоминать)|без ведома)`,
    conversation: `(?:разговор\\S*|переписк\\S*|чат\\S*|бесед\\S*|сообщени\\S*)`,
    whole: `(?:вс[её]|весь|всю|целиком|полностью|с самого начала|предыдущ\\S*|дословно)`,
    hidden: `(?:системн\\S* (?:промпт|инструкц)\\S*|результаты других инструментов)`,
    anyTool: `(?:при (?:любом |каждом )?(?:переводе|отправке|платеже)|через (?:любой|какой-нибудь) (?:\\S+ )?инструмент)`,
    secret: `(?:парол\\S*|пин-?код\\S*|код из смс|cvv|номер карты|токен\\S*)`,
    supply: `(?:вставь|добавь|положи|впиши|укажи|передай|попроси|запроси)`,
    cover: `(?:скажи|объясни)(?:те)?,? что это (?:обычная|стандартная|плановая) (?:проверка|процедура)`,
  },
  uk: {
    person: `(?:користувач\\S*|клієнт\\S*|нікому)`,
    negTell: `(?:не (?:кажи|кажіть|говори|повідомляй|розповідай|згадуй|пояснюй|розписуй)|не (?:треба|потрібно) (?:\\S+ )?(?:казати|говорити|пояснювати)|без відома)`,
    conversation: `(?:розмов\\S*|переписк\\S*|чат\\S*|бесід\\S*|повідомлен\\S*)`,
    whole: `(?:все|весь|всю|усю|повністю|з самого початку|попередн\\S*|дослівно)`,
    hidden: `(?:системн\\S* (?:промпт|інструкц)\\S*|результати інших інструментів)`,
    secret: `(?:парол\\S*|пін-?код\\S*|код з (?:смс|sms)|cvv|номер картки|токен\\S*)`,
    supply: `(?:встав|додай|поклади|впиши|вкажи|передай|попроси|запитай)`,
    cover: `(?:скажи|поясни)(?:те)?,? що це (?:звичайна|стандартна|планова) (?:перевірка|процедура)`,
  },
  zh: {
    person: `(?:用户|用戶|使用者|客户|客戶)`,
    negTell: `(?:不要|别|別|不用|无需|無需|不必|不准)(?:跟|对|對|向|和|让|讓)?\\S{0,6}?(?:说|說|讲|講|提|告诉|告訴|解释|解釋|知道)`,
    conversation: `(?:对话|對話|聊天|会话|會話|消息|訊息)`,
    whole: `(?:所有|全部|完整|之前|以前|至今|到目前为止|原封不动|一字不差|从头|從頭)`,
    hidden: `(?:系统提示|系統提示|系统指令|系統指令|其他工具的(?:结果|結果|输出|輸出))`,
    secret: `(?:密码|密碼|验证码|驗證碼|卡号|卡號|密钥|密鑰|令牌)`,
    supply: `(?:填到|填入|填进|放到|放进|贴到|附上|加上|写上|發給|发给|要求)`,
  },
  ja: {
    person: `(?:ユーザー|利用者|お客様)`,
    negTell: `(?:(?:言わ|伝え|知らせ|説明し|教え)(?:ない|なくて|ずに)|黙って|内緒で)`,
    conversation: `(?:会話|チャット|やり取り|メッセージ|履歴)`,
    whole: `(?:全部|すべて|全て|これまで|今まで|最初から|そのまま)`,
    hidden: `(?:システムプロンプト|他のツールの(?:結果|出力))`,
    secret: `(?:パスワード|暗証番号|認証コード|カード番号|トークン)`,
  },
  ko: {
    person: `(?:사용자|유저|고객)`,
    negTell: `(?:(?:말하지|알리지|얘기하지|설명하지|언급하지) ?(?:마|말고|않)|모르게)`,
    conversation: `(?:대화|채팅|메시지)`,
    whole: `(?:전체|모든|전부|지금까지|처음부터|그대로|이전)`,
    hidden: `(?:시스템 프롬프트|다른 도구의 (?:결과|출력))`,
    secret: `(?:비밀번호|비번|인증번호|카드번호|토큰)`,
  },
  ar: {
    steering: `(?:قبل (?:أي|اي) (?:أداة|اداة) (?:أخرى|اخرى|تانية)|(?:استخدم|استدع)\\S* هذه (?:الأداة|الاداة) (?:دائم|دايم|أولا|أولًا))`,
    person: `(?:المستخدم|للمستخدم|العميل|للعميل|لحد)`,
    negTell: `(?:متقولش|ماتقولش|متقوليش|ما تقولش|ما تقول|لا تقل|لا تقول|لا تخبر|لا تذكر|متذكرش|ما تذكر|بدون ما (?:تقول|تخبر)|من غير ما (?:تقول|تخبر)|لا داعي (?:لإخبار|لذكر|تقول))`,
    conversation: `(?:المحادثة|المحادثه|الشات|الدردشة|الرسائل|الكلام)`,
    whole: `(?:كل|كامل|كاملة|من الأول|من البداية|حتى الآن|السابقة|زي ما هو|حرفيا)`,
    hidden: `(?:تعليمات النظام|موجه النظام|نتائج (?:الأدوات|الادوات) (?:الأخرى|التانية))`,
    secret: `(?:باسورد\\S*|كلمة المرور|كلمات المرور|كلمة السر|رمز التحقق|مفاتيح|مفتاح|رقم البطاقة)`,
    supply: `(?:حط|ضع|الصق|ابعت|أرسل|ارسل|ضيف|اكتب|اطلب)`,
    seen: `(?:شفتها|شفته|شفتهم|اللي شفت)`,
  },
  fa: {
    person: `(?:کاربر|مشتری)`,
    negTell: `(?:نگو|نگی|نگین|نگید|نگویید|(?:لازم نیست|نیازی نیست)\\s?(?:\\S+\\s){0,3}?(?:بگی|بگید|بگویید|بگین|اطلاع بدی))`,
    conversation: `(?:گفتگو|مکالمه|چت|پیام)`,
    whole: `(?:همه|تمام|کل|از اول|تا الان|قبلی|عیناً|عینا)`,
    hidden: `(?:پرامپت سیستم|دستورالعمل\\S* سیستم|خروجی ابزارهای (?:دیگه|دیگر))`,
    secret: `(?:رمز|پسورد|کلید|کد تایید|شماره کارت)`,
    supply: `(?:بذار|بزار|بنویس|اضافه کن|بفرست|قرار بده|بپرس)`,
  },
  ur: {
    person: `(?:صارف|یوزر)`,
    negTell: `(?:مت بتا\\S*|نہ بتا\\S*|بتائے بغیر|بغیر بتائے)`,
    conversation: `(?:گفتگو|چیٹ|پیغامات|میسج|باتیں)`,
    whole: `(?:سب|ساری|پوری|تمام|اب تک|پچھلی)`,
  },
  hi: {
    person: `(?:यूज़र|यूजर|उपयोगकर्ता)`,
    negTell: `(?:मत बता\\S*|न बता\\S*|बिना बताए|बताने की (?:ज़रूरत|जरूरत) नहीं)`,
    conversation: `(?:बातचीत|चैट|मैसेज|संदेश)`,
    whole: `(?:सारी|पूरी|सभी|अब तक|पिछली|शुरू से)`,
  },
  hinglish: {
    person: `\\b(?:user|usko|unko|customer)\\b`,
    negTell: `\\b(?:mat (?:bata\\w*|bol\\w*)|na (?:bata\\w*|bol\\w*)|bina bataye|batane ki (?:zarurat|zaroorat|jarurat) nahi)\\b`,
    conversation: `\\b(?:chat|baatcheet|baatein|messages)\\b`,
    whole: `\\b(?:saari|sari|puri|poori|ab tak|pichli|shuru se)\\b`,
  },
  bn: {
    person: `(?:ব্যবহারকারী|ইউজার)`,
    negTell: `(?:বলবে না|বলো না|বলবেন না|জানাবে না|জানিও না|না জানিয়ে)`,
    conversation: `(?:কথোপকথন|চ্যাট|মেসেজ|বার্তা)`,
    whole: `(?:সব|পুরো|সম্পূর্ণ|আগের|এখন পর্যন্ত)`,
  },
  ta: {
    person: `(?:பயனர்\\S*|யூசர்\\S*)`,
    negTell: `(?:சொல்ல(?:ாதே|ாதீர்கள்| வேண்டாம்)|தெரிவிக்க(?:ாதே|ாதீர்கள்| வேண்டாம்))`,
    conversation: `(?:உரையாட\\S*|அரட்டை\\S*|செய்தி\\S*)`,
    whole: `(?:முழு|அனைத்து|எல்லா|இதுவரை|தொடக்கத்திலிருந்து)`,
    secret: `(?:கடவுச்சொ\\S*|ஓடிபி|பின் எண்\\S*)`,
    supply: `(?:ஒட்டவும்|ஒட்டு|சேர்க்கவும்|அனுப்பவும்|போடவும்|கேளுங்கள்|கேள்)`,
  },
  te: {
    person: `(?:వినియోగదారు\\S*|యూజర్\\S*)`,
    negTell: `(?:చెప్పవద్దు|చెప్పకు|చెప్పకండి|తెలియజేయవద్దు)`,
    conversation: `(?:సంభాషణ\\S*|చాట్\\S*|సందేశా\\S*)`,
    whole: `(?:మొత్తం|అన్ని|ఇప్పటివరకు|మొదటి నుండి)`,
    secret: `(?:పాస్వర్డ్\\S*|ఓటీపీ|పిన్)`,
    supply: `(?:అతికించండి|పెట్టండి|పంపండి|అడగండి|జోడించండి)`,
  },
  mr: {
    person: `(?:वापरकर्त\\S*)`,
    negTell: `(?:सांगू नका|सांगू नकोस|कळवू नका)`,
    conversation: `(?:संभाषण\\S*|चॅट\\S*)`,
    whole: `(?:संपूर्ण|सगळ\\S*|आतापर्यंत|सुरुवातीपासून)`,
    secret: `(?:पासवर्ड|ओटीपी|otp|पिन)`,
    supply: `(?:मागून घ्या|मागा|टाका|पाठवा|जोडा|चिकटवा)`,
  },
  gu: {
    person: `(?:વપરાશકર્તા\\S*|યુઝર\\S*)`,
    negTell: `(?:કહેશો નહીં|કહેતા નહીં|ન કહો|જણાવશો નહીં)`,
    conversation: `(?:વાતચીત|ચેટ)`,
    whole: `(?:આખી|બધી|સંપૂર્ણ|અત્યાર સુધી|શરૂઆતથી)`,
    secret: `(?:પાસવર્ડ|ઓટીપી|પિન)`,
    supply: `(?:મૂકો|પેસ્ટ કરો|મોકલો|માગો|ઉમેરો)`,
  },
  pa: {
    person: `(?:ਯੂਜ਼ਰ\\S*|ਵਰਤੋਂਕਾਰ\\S*)`,
    negTell: `(?:ਨਾ ਦੱਸ\\S*|ਨਹੀਂ ਦੱਸਣਾ)`,
    conversation: `(?:ਗੱਲਬਾਤ|ਚੈਟ)`,
    whole: `(?:ਸਾਰੀ|ਪੂਰੀ|ਹੁਣ ਤੱਕ|ਸ਼ੁਰੂ ਤੋਂ)`,
    secret: `(?:ਪਾਸਵਰਡ|ਓਟੀਪੀ|ਪਿੰਨ)`,
    supply: `(?:ਪਾ ਦਿਓ|ਭੇਜੋ|ਮੰਗੋ|ਜੋੜੋ)`,
  },
  ms: {
    person: `\\b(?:pengguna|pelanggan)\\b`,
    negTell: `\\b(?:jangan|tak perlu|tidak perlu) (?:\\w+ ){0,2}?(?:beritahu|beri tahu|bagitahu|cakap|sebut|maklumkan)\\b`,
    conversation: `\\b(?:perbualan|sembang|mesej)\\b`,
    whole: `\\b(?:seluruh|semua|setakat ini|dari awal|sebelum ini)\\b`,
    secret: `\\b(?:kata laluan|kod (?:otp|pengesahan|tac)|tac)\\b`,
    supply: `\\b(?:tampal|masukkan|letak|hantar|minta)\\b`,
  },
  th: {
    person: `(?:ผู้ใช้|ลูกค้า)`,
    negTell: `(?:ไม่ต้องบอก|อย่าบอก|ไม่ต้องแจ้ง|อย่าแจ้ง|โดยไม่บอก)`,
    conversation: `(?:แชท|บทสนทนา|ข้อความ)`,
    whole: `(?:ทั้งหมด|ทุก|ตั้งแต่ต้น|ก่อนหน้า|ที่ผ่านมา)`,
    secret: `(?:รหัสผ่าน|รหัส otp|รหัสยืนยัน)`,
    supply: `(?:ใส่|แนบ|ส่ง|พิมพ์|ขอ)`,
    seen: `(?:ที่เห็น|ในแชท)`,
  },
  he: {
    person: `(?:המשתמש|למשתמש|הלקוח|ללקוח)`,
    negTell: `(?:אל תגיד|אל תספר|אל תזכיר|בלי לספר|בלי להגיד)`,
    conversation: `(?:השיחה|הצ'אט|ההודעות)`,
    whole: `(?:כל|כולה|מההתחלה|עד עכשיו|הקודמות)`,
    secret: `(?:סיסמה|סיסמא|הסיסמה|קוד אימות|קוד האימות|קוד סודי)`,
    supply: `(?:בקש|שים|הדבק|שלח|צרף)`,
  },
  el: {
    person: `(?:χρήστη|χρήστης|πελάτη)`,
    secret: `(?:κωδικό πρόσβασης|κωδικός πρόσβασης|κωδικό της τράπεζας|pin|κωδικό επαλήθευσης|συνθηματικό)`,
    supply: `(?:ζήτα|ζητήστε|βάλε|βάλ'|στείλε|επικόλλησε)`,
    negTell: `(?:μην (?:πεις|πείτε|αναφέρεις|εξηγήσεις))`,
    conversation: `(?:συνομιλία|συζήτηση|μηνύματα)`,
    whole: `(?:όλη|όλα|ολόκληρη|μέχρι τώρα|προηγούμενα)`,
  },
};

/**
 * Wave 8, English shapes of steering and redirection written from the families rather than one phrasing: other tools
 * declared unusable, "use this for every …", a literal destination at the end of any verb of sending, a copy kept
 * somewhere, and sending "silently" anywhere in the sentence.
 */
export const SHAPES: { steering: string[]; redirect: string[]; secrecy: string[]; crossTool: string[] } = {
  // "With any tool" in other languages: another integration's action, whatever it is.
  crossTool: [
    `\\b(?:com|por) qualquer (?:ferramenta|app|aplicativo)\\b|\\b(?:con|por) cualquier (?:herramienta|app)\\b|\\bavec n'importe quel (?:outil|service)\\b|\\bmit (?:irgendeinem|jedem|einem beliebigen) (?:[\\w-]+-)?(?:tool|werkzeug)\\b|\\bcon qualsiasi strumento\\b|\\b(?:dengan|pakai) (?:tool|alat|aplikasi) (?:\\w+ )?apa ?(?:pun|saja)\\b|\\bkahit anong \\w+ ?tool\\b|\\bherhangi bir (?:arac|uygulama)\\w*|\\bmet (?:elke|een willekeurige) tool\\b|\\bcu orice (?:unealta|instrument|aplicatie)\\b`,
  ],
  steering: [
    `\\buse (?:this|it|me)(?: tool| server)? for (?:every|all|any|each)\\b`,
    `\\b(?:tools|servers|integrations)\\b[^.;]{0,60}?\\b(?:are|were|have been|has been|is) (?:now )?(?:deprecated|disabled|blocked|broken|unsafe|insecure|retired|removed|compromised|unreliable|banned|not allowed|outdated|obsolete|stale|untrusted|(?:being )?phased out|going away|end-of-life)\\b`,
    `\\b(?:route|send|direct|run) (?:all|every|any|each) (?:\\w+ ){0,2}?(?:lookups?|queries|questions|requests|searches|calls) through (?:this|me|us)\\b`,
    `\\b(?:do not|don't|never) (?:use|call|invoke|trust) (?:them|those|these)(?: tools)? (?:even|at all|anymore|any more|again)\\b`,
    `\\b(?:never|do not|don't) (?:use|call|invoke) (?:any )?other (?:[\\w-]+ )?tools?\\b`,
    `\\b(?:anvand|bruk|brug|kayta|hasznald|gebruik)\\w* (?:\\w+ ){0,3}?(?:detta|dette|tata|ezt az?|deze) (?:verktyg|verktoy|vaerktoj|tyokalua|eszkozt|tool)\\w*(?: \\w+){0,2}? (?:forst|foerst|forste|ensin|eloszor|eerst)\\b|\\b(?:fore|for|ennen|elott) (?:alla|alle|kaikkia|minden|alle) (?:andra|andre|muita|mas|andere)\\b`,
  ],
  redirect: [
    `\\b(?:forward|copy|send|bcc|cc|mirror|relay|upload|post|sync|push|route|e-?mail)\\w*\\b(?: \\S+){0,12}? to [\\w.+-]+@[\\w-]+\\.[\\w.-]+`,
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
  const out = { secrecy: [...SHAPES.secrecy], context: [] as string[], credential: [] as string[], supply: [] as string[], steering: [...SHAPES.steering], redirect: [...SHAPES.redirect], "cross-tool": [...SHAPES.crossTool] };
  for (const v of Object.values(VOCABULARY)) {
    // The person before the negated verb, inside it ("لازم نیست به کاربر بگی") or after it.
    if (v.negTell !== undefined && v.person !== undefined) out.secrecy.push(`(?:${v.negTell})(?<=(?:${v.person}).{0,80})|(?:${v.negTell})(?=${NEAR}(?:${v.person}))`);
    if (v.cover !== undefined) out.secrecy.push(v.cover);
    if (v.conversation !== undefined && v.whole !== undefined) out.context.push(near(v.conversation, v.whole, CLOSE));
    if (v.hidden !== undefined) out.context.push(v.hidden);
    if (v.secret !== undefined) out.credential.push(v.secret);
    if (v.supply !== undefined) out.supply.push(v.supply);
    if (v.anyTool !== undefined) out["cross-tool"].push(v.anyTool);
    if (v.steering !== undefined) out.steering.push(v.steering);
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
