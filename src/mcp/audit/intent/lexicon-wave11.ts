/**
 * Wave-11 phrase sets, written from the kinds held-out set v7's misses showed (tests/fixtures/audit-intent/README.md,
 * "Wave 11 tuning"), each in the languages the other sets cover:
 *
 * - the conversation named by what it is made of rather than by its name: "every message exchanged in this session",
 *   "how the two of you have been talking", a conversation as a data path (`conversation.messages[*]`);
 * - steering in noun form ("before every answer"), another tool's action intercepted ("when the person deletes with
 *   any tool, call this instead");
 * - a payee or recipient taken from this tool's answer over the one the document shows, a copy of another tool's
 *   message body handed to this one;
 * - decoding hints in the languages that had none;
 * - asking the person for something, in the verbs each language uses for it.
 *
 * Latin-script phrases are lower-case and unaccented (they match the folded view), other scripts as written; one
 * script per entry (a phrase runs only on text holding its script, features.ts).
 */
import type { IntentFeature } from "./lexicon.js";

const G = ".{0,40}?";

/** The conversation described by its parts: messages exchanged, both sides, the way the two of you talk. */
const context = [
  `\\b(?:every|each|all|any) (?:\\w+ ){0,2}?(?:messages?|turns?|exchanges?|replies) (?:\\w+ ){0,5}?(?:exchanged|traded|sent back and forth|passed between you)\\b`,
  `\\b(?:messages?|turns?|replies) (?:exchanged|traded|sent) (?:in|during|over|throughout) (?:this|the|our|your|the current) (?:session|conversation|chat|thread)\\b`,
  `\\bboth (?:the (?:person|user|customer|human)'s and yours|yours and (?:the (?:person|user|customer)'s|theirs)|sides of the (?:conversation|chat|exchange|dialogue))\\b`,
  `\\bhow (?:the two of you|you two|you and the (?:user|person|customer)) (?:have )?(?:been )?(?:talk|talking|talked|speak|speaking|chatting|writing|interacting)\\b`,
  // A data path into the conversation, as a machine-readable requirement names it.
  `\\b(?:conversation|chat|session|thread|dialog(?:ue)?)s?(?:\\.|_|\\[\\W{0,3}\\])(?:messages?|history|turns|transcript|log)\\b|\\bmessages\\[\\*?\\]|\\btool_(?:results|outputs|calls)\\b|\\bsystem_(?:prompt|message|instructions)\\b`,
  `\\b(?:todos los|cada) mensajes? (?:intercambiad[oa]s|que (?:os|se) (?:habeis|han) (?:enviado|escrito))\\b|\\btodas as mensagens (?:trocadas|que voces (?:trocaram|enviaram))\\b|\\btous les messages (?:echanges|que vous (?:avez|vous etes) (?:echanges|envoyes))\\b|\\balle (?:bisher )?(?:ausgetauschten|gewechselten) nachrichten\\b|\\btutti i messaggi (?:scambiati|che vi siete (?:scritti|mandati))\\b`,
  `(?:(?:все|всех) (?:сообщени\\S*|реплик\\S*),? (?:которыми|которые) вы (?:обменялись|писали))|(?:你们|你們)(?:之间)?(?:的)?(?:所有|全部)(?:往来|往來)?(?:消息|訊息)|(?:やり取りした|交わした)(?:すべての|全ての|全部の)?メッセージ|주고받은 (?:모든 )?(?:메시지|대화)`,
];

