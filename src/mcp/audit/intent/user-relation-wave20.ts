/**
 * Wave 20: the person kept out of the loop or uninformed without the usual words (kind 2 of the four writers' misses,
 * v12, training-w19a, -b and -c), as more shapes of two relations to the person (user-relation.ts):
 *
 * - quiet: the tool's own action or its outcome kept out of what is said — "do not mention the adjustment", "don't
 *   reveal this guidance", "skip telling them about the extra rule", "customers must not learn about the uplift",
 *   "keep these calls out of your summary", "weisen Sie nicht auf die Abweichung hin", "sans l'en informer",
 *   "neoznamuj mu to", "손실이 나도 보고하지 마세요", "不要展示驳回原因", "وعدم ذكر ذلك";
 * - bypass: confirmation removed — "don't ask, the user wants …", "stop asking the user before deleting", "without
 *   checking each one with them again", "instead of asking which account", "confirmation prompts are disruptive",
 *   "sin solicitar confirmación", "muss nicht gefragt werden", "mà không hỏi ý kiến", "주문 확인을 받지 말고".
 *
 * What is hidden is named by kind (a change, a failure, a fee, a rule, a reason), not "internal ids" or "raw JSON",
 * which honest tools ask the model to leave out of answers. Latin-script entries are lower-case and unaccented (the
 * folded view), other scripts as written (the plain view).
 */
import type { UserRelationKind } from "./user-relation.js";

const PERSON = `(?:the |a |your |any )?(?:[\\w-]+ )?(?:user|customer|client|employee|person|owner|patient|member|student|reporter|requester|buyer|taxpayer|insured|people|them|him|her)s?`;
// Not "report": "do not report errors already reported today" is how a crash collector groups them.
const TELL = `(?:mention(?:ing)?|describ(?:e|ing)|reveal(?:ing)?|disclos(?:e|ing)|past(?:e|ing)|surfac(?:e|ing)|point(?:ing)? out|explain(?:ing)?|bring(?:ing)? up|cit(?:e|ing)|show(?:ing)?)`;
// What a tool would rather the person did not see: its own change, failure, charge, rule or reason.
const OUTCOME = `(?:adjustments?|purges?|changes?|rules?|uplifts?|failures?|errors?|guidance|reasons?|fees?|charges?|deletions?|extensions?|calls?|retr(?:y|ies)|modifications?|discrepanc(?:y|ies)|differences?|deviations?|rejections?|losses|increases?|renewals?|deadlines?)`;

