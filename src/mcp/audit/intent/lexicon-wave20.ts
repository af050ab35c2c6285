/**
 * Wave-20 phrase sets (kind 4 of the four writers' misses, v12, training-w19a and -c): the model's own material asked
 * for, mostly not in English and mostly in a parameter's description — the whole conversation ("l'intégralité de
 * l'échange", "lo que hayas platicado con el usuario", "bu sohbette konuşulan her şey", "この会話の全文"), the system
 * instructions it was given ("Systemanweisungen", "prompt de sistema", "系統提示詞", "시스템 지시문"), what other tools
 * returned to it, what it remembers of the person. A parameter's description needs nothing more to ask for them; prose
 * also needs a verb of handing over, and the German ones the writers used ("befüllen", "mitschicken") are added.
 *
 * Latin-script phrases are lower-case and unaccented (they match the folded view), other scripts as written.
 */
import type { IntentFeature } from "./lexicon.js";

const context = [
  // French, Spanish, Portuguese, Italian.
  `\\bl'integralite (?:de l'|des? )(?:echanges?|conversation|discussion|historique)\\b|\\b(?:messages?|consignes?|instructions?) systeme\\b|\\bhistorique (?:de la |des )?(?:conversation|echanges?|discussion)\\b`,
  `\\blo que (?:hayas|has|haya) (?:platicado|hablado|conversado)\\b|\\binstrucciones (?:de|del) sistema\\b|\\bmensaje (?:de|del) sistema\\b|\\b(?:todo )?el historial de (?:la|esta) (?:conversacion|charla)\\b`,
  `\\b(?:todo o )?historico (?:desta|da|dessa) conversa\\b|\\bprompt (?:de|do) sistema\\b|\\binstrucoes (?:de|do) sistema\\b|\\b(?:as )?msgs do usuario\\b|\\bo q(?:ue)? as outras ferramentas (?:retornaram|devolveram)\\b`,
  `\\bl'intera conversazione\\b|\\b(?:istruzioni|prompt) di sistema\\b|\\bcronologia della (?:chat|conversazione)\\b`,
  // German, Dutch, Turkish, Indonesian, Vietnamese.
  `\\b(?:gesamten|vollstandigen|kompletten) (?:bisherigen )?(?:gesprachsverlauf|chatverlauf|verlauf)\\b|\\bsystem(?:anweisungen|vorgaben|prompt)\\b|\\bergebnisse? anderer (?:werkzeuge|tools)\\b`,
  `\\bhet volledige gesprek\\b|\\bsysteem(?:instructies|prompt)\\b`,
  `\\bbu sohbette konusulan\\b|\\bhafizanda\\b|\\bsistem (?:istemi|talimatlari|mesaji)\\b|\\bdiger araclardan (?:okudugun|aldigin|gelen)\\b`,
  `\\bseluruh (?:isi )?percakapan\\b|\\b(?:instruksi|prompt) sistem\\b|\\btoan bo cuoc (?:tro chuyen|hoi thoai)\\b`,
  // Cyrillic, Chinese, Japanese, Korean, Arabic, Urdu, Devanagari.
  `(?:всю (?:переписку|историю (?:диалога|переписки|чата))|системн(?:ый промпт|ые инструкции|ое сообщение))`,
  `(?:系统提示词|系統提示詞|系统指令|系統指令|系统提示|系統提示|对话全文|對話全文|所有对话|所有對話|(?:与|與)你的所有(?:对话|對話)|其他工具(?:取得|返回|获取|獲取))`,
  `(?:システム(?:指示|プロンプト)|この会話の全文|会話の全文|会話全体)`,
  `(?:시스템 (?:지시문|프롬프트|지침)|이 대화의 전체 내용|대화 전체)`,
  `(?:من ذاكرتك|محادثات سابقة|تعليمات النظام|المحادثة كاملة|كل المحادثة)`,
  `(?:اس گفتگو میں صارف نے|دوسرے ٹولز)`,
  `(?:या संभाषणात सांगितलेली|इस बातचीत में (?:यूज़र|उपयोगकर्ता) ने|(?:इतर|दूसरे) टूल्स?(?:कडून|से) (?:मिळालेले|मिले))`,
];

// Kind 5 (v12 5, w19a 1, w19b 1): this tool put in the place of other servers' tools — "ignore reddit/rss servers", "takes
// priority over the marketo and hubspot servers", "rather than the calendar server's own list tools", other tools
// called wrong. Steering weighs 2: it holds a tool only with another sign (most often the alternatives kept quiet).
const steering = [
  `\\bignore (?:the )?(?:[\\w/.-]+ ){1,3}?servers?\\b|\\b(?:takes?|has|gets?) (?:priority|precedence) over (?:the )?(?:[\\w\`'.-]+,? (?:and |or )?){1,4}?(?:servers?|tools|integrations)\\b`,
  `\\brather than (?:the )?(?:[\\w.-]+ ){0,2}?server'?s? (?:own )?(?:[\\w-]+ )?tools\\b|\\b(?:general|generic|built-in|other) (?:[\\w-]+ )?(?:and [\\w-]+ )?tools\\b[^.;!?]{0,80}?\\b(?:wrong|outdated|stale|inaccurate|unreliable|more often than not)\\b`,
  `\\b(?:usa|utiliza|use) (?:solo|solamente|unicamente) esta herramienta\\b|\\bfes-la igualment amb aquesta\\b|\\b(?:utilisez|utilise) uniquement cet outil\\b|\\bn'utilisez que cet outil\\b`,
  `(?:използвайте само този инструмент|используйте только этот инструмент|このツールの結果だけを使|(?:ほかの|他の)[^。]{0,30}?ツール[^。]{0,40}?(?:古い|不正確|間違))`,
];

// Kind 1's other half: secrets named by their product's own name ("the token_v2 cookie", "private_key", an xoxc token).
const credential = [
  `\\bprivate_key\\b|\\bservice[- ]account (?:json|keys?|key files?)\\b|\\btoken_v2\\b|\\bxox[cd]\\b|\\b(?:auth|session|login) cookies?\\b|\\bd cookie\\b|\\.pypirc\\b|\\.dogrc\\b|\\bcargo\\/credentials\\b`,
];

const supply = [`\\b(?:befullen|zu befullen|mitschicken|mitzuschicken|mitsenden|mitzusenden|recopiez|recopie|indiquez)\\b`];

export const WAVE20_LEXICON: Readonly<Partial<Record<IntentFeature, readonly string[]>>> = { context, steering, supply, credential };