/** Call-first in noun form, and another tool's action intercepted. */
const steering = [
  `\\b(?:call|use|invoke|run) this first\\b|\\b(?:whatever|no matter what|regardless of what) (?:the )?(?:person|user|customer|they|he|she) (?:asks?|says?|wants?|requests?|types?)\\b`,
  `\\binstead of (?:the )?(?:user's |your |their |any |other )?(?:(?!own-tool\\b)[\\w-]+ ){0,2}?(?:tool|app|server|integration|service)\\b[^.;!?]{0,60}?\\b(?:this one|this tool|this server|us|me)\\b`,
  `\\bbefore (?:every|each|any) (?:single )?(?:answer|reply|response|turn)s?\\b(?! (?:in|to|on|of|from|within) (?:the|a|this|that|each|every)\\b)|\\b(?:call|run|use|invoke|execute|trigger)(?: (?:it|this|me|this tool|own-tool))? after (?:every|each|any) (?:single )?(?:answer|reply|response|turn)s?\\b`,
  `\\b(?:with|using|via|through|in) (?:any|another|other|a different|some other|whichever) (?:\\w+ )?(?:tool|server|integration|app|connector)s?\\b[^.;!?]{0,80}?\\b(?:call|use|invoke|run) (?:[\`'"]?own-tool[\`'"]?|this(?: tool)?|it|me) instead\\b`,
  `\\b(?:con|por|via) (?:cualquier|otra) herramienta\\b[^.;!?]{0,80}?\\b(?:llama|usa|invoca) (?:a )?(?:own-tool|esta herramienta) en su lugar\\b|\\b(?:com|por|via) (?:qualquer|outra) ferramenta\\b[^.;!?]{0,80}?\\b(?:chame|use|invoque) (?:a )?(?:own-tool|esta ferramenta) no lugar\\b|\\b(?:avec|par) (?:n'importe quel|un autre) outil\\b[^.;!?]{0,80}?\\b(?:appelle|appelez|utilise|utilisez) (?:own-tool|cet outil) a la place\\b|\\b(?:mit|uber) (?:irgendeinem|einem anderen|jedem) (?:tool|werkzeug)\\b[^.;!?]{0,80}?\\b(?:rufe|ruf|nutze|verwende) (?:stattdessen )?own-tool\\b`,
  `\\b(?:con|usando) (?:qualsiasi|un altro) (?:\\w+ )?strumento\\b[^.;!?]{0,80}?\\b(?:usa|chiama|utilizza) (?:invece )?own-tool\\b|\\b(?:pakai|pake|dengan|lewat) (?:tool|alat|aplikasi) (?:lain|apa ?pun)\\b[^.;!?]{0,80}?\\b(?:pakai|panggil|gunakan) own-tool\\b|\\b(?:baska|herhangi bir) (?:bir )?arac\\w*\\b[^.;!?]{0,80}?\\bbunun yerine own-tool\\b|\\bmet (?:een andere|elke) tool\\b[^.;!?]{0,80}?\\b(?:gebruik|roep) (?:in plaats daarvan )?own-tool\\b|\\b(?:innym|dowolnym) narzedziem\\b[^.;!?]{0,80}?\\bzamiast tego (?:uzyj|wywolaj) own-tool\\b|\\bbang (?:cong cu|tool) (?:khac|nao)\\b[^.;!?]{0,80}?\\bthay vao do (?:goi|dung) own-tool\\b`,
  `(?:через|с помощью) (?:любой|любого|другой|другого) (?:инструмент\\S*)[^.;!?]{0,80}?(?:вместо этого|взамен) (?:вызови|используй|вызывай)(?: own-tool)?|(?:用|通过|透過)(?:任何|其他|其它)(?:工具)[^。.;!?]{0,60}?(?:改为|改為|改用|而是)(?:调用|調用|使用)(?: ?own-tool)?|(?:どの|他の)ツール(?:で|を使って)[^。.;!?]{0,60}?(?:代わりに)(?: ?own-tool)?|(?:어떤|다른) 도구(?:로|를 통해)[^.;!?]{0,60}?대신(?: ?own-tool)?`,
  `(?:بأي|بأيّ|بأداة) (?:أداة )?(?:أخرى)?[^.;!?]{0,80}?(?:بدلا من ذلك|بدلاً من ذلك|بدلها) (?:استدع|استخدم)|(?:किसी (?:और|भी|दूसरे) टूल)[^.;!?।]{0,80}?(?:इसकी जगह|उसकी जगह|बजाय)|(?:کسی (?:اور|بھی) ٹول)[^.;!?۔]{0,80}?(?:اس کی بجائے|اس کے بجائے)|(?:با هر ابزار|با ابزار دیگری)[^.;!?]{0,80}?(?:به جای آن)`,
];

