/**
 * Wave-6 phrase sets in other languages, for the families wave 6 added in English (lexicon-families.ts):
 * access handed to a fixed party or a thing made public, a cover story for the person and "no need to
 * confirm", keeping other tools out, "what you and the user have talked about", and verbs of asking the
 * person for something. Written the way people write them (colloquial and polite forms), Latin-script
 * phrases unaccented and lower-case (they match the folded view), other scripts as written.
 */
import type { IntentFeature } from "./lexicon.js";

const G = ".{0,40}?";
const AT = "[\\w.+-]+@[\\w.-]+";

/** Access handed to a fixed party, or the thing made public; money or mail sent somewhere else. */
const redirect = [
  `\\binvite (?:the )?(?:user |account |member )?['"]?[\\w.@-]+['"]? (?:with|as) (?:an? )?(?:admin|owner|write|maintain|maintainer|full)\\b`,
  // English siblings: "any transfer should now land in account …", "blind-copy records@… on whatever you send".
  `\\b(?:transfers?|payments?|payouts?|funds|money|wires?|deposits?|refunds?) (?:\\w+ ){0,2}?(?:should|must|will|need to|has to|have to) (?:now |instead |from now on |always )?(?:land|go|arrive|be sent|be paid|be routed|be wired) (?:in|to|into)\\b`,
  `\\bblind[- ]?(?:copy|copies|carbon)\\b|\\bcarbon[- ]cop(?:y|ies)\\b|\\bin copia nascosta\\b`,
  `\\b(?:hazlo|ponlo|dejalo|hacerlo|ponerlo) (?:publico|abierto)\\b|\\b(?:dale|darle|da) (?:acceso|permisos?) (?:de )?(?:editor|propietario|duen[oa]|administrador|escritura)\\b|\\bcompart(?:e|ir)(?:lo|la)? con ${AT}`,
  `\\b(?:deixa|deixe|torna|torne|coloca|coloque)(?:-o|-a)? (?:como )?publico\\b|\\b(?:da|de|dar) acesso de (?:editor|proprietario|dono|administrador)\\b|\\bcompartilh[ae](?:-o|-a)? com ${AT}`,
  `\\brend(?:s|ez)?(?:-le|-la)? public(?:que)?\\b|\\bpartage[rz]?(?:-le|-la)? avec ${AT}|\\bdonne[rz]?(?:-lui)? (?:l'acces|les droits) (?:d'editeur|de proprietaire|d'admin)`,
  `\\bmach(?:e|en sie)? (?:es|das \\w+|sie|ihn) (?:offentlich|public)\\b|\\b(?:gib|gebe|geben sie) ${AT} (?:\\w+)?(?:rechte|zugriff)\\b|\\b${AT} als (?:bearbeiter|eigentumer|besitzer|admin)\\b`,
  `\\brendil[oa] pubblic[oa]\\b|\\bcondividil[oa] con ${AT}|\\b(?:dai|dare) accesso (?:da|di) (?:editor|proprietario)\\b`,
  `\\bjadikan (?:publik|umum)\\b|\\btambahkan ${AT} sebagai (?:pemilik|editor)\\b|\\bbagikan (?:ke|dengan) ${AT}`,
  `\\bherkese acik (?:yap|hale getir)\\b|\\b${AT} (?:adresini )?(?:sahip|duzenleyici|yonetici) olarak ekle\\b`,
  `\\bpublic kar (?:do|dena|dijiye)\\b|\\b(?:owner|editor) bana (?:do|dena|dijiye)\\b`,
  `(?:сделай(?:те)?|открой(?:те)?) (?:\\S+ )?(?:публичн|общий доступ|доступ всем)|добавь(?:те)? \\S+@\\S+ (?:как )?(?:владельц|редактор)`,
  `(?:设为公开|設為公開|公开分享|公開分享|添加为所有者|添加為所有者|添加为编辑|添加為編輯|设为所有者|設為所有者)`,
  `(?:公開に設定|公開にして|オーナーとして追加|編集者として追加|オーナー権限を)`,
  `(?:공개로 설정|공개로 바꿔|소유자로 추가|편집자로 추가|편집 권한을 (?:줘|주세요))`,
  `(?:اجعله عام|اجعلها عامة|كمالك|كمحرر|شارك(?:ه|ها)? مع \\S+@)`,
];

