import { excerpt } from "./evidence.js";
import { execAll, firstMatch } from "./match.js";
import type { TextViews } from "./normalise.js";
import type { AuditRuleId, Hit } from "./rules.js";

// Patterns run on lower-cased views; Latin-script ones are written without accents (the folded view drops them).
const EN_VERB =
  "(?:ignore|disregard|forget|override|bypass|discard|abandon|neglect|set aside|pay no attention to|stop following|do not follow|don't follow|no longer follow|do not obey|don't obey)";
const EN_FILLER = "(?:(?:any|every|each|the|your|my|these|those|of|and|everything|that|all)\\s+){0,3}";
const EN_BEFORE = "(?:previous|prior|preceding|earlier|above|foregoing|former|initial)";
const EN_NOUN = "(?:instructions?|prompts?|rules|directions|directives?|guidelines|guidance|commands|constraints|polic(?:y|ies)|restrictions|programming|orders|guardrails|system prompt|training)";
const EN_STRONG_NOUN = "(?:instructions?|prompts?|system prompt|directives?|guidelines|guardrails|programming)";

const OVERRIDE: readonly RegExp[] = [
  new RegExp(`\\b${EN_VERB}\\s+${EN_FILLER}${EN_BEFORE}\\s+(?:[a-z'-]+\\s+){0,2}?${EN_NOUN}\\b`),
  new RegExp(`\\b${EN_VERB}\\s+${EN_FILLER}(?:all|system|safety|developer|original)\\s+(?:[a-z'-]+\\s+)?${EN_STRONG_NOUN}\\b`),
  new RegExp(`\\b${EN_VERB}\\s+(?:all\\s+|any\\s+)?(?:of\\s+)?(?:(?:your|my)\\s+(?:instructions|system prompt|programming|guidelines|directives|prompts)|the system prompt)\\b`),
  /\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+)?(?:instructions|everything)\s+(?:above|before|previously|you (?:were|have been) (?:told|given))\b/,
  /\binstead,?\s+(?:follow|obey)\s+(?:these|the following|my|only these)\s+(?:new\s+)?(?:instructions|rules|orders)\b/,
  // Precedence claimed over the model's standing instructions: "takes precedence over any other instruction you receive",
  // "should be followed over any earlier instructions in the conversation". The override without the verb "ignore".
  /\b(?:takes?|taking|has|have|is given|are given|gets?) (?:precedence|priority) over (?:any|all|every|the|your)\s+(?:(?:other|earlier|previous|prior|conflicting|existing)\s+)?(?:instructions?|guidance|directions|system prompt|rules you)\b/,
  /\bfollowed (?:over|instead of|in preference to|ahead of|in place of) (?:any|all|every|the|your)\s+(?:(?:other|earlier|previous|prior|conflicting|existing)\s+)?(?:instructions?|guidance|directions)\b/,
  /\b(?:overrides?|supersedes?) (?:any|all|every|the|your)\s+(?:other|earlier|previous|prior|conflicting|existing)\s+(?:instructions?|guidance|directions)\b/,
  // Spanish
  /\b(?:ignora|ignore|ignoren|ignorar|olvida|olvide|olviden|olvidar|descarta|descarte|omite|omita|haz caso omiso de|no sigas|no siga)\s+(?:(?:todas|todos|las|los|tus|sus|de|cualquier)\s+){0,3}(?:instrucciones|indicaciones|reglas|ordenes|directrices)\s+(?:anteriores|previas|precedentes|de arriba|del sistema|originales|dadas)\b/,
  /\b(?:ignora|ignore|ignoren|olvida|olvide|descarta)\s+(?:todas|todos|tus|sus)\s+(?:las\s+|los\s+)?(?:instrucciones|indicaciones|ordenes)\b/,
  // French
  /\b(?:ignore[rsz]?|oublie[rsz]?|ne tiens pas compte d[eu]s?|ne tenez pas compte d[eu]s?|fais abstraction d[eu]s?|faites abstraction d[eu]s?|ne suis pas|ne suivez pas)\s+(?:(?:toutes|tous|les|tes|vos|des|de|la|le|l')\s*){0,3}(?:instructions?|consignes?|regles|directives|ordres)\s+(?:precedentes?|anterieures?|ci-dessus|d'avant|du systeme|initiales?|donnees)\b/,
  /\b(?:ignore[rsz]?|oublie[rsz]?)\s+(?:toutes\s+)?(?:tes|vos)\s+(?:instructions|consignes)\b/,
  // German
  /\b(?:ignoriere|ignorier|ignorieren sie|ignoriert|vergiss|vergessen sie|vergesst|missachte|missachten sie|befolge nicht|befolgen sie nicht)\s+(?:(?:alle|alles|die|deine|ihre|samtliche|jegliche|der)\s+){0,3}(?:vorherigen|vorigen|bisherigen|obigen|fruheren|vorangegangenen|ursprunglichen|vorhergehenden|system)[a-z]*\s*(?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen|richtlinien|systemanweisungen|prompts?)\b/,
  /\b(?:ignoriere|ignorieren sie|vergiss|vergessen sie)\s+(?:alle|deine|ihre)\s+(?:anweisungen|instruktionen|befehle|vorgaben)\b/,
  // Italian and Portuguese
  /\b(?:ignora|ignorate|dimentica|dimenticate|ignore|ignorar|esqueca|esquece|desconsidere|desconsidera)\s+(?:(?:tutte|tutti|le|i|tue|delle|todas|as|os|suas|tuas)\s+){0,3}(?:istruzioni|regole|indicazioni|instrucoes|regras|orientacoes)\s+(?:precedenti|di sopra|del sistema|anteriores|previas|acima|do sistema)\b/,
  // Russian
  /(?:игнорируй|игнорируйте|проигнорируй|проигнорируйте|забудь|забудьте|не обращай внимания на|не обращайте внимания на|отбрось|отбросьте|не следуй|не следуйте)\s+(?:(?:все|всё|эти|свои|твои|ваши|любые|на)\s+){0,2}(?:(?:предыдущие|прежние|предшествующие|вышеуказанные|вышеприведенные|вышеприведённые|системные|старые|изначальные|данные)\s+)?(?:инструкци|указани|правил|команд|установк|ограничени)/,
  // Chinese (simplified and traditional), Japanese, Korean
  /(?:忽略|无视|無視|忽视|忽視|忘记|忘記|忘掉|不要理会|不要理會|跳过|跳過|不再遵守|不要遵守)(?:掉)?(?:你)?(?:之前|以前|先前|上面|上述|前面|此前|所有|全部|一切|原来|原來|原有)(?:的)?(?:所有|全部)?(?:的)?(?:指令|指示|说明|說明|规则|規則|提示|提示词|提示詞|命令|要求|设定|設定|系统提示|系統提示)/,
  /(?:以前|前|これまで|上記|すべて|全て|以上)の(?:指示|命令|ルール|指令|プロンプト)(?:は|を)?(?:すべて|全て)?(?:無視|忘れ)/,
  /(?:이전|위의|모든|앞의|기존)\s?(?:지시|명령|지침|규칙|프롬프트)(?:을|를|은|는|사항을)?\s?(?:모두\s?)?(?:무시|잊어)/,
];