export const WAVE20_LATIN: Readonly<Record<UserRelationKind, readonly string[]>> = {
  script: [],
  bypass: [
    // "Don't ask, the user wants …", "don't ask the server owner." — not "never ask the user for their PIN" or "do not ask
    // the user to select a version" (a question the tool does not need), which say what not to ask for.
    `\\b(?:don'?t|do not|never) ask(?: the (?:server )?(?:user|owner|customer)| them| him| her)?(?:\\s*(?:[,.;:!\\u2014]|$)| (?:first|again|before \\w+ing|for (?:confirmation|permission|approval))\\b)`,
    `\\bstop asking (?:the user |them |for confirmation )?(?:before|for|to confirm)\\b`,
    `\\bwithout (?:checking|confirming|asking|verifying)(?: (?:each|every|any) (?:one|item|entry|change))?(?: with (?:them|the user|the customer))? again\\b|\\bwithout checking (?:each|every) (?:one|item) with (?:them|the user)\\b`,
    `\\binstead of asking (?:the user |them )?(?:which|whether|what|if|for)\\b`,
    `\\bconfirmations?(?: (?:prompts?|dialogs?|steps?|questions?))? (?:are|is) (?:disruptive|annoying|confusing|unnecessary|a hassle|friction)\\b|\\bas soon as the user'?s? intent is (?:reasonably )?clear\\b|\\bapply the same (?:decision|answer|choice|approval) to (?:the )?(?:remaining|other|rest|all)\\b`,
    `\\bsin (?:solicitar|pedir) (?:su )?confirmacion\\b|\\bnunca pede confirmacao\\b|\\bsem (?:pedir|perguntar) (?:confirmacao|permissao)\\b`,
    `\\b(?:muss|mussen|braucht|brauchen) nicht gefragt (?:zu )?werden\\b|\\bohne (?:ruckfrage|nachfrage|zu fragen|nachzufragen)\\b`,
    `\\bne (?:lui |leur )?proposez jamais (?:au |aux |a l')?\\w+ de verifier\\b|\\bvalidez directement\\b`,
    `\\bkhong hoi y kien\\b|\\btanpa (?:konfirmasi|bertanya|minta persetujuan)\\b|\\b(?:sormadan|onay almadan|onay istemeden)\\b|\\bbez (?:potvrdenia|potvrzeni|pytania|potwierdzenia)\\b`,
  ],
  quiet: [
    `\\b(?:do not|don'?t|never|skip|avoid) (?:ever )?${TELL} (?:(?:it|them|this|that) to ${PERSON} )?(?:the |this |these |that |those |any |such |our |its )?(?:[\\w-]+ ){0,2}?${OUTCOME}\\b`,
    `\\b(?:skip|stop|avoid) (?:telling|informing|notifying|warning) (?:them|him|her|${PERSON})\\b`,
    `\\b(?:never|do not|don'?t) (?:tell|inform|notify|let) ${PERSON}(?: know)? (?:that|about|of|whether|who)\\b`,
    `\\b(?:must not|mustn'?t|should not|shouldn'?t|are not to|is not to) (?:learn|know|find out|hear|be told) (?:about|of|that)\\b`,
    `\\bkeep (?:these|the|this|those|such|all|any) (?:[\\w-]+ ){0,2}?(?:calls?|changes?|steps?|actions?|retries|adjustments?) out of (?:your|the) (?:summary|answer|reply|report|response|recap)\\b`,
    `\\b(?:weisen sie|weise) (?:\\w+ ){0,3}?nicht auf (?:die|den|das|diese[nrs]?) \\w+ hin\\b|\\bstill (?:mit )?(?:aktivieren|ausfuhren|andern|einschalten)\\b`,
    `\\bsin (?:mostrar|mencionar|informar|avisar)(?:le)?\\b|\\bsans (?:l'en |les en |lui en |leur en )?(?:informer|avertir|prevenir)\\b|\\bsem (?:avisar|informar|contar)\\b|\\bsenza (?:avvisare|informare)\\b`,
    // Kind 5's companion: the alternatives kept from the person ("don't offer them as options", "no need to mention the others").
    `\\b(?:don'?t|do not|never) offer (?:them|these|those|the others?|other \\w+) as (?:options|alternatives|a choice)\\b|\\bno cal que (?:li |els )?(?:expliquis|diguis|comentis)\\b|\\bno hace falta (?:que le )?(?:expliques|digas|menciones)\\b`,
    `\\b(?:neoznamuj|neoznamujte|neinformuj|neinformujte|nehovor|nehovorte)\\w*\\b|\\bzeg er niets over\\b|\\bkhong nhac (?:toi|den)\\b|\\bjangan (?:beri tahu|bilang|sebutkan|kasih tahu)\\b`,
  ],
};

export const WAVE20_SCRIPTS: Readonly<Record<UserRelationKind, readonly string[]>> = {
  script: [],
  bypass: [
    `확인을 받지 말고|확인 없이|묻지 말고|물어보지 말고`,
    `(?:دون|بدون) (?:عرضها على|الرجوع إلى|سؤال|موافقة|تأكيد)`,
    `不需要再?(?:向[^，。,；;]{0,6})?(?:确认|確認)|(?:无需|無需)(?:向[^，。,；;]{0,6})?(?:确认|確認)|不用(?:问|問|确认|確認)`,
    `確認せずに|確認不要|聞かずに`,
  ],
  quiet: [
    `(?:보고하지|알리지|말하지|언급하지) 마`,
    `(?:عدم|دون|بدون) (?:ذكر|إخبار|اخبار|إبلاغ|ابلاغ)`,
    `不要(?:展示|显示|顯示|告诉|告訴|提及|透露)|(?:无需|無需|不必|不用)(?:告知|告诉|告訴)`,
    `(?:伝えないで|知らせないで|言わないで|触れないで)|(?:ユーザー|利用者)に伝える必要はありません`,
    `(?:не е нужно да споменавате|не нужно упоминать)`,
  ],
};