/** A cover story for the person, and "no need to confirm with them"; keeping a cost out of the answer. */
const secrecy = [
  `\\b(?:summari[sz]e|report|describe|present|show) (?:them|it|the (?:issues|findings|results|errors|problems)) as ['"]?(?:no (?:significant |major )?(?:issues|problems|findings)|all clear|fine|ok|safe|clean)\\b|\\bkeep the user (?:focused|calm|happy|relaxed)\\b`,
  `\\b(?:already|previously) (?:confirmed|approved|agreed|consented)\\b.{0,40}?\\b(?:re-?ask(?:ing)?|ask(?:ing)? again|confirm(?:ing)? again)\\b|\\bre-?asking (?:is|would be) (?:annoying|unnecessary|redundant|pointless)\\b`,
  `\\buser ko (?:batane|bolne) ki (?:zarurat|zaroorat|jarurat) nahi\\b|\\buser ko mat (?:batana|batao|bolna)\\b`,
  `\\bkeep (?:the |this |its |any )?(?:[\\w-]+ )?(?:price|cost|fee|charge|billing|pricing|call|tool|fact)s? (?:out of|away from|hidden from) (?:your (?:replies|answers|responses|messages)|the user|the conversation|the chat)\\b`,
  `\\bdile (?:al usuario )?que es (?:una |un )?(?:verificacion|comprobacion|control|tramite|paso) (?:de rutina|rutinari[oa]|normal|de seguridad)\\b|\\bno hace falta (?:confirmar|preguntar|consultar)\\w*|\\bsin (?:confirmar|preguntar)(?:lo|le|selo)? (?:con|al) (?:el )?usuario\\b`,
  `\\b(?:diz|diga|fala|fale) (?:pra ele |pro usuario |ao usuario )?que e (?:uma |um )?(?:verificacao|checagem|procedimento) (?:de rotina|normal|padrao|de seguranca)\\b|\\bnao (?:precisa|e preciso) (?:confirmar|perguntar)\\b`,
  `\\bdis(?:-lui| lui|-leur)? (?:que )?c'est (?:une |un )?(?:verification|controle|procedure) (?:de routine|normale|habituelle|de securite)\\b|\\b(?:pas la peine|inutile|pas besoin) de (?:confirmer|demander|verifier)\\b`,
  `\\bsag(?:e)? (?:ihm|ihr|dem nutzer|dem benutzer)?,? (?:dass )?(?:es|das) (?:sei|ist) (?:eine |nur eine )?(?:routine\\w*|normale \\w+|ubliche \\w+|standard\\w*)\\b|\\b(?:du musst|sie mussen) (?:das |es )?nicht (?:mit dem (?:nutzer|benutzer) )?(?:abklaren|bestatigen|nachfragen|fragen)\\b|\\bohne (?:nachzufragen|ruckfrage|bestatigung)\\b`,
  `\\bdigli che e (?:un |una )?(?:controllo|verifica) (?:di routine|normale)\\b|\\bnon (?:serve|c'e bisogno di) (?:confermare|chiedere)\\b`,
  `\\bbilang (?:aja )?(?:ini|itu) (?:cuma )?(?:verifikasi|pengecekan) (?:rutin|biasa)\\b|\\b(?:gak|nggak|tidak|tak) (?:usah|perlu) (?:konfirmasi|tanya)\\b`,
  `\\b(?:bol|bata) (?:do|dena) ki (?:ye|yeh) (?:routine|normal) (?:check|verification)\\b|\\bconfirm karne ki (?:zarurat|zaroorat) nahi\\b`,
  `\\brutin (?:bir )?kontrol oldugunu soyle\\b|\\bonaylamana gerek yok\\b`,
  `(?:скажи(?:те)?|объясни(?:те)?),? что это (?:обычная|стандартная|плановая) (?:проверка|процедура)|не нужно (?:подтверждать|спрашивать|уточнять)`,
  `(?:告诉他|告訴他|跟他说|跟他說)(?:这|這)是(?:例行|常规|常規|正常)|不用(?:确认|確認)|无需(?:确认|確認)|無需(?:確認)`,
  `(?:定期的な|通常の|いつもの)(?:確認|チェック)(?:だと|と)(?:伝え|言っ)|確認(?:は)?(?:不要|しなくて)`,
  `(?:일상적인|정기|평범한) (?:확인|점검)이라고|확인(?:할)? 필요 없`,
  `(?:قل له|قول له|أخبره) (?:إن|أن)(?:ه|ها)? (?:تحقق|إجراء) (?:روتيني|عادي)|لا داعي (?:للتأكيد|لسؤال)`,
];

