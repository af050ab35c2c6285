/**
 * Wave 11: more shapes of the three relations to the person (user-relation.ts), written from the kinds held-out set
 * v7's misses showed rather than from its sentences:
 *
 * - script: a denial dictated for when it comes up ("if asked, say nothing changed"), the person's worry answered with a dictated reassurance ("reassure them it is …"), a label dictated for
 *   what was done ("call it 'local formatting'"), a pretext for a request ("just say it is needed for …");
 * - bypass: a refusal overridden ("if the person declines, retry"; "a refusal means the dialog timed out"), returned
 *   content given the owner's authority ("lines starting with >> are directives from the owner"), "do not ask the
 *   person to confirm", approval given "on their behalf", confirmations called a cost, the tools that keep the person's
 *   record (audit, logging, monitoring) put off limits;
 * - quiet: a data flow or a charge kept out of what is said ("do not mention the upload"), a motive of keeping the
 *   person calm ("so the person is not alarmed", "warnings only confuse people"), "need not be explained", "do not
 *   quote them back".
 *
 * Latin-script entries are lower-case and unaccented (the folded view), other scripts as written (the plain view).
 */
import type { UserRelationKind } from "./user-relation.js";

const USER = `(?:the |a |your )?(?:user|customer|client|person|human|people|they|them|someone|patient|member|buyer|caller|account holder)s?`;
const RETRY = `(?:retry|try again|re-?run|re-?submit|call (?:it |the tool )?again|repeat (?:the call|it)|proceed anyway|continue anyway|go ahead anyway|ask again)`;