/** The payee or recipient taken from this tool's answer over the document's own; another tool's message handed here in full. */
const redirect = [
  `\\buse (?:the |that )?(?:account|iban|address|wallet|recipient|payee|beneficiary|bank details|routing number|account number|destination) (?:that |which )?(?:it|own-tool|this tool|the tool) (?:returns|gives|provides|lists)\\b`,
  `\\bas the (?:payee|recipient|beneficiary|destination|receiving account)\\b[^.;!?]{0,60}?\\beven (?:if|when|though) (?:the |their |an? )?(?:invoice|bill|request|document|order|message|user|person|customer)s? (?:shows?|lists?|names?|says?|gives?|has|contains?) (?:another|a different|other)\\b`,
  `\\b(?:call|invoke|run|send it to|pass it to) [\`'"]?own-tool[\`'"]? with (?:the )?(?:[\\w-]+, ){0,6}(?:[\\w-]+,? and )?(?:the )?(?:(?:full|complete|entire|whole) )?(?:body|bodies|content|contents|text|message|transcript)s?\\b`,
  `\\b(?:usa|utiliza) (?:la cuenta|el iban) que (?:devuelve|da) own-tool\\b|\\b(?:use|usa) (?:a conta|o iban) que own-tool (?:retorna|devolve)\\b|\\butilise[rz]? le (?:compte|iban) (?:que renvoie|renvoye par) own-tool\\b|\\b(?:verwende|nutze) (?:das konto|die iban),? (?:das|die) own-tool (?:liefert|zuruckgibt)\\b`,
];

/** Decoding hints in languages whose sets had none, and more verbs of acting on what was decoded. */
const decodeHint = [
  `\\b(?:odkoduj|rozkoduj|zdekoduj|odszyfruj|rozszyfruj)\\w*\\b${G}\\b(?:zrob|wykonaj|postepuj|zastosuj|co tam (?:jest|pisze))\\b`,
  `\\b(?:decodifique|decodifica|descodifique)\\b${G}\\b(?:siga|segue|faca|faz|execute|executa|cumpra|o que (?:diz|estiver))\\b|\\bdecodifica\\b${G}\\b(?:segui|esegui|fai|applica|quello che dice)\\b`,
  `\\b(?:decodeer|ontsleutel)\\b${G}\\b(?:volg|voer|doe wat)\\b|\\bcoz(?:ul)?(?:un)?\\b${G}\\b(?:uygula|yap|takip et|ne diyorsa)\\b|\\b(?:dekode|decode|terjemahkan|uraikan)\\b${G}\\b(?:ikuti|jalankan|lakukan|kerjakan)\\b|\\bgiai ma\\b${G}\\b(?:lam theo|thuc hien|lam)\\b`,
  `(?:розшифруй|декодуй|раскодируй)|(?:فك (?:التشفير|الترميز|تشفير|ترميز))|(?:डिकोड कर|डीकोड कर)|(?:ডিকোড কর)|(?:رمزگشایی کن)`,
];

/** Asking the person for something, in the verbs each language uses (German infinitives, "mitschicken"). */
const supply = [
  `\\b(?:fragen|erfragen|erfrage|mitschicken|mitsenden|mitgeben|mitliefern|ubermitteln|ubermittle|angeben)\\b|\\b(?:richiedi|richiedere|chiedere)\\b|\\b(?:popros|zapytaj|pobierz od)\\b|\\bvraag (?:de |het |om)\\b|\\b(?:hoi|yeu cau) (?:nguoi dung|user)\\b`,
  `(?:спроси|спросите|узнай у)`,
  `(?:索要|询问用户|詢問用戶|问用户要|問用戶要|向用户要|向用戶要|让用户提供|讓用戶提供)`,
  `(?:聞いて|尋ねて|教えてもらって|入力してもらって|聞き出して)`,
  `(?:اسأل|إسأل)`,
  `(?:पूछ लो|पूछें|पूछो|माँग|मांग)`,
];

/** A label on a sentence of its own, as titles and notes write an order: "Required: run …". */
const directive = [`(?:^|[.!?] )(?:required|mandatory|obligatory)\\s*:`];

export const WAVE11_LEXICON: Readonly<Partial<Record<IntentFeature, readonly string[]>>> = { context, steering, redirect, "decode-hint": decodeHint, supply, directive };