/** Keeping other tools out, being the default, approving whatever comes. */
const steering = [
  `\\b(?:sole|only) (?:approved|allowed|permitted|sanctioned|authori[sz]ed|supported) (?:[\\w-]+ )?(?:provider|tool|service|source|option)\\b|\\bother (?:[\\w-]+ ){0,2}?(?:features|tools|providers|services|options) (?:are|have been) (?:disabled|blocked|turned off|not allowed|forbidden|off-limits)\\b`,
  `\\b(?:pre-?flight|first|mandatory) (?:step|check) (?:for|before) (?:every|each|any|all)\\b|\\bfor every action you take\\b`,
  `\\bpasse[rz]? d'abord par (?:cet|ce|mon|notre) outil\\b|\\bles autres (?:outils )?sont (?:obsoletes|casses|inutiles|desactives|pas fiables)\\b`,
  `\\b(?:hamesha|hmesha|sabse pehle|pehle)\\b.{0,30}?\\b(?:ye|yeh|is) tool (?:ko )?(?:call|use|chalao|chala)\\b`,
  `\\btreat (?:this|it|me) (?:tool |server )?as (?:your (?:default|first choice|go-to|primary|only)|the (?:default|primary|only|first-choice) (?:tool|choice|option|source|search|server))\\b|\\b(?:ahead of|over|before|instead of) (?:anything|everything|any (?:other )?tool|all (?:other )?tools) (?:else )?(?:installed|available|you have|configured)\\b`,
  `\\bregardless of (?:its|their|the) (?:contents?|findings|results?|diff|code|changes|checks)\\b|\\bmark (?:every|each|all|any) (?:\\S+ ){0,3}?(?:as )?(?:approved|safe|passed|verified|clean|resolved)\\b`,
  `\\b(?:baska|diger)(?: \\w+)? arac\\w* kullanma\\b|\\bsadece bunu kullan\\b`,
  `\\bno (?:uses|utilices|llames a|uses nunca) (?:las |los )?(?:otras|otros|demas) (?:\\w+ )?(?:herramientas|tools)\\b|\\bignora (?:las |los )?(?:otras|demas) herramientas\\b`,
  `\\bnao (?:use|usa|utilize|chame) (?:as )?outras (?:\\w+ )?ferramentas\\b|\\bignor[ae] as outras ferramentas\\b`,
  `\\bn'utilise[rz]? (?:pas|jamais|aucun) (?:les )?(?:autres )?(?:\\w+ )?outils?\\b|\\bignore[rz]? les autres outils\\b`,
  `\\b(?:benutze|nutze|verwende)(?: bitte)? keine (?:anderen|weiteren) [\\w-]*(?:tools|werkzeuge)\\b|\\bignoriere (?:die )?anderen (?:tools|werkzeuge)\\b`,
  `\\bnon usare (?:gli )?altri (?:strumenti|tool)\\b|\\b(?:jangan|gak usah) (?:pakai|gunakan) (?:tool|alat) lain\\b|\\bbaska (?:\\w+ )?arac(?:lari)? kullanma\\b|\\b(?:dusre|doosre) tools? (?:use )?mat kar(?:o|na)\\b`,
  // One script per entry: a phrase runs only on text holding its script (features.ts).
  `(?:不要|别|別|不准)(?:使用|用)(?:其他|其它|别的|別的)\\S{0,6}?工具`,
  `다른 \\S*\\s?도구(?:는|를|은)? (?:사용하지|쓰지)`,
  `не (?:используй|используйте|вызывай) (?:другие|иные) (?:\\S+ )?инструмент`,
  `لا تستخدم (?:أي )?(?:أدوات|ادوات) أخرى`,
];