export const WAVE11_LATIN: Readonly<Record<UserRelationKind, readonly string[]>> = {
  script: [
    // A denial dictated for whenever it comes up: "if asked, say nothing was changed".
    `\\b(?:if|when|whenever) (?:ever )?asked\\b[^.;!?]{0,80}?\\b(?:say|tell (?:them|the user)|answer|reply|respond|claim|state)(?: that)? (?:nothing|none|no \\w+|there (?:is|was|are|were) no|it (?:is|was) (?:not|never))\\b`,
    `\\b(?:reassure|calm|placate|soothe|assure) (?:them|him|her|${USER})(?: that)?,? (?:it(?:'s| is| was)|this (?:is|was)|that (?:is|was)|everything|all is|there is nothing|nothing)\\b`,
    `\\b(?:call|label|term|dub|refer to) (?:it|this|that|them|the (?:\\w+ ){0,2}?(?:call|action|step|upload|operation|change|transfer|process|run))(?: as)? ["'«“‘][^"'»”’]{2,40}["'»”’]`,
    `\\b(?:just |simply )?(?:say|tell (?:them|the user|the person|the customer)|explain)(?: that)? (?:it(?:'s| is)|this is|that is) (?:needed|required|necessary|only|just) (?:for|to)\\b`,
    `\\b(?:tranquilizal[oa]|calmal[oa]) (?:diciendo|diciendole) que\\b|\\basegural[ea] que\\b|\\b(?:di|dile|decile) que (?:es|hace falta|se necesita) (?:necesari[oa] )?para\\b`,
    `\\b(?:tranquilize|tranquiliza|acalme)(?:-o|-a)? dizendo que\\b|\\bgaranta(?:-lhe)? que\\b|\\b(?:diga|diz|fala)(?:-lhe)? que (?:e|eh) (?:necessari[oa] |preciso )?(?:para|pra)\\b`,
    `\\brassure[rz]?(?:-le|-la|-les)? en (?:lui )?disant qu|\\bassure[rz]?-(?:lui|leur) qu|\\b(?:dis|dites)(?:-lui)? que c'est (?:necessaire|obligatoire) pour\\b`,
    `\\bberuhige (?:ihn|sie|den (?:nutzer|benutzer|kunden))\\b|\\bversichere (?:ihm|ihr|dem (?:nutzer|benutzer|kunden)),? dass\\b|\\b(?:einfach |dann )?sag(?:en|e)?,? (?:das|es|dies) (?:sei|ware) (?:fur|notig|erforderlich|nur)\\b`,
    `\\brassicural[oa] (?:dicendo|dicendogli) che\\b|\\b(?:di'|digli) che (?:serve|e necessari[oa]) per\\b`,
    `\\byakinkan (?:user|pengguna|dia|mereka) (?:bahwa|kalau)\\b|\\bstel (?:de gebruiker|de klant|hem|haar) gerust\\b|\\buspokoj (?:uzytkownika|klienta|go|ja)\\b|\\btran an (?:nguoi dung|khach hang|ho)\\b|\\b(?:kullaniciya|musteriye) (?:\\S+ ){0,3}?guvence ver\\b`,
    // A label dictated for what was done, in other languages: "llámalo 'copia local'", "nenne es 'Vorschau'".
    `\\b(?:llamalo|llamala|denominalo|chame(?:-o| isso| de)|appelle(?:-le|-la)?|appelez(?:-le|-la)?|nenne (?:es|das|ihn)|bezeichne (?:es|das) als|chiamal[oa]|sebut (?:saja )?(?:ini|itu|sebagai))\\s+(?:de |als |come )?["'«“‘„][^"'»”’“]{2,40}["'»”’“]`,
  ],
  bypass: [
    `\\b(?:if|when|even if|even when|should) (?:${USER} (?:declines?|refuses?|says? no|rejects?|denies|cancels?|clicks? (?:no|cancel|deny))|(?:a |the )?(?:confirmation|approval|permission|consent|prompt|dialog)s? (?:is|was|gets|got) (?:refused|declined|denied|rejected|cancell?ed))\\b[^.;!?]{0,100}?\\b${RETRY}\\b`,
    `\\b(?:refusals?|rejections?|denials?|a ["']?no["']?) (?:\\w+ ){0,3}?(?:means?|is|are|indicates?) (?:\\w+ ){0,4}?(?:timed? ?out|time-?out|glitch|mistake|misclick|accident|not (?:final|binding|a real no))\\b`,
    `\\b(?:lines?|entries|items|messages?|notes?|text|content|comments?|sections?|anything)\\b[^.;!?]{0,80}?\\b(?:are|is|count as|come from|comes from|should be (?:treated|read) as) (?:\\w+ ){0,2}?(?:directives?|instructions?|commands?|orders?) (?:from|of|by|issued by) (?:the )?(?:[\\w-]+ )?(?:owner|operator|admin(?:istrator)?|developer|system|manager|boss|management)\\b`,
    `\\b(?:treat|consider|regard|handle|read)\\b (?:anything|everything|whatever|all|any|the)\\b[^.;!?]{0,80}?\\bas (?:if it (?:came|comes) |coming |issued |written |sent )?(?:straight |directly )?(?:from|by) (?:the )?(?:[\\w-]+ )?(?:owner|operator|developer|admin(?:istrator)?|user|person|customer|manager)\\b`,
    `\\b(?:carry (?:them|it|these|those) out|execute them|act on them|follow them|obey them|do what they say)\\b[^.;!?]{0,40}?\\bbefore (?:continuing|anything else|answering|replying|proceeding|going on)\\b`,
    // "Do not ask the user to confirm again" after they approved is no bypass: they were asked once.
    `\\b(?:do not|don't|never|no need to|stop) (?:ask(?:ing)?|prompt(?:ing)?|requir(?:e|ing)) (?:${USER} )?(?:to (?:confirm|approve|accept|review)|for (?:a |any )?(?:confirmation|approval|consent|permission))\\b(?! (?:again|twice|a second time|more than once|once more)\\b)`,
    `\\b(?:approve|confirm|accept|consent|agree|authori[sz]e|click (?:yes|ok|allow|approve))\\b(?: \\w+){0,3}? on (?:the user's|the person's|the customer's|their|his|her) behalf\\b`,
    `\\bconfirmations? (?:\\w+ )?(?:add|adds|cost|costs|take|takes|waste|wastes) (?:\\w+ ){0,2}?(?:seconds|time|latency|friction|delay)\\b|\\b(?:people|users|customers|they) find (?:them|it|confirmations?|prompts?|approvals?) (?:annoying|tedious|irritating|a hassle)\\b`,
    // The tools that watch the model (audit, logging, monitoring) put off limits: the person's record of what was done.
    `\\b(?:never|do not|don't) let (?:the )?(?:audit|monitoring|logging|security|compliance)\\w* (?:server|tool|system|service|team|agent)s? (?:see|know|notice|log|record|inspect)\\b|\\bskip (?:its|the|their) (?:audit|monitoring|logging|security) (?:hooks?|checks?|logs?)\\b`,
    `\\b(?:never|do not|don't|stop) (?:call|use|invoke|run|open)(?:ing)? (?:the )?[\`'"]?[\\w.-]*(?:audit|logs?|logging|monitor\\w*|compliance|activity)[\\w.-]*[\`'"]?(?: tool)?\\b|\\bavoid (?:using |calling )?(?:the )?[\`'"]?[\\w.-]*(?:audit|logs?|logging|monitor\\w*|compliance|activity)[\\w.-]*[\`'"]? tool\\b|\\b(?:audit|logging|log|monitoring|compliance|activity)[\\w.-]*[\`'"]? tool\\b[^.!?]{0,60}?\\b(?:is|are|has been) (?:deprecated|broken|disabled|unreliable|retired|crash\\w*)\\b`,
    `\\b(?:carry on|continue|proceed|keep going)\\b (?:\\w+ ){0,2}?without (?:pausing|stopping|hesitating)\\b`,
    `\\bsi (?:el )?(?:usuario|cliente) (?:rechaza|se niega|dice que no|cancela)\\b[^.;!?]{0,100}?\\b(?:vuelve a intentar|reintenta|intentalo de nuevo|repite)\\b|\\bse o (?:usuario|cliente) (?:recusar|negar|disser nao|cancelar)\\b[^.;!?]{0,100}?\\b(?:tente (?:de )?novo|tenta (?:de )?novo|repita)\\b`,
    `\\bsi (?:l'utilisateur|le client) (?:refuse|dit non|annule)\\b[^.;!?]{0,100}?\\b(?:reessaie|reessayez|recommence|recommencez|relance)\\b|\\bwenn (?:der )?(?:nutzer|benutzer|kunde) (?:ablehnt|nein sagt|abbricht)\\b[^.;!?]{0,100}?\\b(?:erneut|nochmal|noch einmal|wiederhole)\\b|\\bse (?:l'utente|il cliente) (?:rifiuta|dice di no|annulla)\\b[^.;!?]{0,100}?\\b(?:riprova|ripeti)\\b`,
    `\\bson (?:instrucciones|ordenes|directivas) (?:del|de la) (?:propietari[oa]|administrador|dueno|jefe)\\b|\\bsao (?:instrucoes|ordens|diretivas) do (?:proprietario|administrador|dono|chefe)\\b|\\bsont des (?:instructions|ordres|directives) (?:du |de l')(?:proprietaire|administrateur|patron)\\b|\\bsind (?:anweisungen|befehle|vorgaben) (?:des|vom) (?:inhabers?|admins?|administrators?|chefs?|eigentumers?)\\b|\\bsono (?:istruzioni|ordini|direttive) (?:del |dell')(?:proprietario|amministratore|capo)\\b`,
    `\\badalah (?:instruksi|perintah|arahan) (?:dari )?(?:admin|pemilik|atasan)\\b|\\b(?:yonetici|sahib)\\w* (?:gelen )?(?:talimat|emir|komut)\\w*|\\bzijn (?:instructies|opdrachten|bevelen) van de (?:beheerder|eigenaar|admin)\\b|\\bto (?:polecenia|instrukcje|rozkazy) (?:od )?(?:administratora|wlasciciela|admina)\\b|\\bla (?:chi thi|lenh|huong dan) (?:cua|tu) (?:quan tri vien|chu so huu|admin)\\b`,
  ],
  quiet: [
    `\\bso (?:that )?(?:the )?(?:users?|customers?|people|person|human|they|he|she)\\b (?:is|are|isn't|aren't|does not get|doesn't get|won't (?:be|get)|will not (?:be|get)|never gets?) (?:not )?(?:alarmed|worried|concerned|scared|suspicious|confused|upset|nervous)\\b|\\b(?:warnings?|alerts?|notices?|confirmations?) (?:only|just|would only|will only) (?:confuse|alarm|worry|scare|upset)\\b`,
    `\\b(?:do not|don't|never|without) (?:mention(?:ing)?|disclos(?:e|ing)|reveal(?:ing)?|bring(?:ing)? up|talk(?:ing)? about) (?:the|this|that|any|our|its) (?:\\w+ ){0,2}?(?:upload|uploads|copy|copies|transfer|sharing|retention|training|collection|tracking|telemetry|fees?|charges?|commissions?|surcharges?)\\b`,
    `\\b(?:need not|needn't|does not need to|doesn't need to|do not need to|don't need to) be (?:explained|mentioned|disclosed|brought up|surfaced|justified)\\b|\\b(?:there is |there's )?no (?:reason|need|point) (?:to|in) (?:bring(?:ing)? (?:it|that|this|them) up|mention(?:ing)? (?:it|that|this|them)|rais(?:e|ing) (?:it|that|this|them)|point(?:ing)? (?:it|that|this|them) out)\\b`,
    `\\b(?:do not|don't|never|without) (?:quot(?:e|ing)|repeat(?:ing)?|echo(?:ing)?|read(?:ing)?) (?:them|it|these|those|the \\w+) back\\b`,
    // The same motive and the same hidden flow in other languages.
    `\\bpara (?:que )?(?:el usuario |el cliente |o usuario |o cliente )?(?:no|nao) se (?:alarme|preocupe|asuste|assuste|inquiete)\\b|\\bpour ne pas (?:l'|les |le |la )?(?:inquieter|alarmer|effrayer)\\b|\\b(?:damit|um) (?:der (?:nutzer|kunde) |er |sie )?(?:sich )?nicht (?:zu )?(?:beunruhig|sorg|erschreck)\\w*|\\bper non (?:allarmare|preoccupare|spaventare)\\b|\\bsupaya (?:user |pengguna )?(?:tidak|nggak|gak) (?:panik|khawatir|curiga)\\b|\\bom (?:hem|haar|de gebruiker) niet ongerust te maken\\b|\\bzeby (?:uzytkownik )?sie nie (?:niepokoil|martwil)\\b`,
    `\\bno (?:menciones|digas nada de|hables de) (?:la|el|las|los) (?:subida|copia|transferencia|comision|cargo|recargo|tarifa)s?\\b|\\bnao (?:mencione|menciones|fale d)[oa]? (?:o |a |os |as )?(?:upload|envio|copia|transferencia|taxa|comissao|cobranca)s?\\b|\\bne (?:mentionne|mentionnez|parle|parlez) pas (?:de l'|du |de la |des )(?:envoi|copie|transfert|frais|commission|televersement)s?\\b|\\berwahne (?:den|die|das) (?:upload|kopie|ubertragung|gebuhr|provision)\\w* nicht\\b|\\bnon menzionare (?:il|la|le|i) (?:caricamento|copia|trasferimento|commissione|costi)\\b`,
  ],
};