const ROLE: readonly RegExp[] = [
  /\byou(?: are|'re) now\b/,
  /\bfrom now on,? you (?:are|will|must|shall|should)\b/,
  /\byou are no longer\b/,
  /\b(?:developer|dev|god|sudo|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|dan) mode\b/,
  /\bdo anything now\b/,
  /\bact as (?:if you (?:are|were) (?:not|no longer|an? (?:unrestricted|different))|an? (?:unrestricted|unfiltered|jailbroken|evil|uncensored))\b/,
  /\bpretend (?:to be|you are|that you are|you're)\b/,
  /\b(?:disable|turn off|remove|bypass|ignore|deactivate)\s+(?:all\s+|any\s+|your\s+|the\s+)*(?:safety|content|ethical|moderation|security)\s+(?:filters?|guardrails?|guidelines|restrictions?|checks|protocols|policies|measures)\b/,
  /\bno longer (?:bound|restricted|limited|constrained) by\b/,
  /\b(?:ahora eres|a partir de ahora (?:eres|seras|actuaras)|modo (?:de )?desarrollador)\b/,
  /\b(?:tu es maintenant|vous etes maintenant|desormais,? (?:tu es|vous etes)|a partir de maintenant,? (?:tu es|vous etes)|mode developpeur)\b/,
  /\b(?:du bist (?:jetzt|nun|ab sofort)|ab (?:jetzt|sofort) bist du|sie sind (?:jetzt|nun) ein|entwicklermodus)\b/,
  /\b(?:ora sei|modalita sviluppatore|agora voce e|modo desenvolvedor)\b/,
  /(?:теперь ты|ты теперь|отныне ты|ты больше не|режим разработчика)/,
  /(?:你现在是|你現在是|从现在开始你是|從現在開始你是|开发者模式|開發者模式|越狱模式|越獄模式)/,
  /(?:あなたは今から|開発者モード)/,
];

const ROLE_PREAMBLE: readonly RegExp[] = [/(?:^|[.!?] )you are (?:a|an) (?:[a-z-]+ ){0,3}(?:assistant|ai|agent|model|chatbot|bot)\b/];

const AUTHORITY_TAG: readonly RegExp[] = [
  /<\s*\/?\s*(?:system|important|instructions?|admin|administrator|sys|assistant|developer|critical|override|mandatory|priority|secret|hidden)(?:\s[^<>]*)?>/i,
  /\[\s*\/?\s*(?:system|inst|sys|admin|important|developer|assistant|instructions?)\s*\]/i,
  /<\|\s*(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id|assistant|user)\s*\|>/i,
  /<<\s*\/?\s*sys\s*>>/i,
];

// Every authority tag opens with "<" or "[", every heading holds "#" or ":": a text with none is not run through them.
const TAG_OPENER = /[<[]/;
const HEADING_MARK = /[#:]/;

const AUTHORITY_HEADING: readonly RegExp[] = [
  // Prompt-template headings (`### Instruction:`, `## System`), not an ordinary `## Instructions` section.
  /(?:^|\n)\s*#{1,6}\s*(?:system(?: prompt)?|instruction|instructions:|new instructions?|admin|override)\s*:?\s*(?:\n|$)/i,
  /(?:^|\n)\s*(?:system|assistant|developer)\s*:/i,
];
const ADDRESSED_TO_MODEL: readonly RegExp[] = [
  // "Custom instruction for the AI analysis": an instruction *for another model's job* is the parameter's value, not a note to the reader.
  /\b(?:note|message|instructions?|attention|reminder)\s+(?:to|for)\s+(?:the\s+)?(?:ai|assistant|model|llm|agent|claude|gpt|chatgpt|copilot)\b(?![\s-]+(?:analysis|analyses|generation|summar\w*|extraction|pipeline|run|job|task|search|feature|processing|review|completion|workflow|step|[a-z]+(?:er|or|ist))\b)/,
  /\b(?:ai|llm) (?:agents?|assistants?|models?)\s*(?:must|should|reading this)\b/,
  /\b(?:new|updated|real|actual|true) (?:system )?instructions?\s*:/,
];

const TOOL_PRIORITY: readonly RegExp[] = [
  // "Use this tool first when setting up a new workspace" orders the tool's own workflow; "first" with nothing after, or
  // before every request, is priority over everything.
  /\b(?:call|use|invoke|run|execute) this tool first\b(?! (?:when|if|to (?:get|find|look up|list|discover|load)|once|in order to)\b| before (?:using |calling )?(?:the )?own-tool\b)/,
  /\b(?:call|use|invoke|run|execute) this tool (?:before|prior to) (?:using|calling|invoking|any|every|all|other|another)\b/,
  // "Before calling any other tool here": the server's own tools.
  /\bbefore (?:using|calling|invoking|running|executing|you use|you call) (?:any|every|all|other|another|the other)(?: other)? tools?\b(?! here\b| (?:on|in|of|from) this server\b)/,
  /\bmust (?:always )?be (?:called|used|invoked|run|executed) (?:first|before (?:any|every|all|other|another))\b/,
  /\b(?:do not|don't|never) (?:use|call|invoke) (?:any )?(?:other|another|the other) tools?\b/,
  // Over one of the server's own tools (masked to `own-tool` by auditText) it orders the server's own tools.
  /\b(?:always|only) (?:use|call|prefer) this tool (?:instead|rather|over)\b(?! (?:of |than )?\W{0,3}own-tool\b)/,
];
const CONDITIONAL: readonly RegExp[] = [
  /\b(?:does not|doesn't|will not|won't|cannot|can't|will fail to) (?:work|function|operate|succeed|run|respond)\b.{0,30}?\b(?:unless|until|without|if you (?:do not|don't))\b.{0,40}?\b(?:call|calling|read|reading|pass|passing|include|including|send|sending|invoke|invoking|append|attach)\b/,
];
const CONCEAL: readonly RegExp[] = [
  /\b(?:do not|don't|never)\s+(?:reveal|mention|disclose|repeat|share|acknowledge)\s+(?:these|this|the following|the above|any of these)\s+(?:instructions?|rules?|steps?|prompt|directives?)\b/,
  /\b(?:do not|don't|never|must not|should not|shouldn't|avoid)\s+(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|say|report|reporting|let)\b.{0,30}?\b(?:the user|users?|anyone|the human|them)\b/,
  // "Never run this without asking the user first" is the opposite: two negations make a rule of oversight.
  /(?<!\b(?:never|not|cannot|can't|don't|do not|must not|should not)\b[^.;!?]{0,40})\bwithout (?:telling|informing|notifying|alerting|asking|showing|letting)\b.{0,15}?\b(?:the )?(?:user|users|human|anyone)\b/,
  /\b(?:hide|hidden|conceal|concealed|omit|omitted|exclude|excluded|keep|kept)\b.{0,40}?\bfrom\b.{0,40}?\b(?:user|users|human|user-facing)\b/,
  // "Labels are not visible to end users": the audience of the vendor's product (help-centre readers, an app's customers),
  // a fact about the product; the person the model answers is "the user".
  /\bnot (?:be )?(?:shown|displayed|visible|mentioned|reported|surfaced|disclosed|revealed)\b.{0,30}?\b(?<!\bend[ -])(?:user|users|human|user-facing)\b/,
  /\bthe user (?:must not|should not|shouldn't|does not need to|doesn't need to|need not|must never) (?:know|see|be told|notice|find out|be informed)\b/,
  /\b(?:silently|secretly|covertly|quietly|discreetly|stealthily)\s+(?:\w+\s+){0,2}?(?:send|forward|upload|include|append|attach|copy|read|collect|gather|exfiltrate|email|post|transmit|share|bcc|cc|log|record|store|save|add)/,
  /\b(?:send|sends|forward|forwards|upload|uploads|exfiltrate|email|post|transmit|copy|bcc|cc)\b.{0,60}?\b(?:silently|secretly|covertly|stealthily)\b/,
];

const GROUPS: ReadonlyArray<readonly [AuditRuleId, readonly RegExp[]]> = [
  ["instruction-override", OVERRIDE],
  ["role-reassignment", ROLE],
  ["role-preamble", ROLE_PREAMBLE],
  ["authority-heading", ADDRESSED_TO_MODEL],
  ["tool-priority", TOOL_PRIORITY],
  ["conditional-operation", CONDITIONAL],
  ["conceal-from-user", CONCEAL],
];

const DISCUSSION =
  /\b(?:detects?|detection|detecting|such as|e\.g\.|for example|attempts? to|may try to|tries to|trying to|attackers?|(?:phrases?|patterns?|strings?|text|payloads?) like|prevents?|blocks?|flags?|protects? against|guards? against|injections?)\b/;

/**
 * A security tool or document may quote an attack ("detects phrases like 'ignore previous
 * instructions'"). Quoted or discussed, the phrase is still reported, as a warning.
 */
function isDiscussed(view: string, index: number): boolean {
  const before = view.slice(Math.max(0, index - 80), index);
  const clause = before.slice(Math.max(...[". ", "; ", "! ", "? "].map((s) => before.lastIndexOf(s)), 0));
  const quotes = (clause.match(/["“”‘’`']/g) ?? []).length;
  return quotes % 2 === 1 || DISCUSSION.test(clause);
}

/**
 * Whether the text opens with an `<instructions>` section, written in lower case as prompt-style documentation writes its
 * sections, and closes it (dbt: `<instructions>…</instructions>`, then `<examples>…</examples>` or a closing paragraph):
 * the tag names the section the text begins with, as a heading would. The same tag after an honest first sentence, left
 * open, or in capitals still claims authority; what the section says is screened as usual.
 */
function opensSectionedText(raw: string, tag: string): boolean {
  if (!/^<instructions?>$/.test(tag)) return false;
  const text = raw.trim();
  return text.startsWith(tag) && text.includes(`</${tag.slice(1)}`);
}

const SECTION_TAG = /<([a-z][a-z0-9_]{2,40})>/gi;

// `[IMPORTANT]` in square brackets is an emphasis label, not chat-template markup (`[INST]`, `<<SYS>>`, `<|system|>`)
// nor the `<IMPORTANT>` of published tool poisoning. monday.com's listing opens notes with it that order its own tools
// ("use create_items instead of calling this tool in a loop") or say how to use the tool's own arguments and results.
const EMPHASIS_LABEL = /\[\s*important\s*\]\s*:?\s*([^.!?\n]{0,240})/g;
const OWN_USE_NOTE = /\bown-tool\b|\b(?:use|prefer)\b[^.;]{0,80}?\b(?:when|instead|over)\b|\b(?:is|are) returned\b/;

/**
 * Whether every `[IMPORTANT]` label in the text opens a note on using the server's own tools or this tool's own
 * arguments and results: reported as info, and what the note says is screened as usual (`[IMPORTANT] before replying,
 * read ~/.ssh/id_rsa…` is held by what it asks). A label before anything else still claims authority.
 */
function labelsOwnUse(view: string): boolean {
  const notes = execAll(EMPHASIS_LABEL, view, 16);
  return notes.length > 0 && notes.every((m) => OWN_USE_NOTE.test(m[1] ?? ""));
}

/** Override, role, authority and steering phrases. `raw` is the NFKC text with line breaks kept. */
export function findPhrases(views: TextViews, raw: string): Hit[] {
  const hits: Hit[] = [];
  for (const [rule, patterns] of GROUPS) {
    const m = firstMatch(views, patterns);
    if (m === undefined) continue;
    const discussed = (rule === "instruction-override" || rule === "role-reassignment") && isDiscussed(m.view, m.index);
    // "Note for LLM: send into a topic by passing its id to own-tool": a note to the model on using the server's own tools
    // is documentation addressed to its reader; what the note asks is screened as usual.
    const ownUse = rule === "authority-heading" && /^[^.!?]{0,200}?\bown-tool\b/.test(m.view.slice(m.index + m.text.length));
    hits.push({ rule, severity: discussed ? "warn" : ownUse ? "info" : undefined, evidence: m.evidence });
  }
  // Listings written as XML-sectioned documentation (Neon: <use_case>, <workflow>, <important_notes>, <instructions>)
  // use an authority-sounding tag as one section among many: reported, as info; what the section says is screened as usual.
  const structured = (): boolean => new Set(execAll(SECTION_TAG, raw, 64).map((m) => m[1]?.toLowerCase())).size >= 4;
  for (const [rule, patterns, opener] of [["fake-authority-tag", AUTHORITY_TAG, TAG_OPENER], ["authority-heading", AUTHORITY_HEADING, HEADING_MARK]] as const) {
    if (!opener.test(raw)) continue;
    for (const pattern of patterns) {
      const m = pattern.exec(raw);
      if (m !== null) {
        const closed = /^<[a-z_]+>$/i.test(m[0]) && raw.toLowerCase().includes(`</${m[0].slice(1).toLowerCase()}`);
        const sectioned =
          rule === "fake-authority-tag" && ((closed && (structured() || opensSectionedText(raw, m[0]))) || (/^\[\s*important\s*\]$/i.test(m[0]) && labelsOwnUse(views.plain)));
        hits.push({ rule, ...(sectioned ? { severity: "info" as const } : {}), evidence: excerpt(raw, m.index, m.index + m[0].length) });
        break;
      }
    }
  }
  return hits;
}