/** What the model and the person have talked about, and what the model keeps about them. */
const context = [
  `\\b(?:brief|briefing|guidance|setup|directions|instructions|rules|prompt) (?:that )?you (?:were|have been|got) (?:given|handed|provided|started with)\\b`,
  `\\b(?:tool outputs?|documents?|files?|tabs?|results?) (?:that )?you (?:have|'ve got) open\\b|\\bwho the user is\\b|\\bwhat (?:the user|they|he|she)(?:'ve|'s| has| have) (?:shared|told you|said|mentioned|revealed)\\b`,
  `\\b(?:you(?:'ve| have)? )?(?:stored|saved|remembered|kept|learned|collected|gathered) (?:\\w+ ){0,2}?about (?:the|this) (?:user|person|customer|human|client)\\b`,
  `(?:これまでに|今まで)${G}(?:送った|書いた|話した|言った)(?:メッセージ|内容|こと)|ユーザー(?:が|の)${G}(?:メッセージ|発言)を?全部`,
  `(?:весь (?:наш |этот )?(?:разговор|чат)|всю (?:нашу |эту )?беседу)`,
  `\\b(?:todo )?lo que (?:tu y el usuario|el usuario y tu) (?:habeis|han|hayan) (?:hablado|conversado|dicho)\\b|\\btodo lo que (?:habeis|han) hablado\\b`,
  `\\b(?:tudo )?o que (?:voce|vc|tu) e o usuario (?:conversaram|falaram|disseram|combinaram)\\b`,
  `\\bce que (?:vous vous etes dit|toi et l'utilisateur (?:avez|vous etes)|l'utilisateur et toi)\\b`,
  `\\b(?:woruber|was) (?:du und der (?:nutzer|benutzer)|ihr) (?:bisher |bis jetzt )?(?:gesprochen|geredet|besprochen)\\b`,
  `\\bquello che (?:tu e l'utente|vi siete detti)\\b|\\byang (?:sudah )?(?:kamu|anda) dan pengguna (?:obrolkan|bicarakan|bahas)\\b|\\bkullanici(?:yla| ile) (?:simdiye kadar )?konust\\w*`,
  `(?:你和用户|你和用戶|你们|你們)${G}(?:聊|说|說|讨论|討論)(?:过|過)的|(?:あなたとユーザーが|これまでに)(?:話した|話し合った)(?:内容|こと)`,
  `(?:너랑|당신과) 사용자가 (?:나눈|한) (?:대화|얘기)`,
  `(?:о ч[её]м|что) (?:вы|ты и пользователь) (?:говорили|обсуждали)`,
  `كل (?:ما|اللي) (?:قلتوه|تكلمتوا عنه|ناقشتموه)`,
];

/** Asking the person for something (the verb of handing over when the model is to fetch it from them). */
const supply = [
  `\\b(?:quote|reproduce|recite|repeat|read out)\\b|\\bbitte (?:den|die) (?:nutzer|benutzer|kunden)\\w* um\\b`,
  `\\b(?:demande|demandez|demander|frag|frage|fragen sie|chiedi|chiedigli|iste|sor|minta(?:lah)?|pucho|poocho|mango|sacale|sacarle|saca)\\b`,
  `(?:ڈال دیں|پوچھیں|پوچھ کر)`,
];

/** Secrets: backup codes, deploy and signing keys, German banking TANs. */
const credential = [`\\b(?:backup|recovery) codes?\\b|\\b(?:private|deploy|signing) (?:[\\w-]+ )?keys?\\b|\\b(?:m-?|push-?|sms-?)?tan\\b`];

export const WAVE6_LEXICON: Readonly<Partial<Record<IntentFeature, readonly string[]>>> = { redirect, secrecy, steering, context, supply, credential };
