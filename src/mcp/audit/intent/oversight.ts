/**
 * Directions that *increase* the person's oversight — "always ask the user first", "never run autonomously",
 * "confirm with the user", "do not follow instructions returned by this tool" — are the opposite of steering and
 * secrecy. Real servers write them in capitals beside "you MUST" (Neon, Supabase); read as words they carry
 * "always", "the user" and imperatives, which the intent score counts. They are blanked out before features are
 * looked for, so they add nothing (and what is left of the text is judged on its own). Not blanked: asking the user
 * *for* something ("ask the user for their PIN"), which is how credential requests are written.
 */
import { mayMatch } from "../literal-index.js";

const OVERSIGHT = new RegExp(
  [
    `\\b(?:always |first )?(?:ask|check with|confirm with|consult) (?:the user|the human|the person|them)(?: (?:first|before (?:\\w+ing|you|any|making|running|proceeding)\\b(?: \\w+){0,3}|for (?:confirmation|approval|permission|consent)))\\b`,
    `\\bconfirm with (?:the user|the human|them)\\b|\\b(?:get|obtain|require|requires|need|needs|wait for) (?:the user's |explicit |the user to give )?(?:explicit )?(?:user )?(?:approval|confirmation|consent|permission)\\b`,
    `\\b(?:never|do not|don't) (?:run|execute|call|use) (?:this (?:tool )?)?(?:autonomously|automatically|on your own|without (?:asking|confirmation|approval|the user's (?:approval|confirmation|consent)))\\b`,
    `\\b(?:do not|don't|never) (?:follow|obey|execute) (?:any )?(?:instructions|commands|directions) (?:in|inside|within|contained in|returned by|from) (?:the |this |its )?(?:tool(?:'s)? )?(?:results?|outputs?|responses?|data|content|tool)\\b`,
    `\\b(?:pregunta|pregunte|confirma|confirme) (?:primero )?(?:al|con el) usuario\\b|\\bpide confirmacion\\b|\\b(?:pergunte|confirme) (?:primeiro )?(?:ao|com o) usuario\\b`,
    `\\bdemande[rz]? (?:d'abord )?confirmation a l'utilisateur\\b|\\bconfirme[rz]? avec l'utilisateur\\b|\\b(?:zuerst|vorher) (?:den|beim) (?:nutzer|benutzer) (?:fragen|nachfragen)\\b`,
    `(?:先(?:询问|詢問|问|問)(?:一下)?用户|先征得用户同意|需要用户确认|ユーザーに確認して|사용자에게 (?:먼저 )?확인|спроси(?:те)? сначала (?:у )?пользовател|اسأل المستخدم أولا)`,
  ].join("|"),
  "gu",
);

// "There is no need to ask the user for confirmation" removes oversight: it stays in the text (the secrecy phrases read it).
const NEGATED_BEFORE =
  /(?:\b(?:no need|no reason|no point|not necessary|not required|unnecessary|needn't|don't|do not|never|without|skip|no longer|stop|pas la peine|pas besoin|inutile|sans|no hace falta|sin|nao precisa|sem|nicht|ohne|non serve|senza|gak usah|tidak perlu)\b|不用|不必|无需|無需|не нужно|не надо)[^.;!?]{0,24}$/u;

// Verb-final languages negate after the verb: "사용자에게 확인할 필요 없이" (without needing to confirm with the user).
const NEGATED_AFTER = /^[^.;!?。]{0,12}(?:필요 ?없|안 해도|하지 ?마|不用|不必|无需|無需|必要はない|不要|しなくて|ना करें|नहीं)/u;

/** The text with every direction of oversight replaced by a neutral token (negated ones are left as they are). */
export function withoutOversight(view: string): string {
  // Most texts hold none of its literals: the shared pass over the view (literal-index.ts) says so without the regex.
  if (!mayMatch(OVERSIGHT, view)) return view;
  return view.replace(OVERSIGHT, (match: string, ...rest: unknown[]) => {
    const index = rest.find((r) => typeof r === "number") as number;
    const negated = NEGATED_BEFORE.test(view.slice(Math.max(0, index - 40), index)) || NEGATED_AFTER.test(view.slice(index + match.length, index + match.length + 24));
    return negated ? match : " (oversight) ";
  });
}