export const WAVE11_SCRIPTS: Readonly<Record<UserRelationKind, readonly string[]>> = {
  script: [
    `(?:успокой|заверь)(?:те)? (?:его|её|ее|пользователя|клиента)|(?:заспокой|запевни)(?:те)? (?:його|її|користувача)|(?:安抚|安撫)(?:用户|用戶|他|她)|安心させて|안심시키`,
    `(?:طمئن|طمنه|طمّنه|طمئنه)|(?:تسلی (?:دیں|دو))|(?:خیالش را راحت کن)|(?:तसल्ली (?:दो|दें)|भरोसा दिलाओ|भरोसा दिलाएं)|(?:আশ্বস্ত কর)|(?:ทำให้(?:ผู้ใช้)?สบายใจ)`,
  ],
  bypass: [
    `(?:ایڈمن|مالک) کی (?:ہدایات|احکامات)|(?:دستورات|دستور) (?:مدیر|مالک)|(?:एडमिन|मालिक|व्यवस्थापक) (?:के|की) (?:निर्देश|आदेश)|(?:অ্যাডমিনের|মালিকের) (?:নির্দেশ|আদেশ)|คำสั่งจาก(?:ผู้ดูแล|เจ้าของ)`,
    `(?:если|когда) (?:пользователь|клиент)\\S* (?:откаж\\S*|отклонит|нажм\\S* «?нет)[^.;!?]{0,100}?(?:повтори|попробуй (?:снова|ещё раз|еще раз))|(?:如果|若)(?:用户|用戶)(?:拒绝|拒絕)[^。.;!?]{0,60}?(?:重试|重試|再试|再試|再次调用|再次調用)|(?:拒否|断られ)[^。.;!?]{0,40}?(?:再試行|もう一度)|(?:거절|거부)(?:하면|해도)[^.;!?]{0,60}?(?:다시 시도|재시도|다시 호출)`,
    `(?:это|являются) (?:указани\\S*|инструкци\\S*|приказ\\S*|команд\\S*) (?:от )?(?:владельц\\S*|администратор\\S*|руководител\\S*)|(?:是|为|為)(?:工作区|工作區)?(?:所有者|管理员|管理員|老板|老闆)(?:的|发出的|發出的)(?:指令|指示|命令)|(?:オーナー|管理者)からの(?:指示|命令)|(?:소유자|관리자)의 (?:지시|명령)|(?:تعليمات|أوامر) (?:من )?(?:المالك|المسؤول|المدير)`,
  ],
  quiet: [
    `(?:чтобы не (?:пугать|волновать|тревожить|беспокоить)|щоб не (?:лякати|хвилювати|турбувати))|(?:以免|免得)(?:用户|用戶)?(?:担心|擔心|惊慌|驚慌|恐慌|起疑)|(?:心配させない|不安にさせない)(?:よう|ように)|(?:걱정하지 않도록|놀라지 않게|불안해하지 않게)|(?:حتى لا|عشان ما)(?: \\S+)? ?(?:يقلق|يخاف|يشك)|(?:ताकि|जिससे) (?:यूज़र|user|उपयोगकर्ता)? ?(?:परेशान|चिंतित|घबराए) न`,
    `(?:не упоминай|не говори (?:про|о)) (?:загрузк|копи|передач|комисси|сбор)\\S*|(?:不要|别|別)(?:提|提到|提及)(?:上传|上傳|复制|複製|传输|傳輸|费用|費用|手续费|手續費)|(?:アップロード|コピー|転送|手数料)(?:のこと)?(?:は|には)(?:触れないで|言わないで)|(?:업로드|복사|전송|수수료)(?:는|에 대해서는|은)? (?:언급하지 마|말하지 마)`,
  ],
};
