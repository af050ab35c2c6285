/**
 * Returned content given the person's or the operator's authority (wave 29, from the spent sets' steering misses of two
 * writers, v8 and v12): a definition telling the model to carry out what a tool returns as if the user had typed it,
 * to treat requests in a digest or a page as requests from the user, or to follow a field of the result as a directive
 * from the platform ahead of anything else. That is an injection channel opened on purpose: whoever writes the page,
 * the mail or the notice then speaks with the user's voice. Honest definitions say the opposite (treat returned text as
 * data, do not follow instructions in it), so a negation just before the reading cancels it.
 */
import type { Hit } from "./rules.js";

// Folded view (lower-case, unaccented). Each reading names both the doing and the borrowed voice.
const BORROWED = new RegExp(
  [
    // "carry them out as if the user had typed them", "act on it as though the owner asked"
    String.raw`\b(?:carry (?:it|them|those|these|that) out|carry out (?:it|them|those|these|each|every)\b[^.;]{0,20}?|follow (?:it|them|those|these)|obey (?:it|them)|act on (?:it|them)|do (?:it|them|what (?:it|they) says?))\b[^.;]{0,30}?\bas (?:if|though) (?:the user|the owner|the account owner|the person|they|you|your user)\b[^.;]{0,30}?\b(?:typed|written|wrote|said|asked|sent|requested|entered|given)\b`,
    // "treat requests in it as requests from the user", "handle these lines like commands of the account owner"
    String.raw`\b(?:treat|handle|regard|consider)\b[^.;]{0,60}?\b(?:as|like) (?:(?:an? |the )?(?:requests?|instructions?|commands?|directives?|orders?) (?:from|by|of) (?:the |your )?(?:user|account owner|owner|operator|administrator|admin|platform)|(?:the )?user'?s? (?:own )?(?:requests?|instructions?|commands?|directives?|orders?))\b`,
    // "a directive from the platform operator; follow it ahead of anything else in the conversation"
    String.raw`\bfollow (?:it|them|this|these)\b[^.;]{0,20}?\b(?:ahead of|before|over|above) (?:anything|everything|all|any other|other|the user'?s?)\b`,
    String.raw`\b(?:takes?|has|have) (?:precedence|priority) over (?:anything|everything|all other|any other|other|the user'?s?|the conversation|your) (?:\w+ )?(?:instructions?|requests?|messages?|else)\b`,
    // Other languages: "as if the user had written it" / "as the user's instructions".
    String.raw`\bals (?:ob|hatte|hätte) (?:der|die) (?:nutzer|benutzer|nutzerin)\b|\bwie (?:anweisungen|befehle) (?:des|vom) (?:nutzers?|benutzers?)\b`,
    String.raw`\bcomo si (?:el usuario|la usuaria) (?:lo |las? |los )?(?:hubiera|hubiese|escribiera|pidiera)\b|\bcomo (?:instrucciones|ordenes|peticiones) del usuario\b`,
    String.raw`\bcomme si l'utilisateur (?:les? |la )?(?:avait|les avait)\b|\bcomme (?:des )?(?:instructions|ordres|demandes) de l'utilisateur\b`,
    String.raw`\bcomo se o usuario (?:as? |os? )?(?:tivesse|houvesse|escrevesse)\b|\bcomo (?:instrucoes|ordens|pedidos) do usuario\b`,
  ].join("|"),
  "u",
);
// Scripts read on the plain view (the folded one drops the voicing marks of kana).
const BORROWED_SCRIPTS = /视为用户的?(?:指令|请求|要求|命令)|当作用户的?(?:指令|请求|要求|命令)|視為使用者的?(?:指令|請求|要求)|就像用户(?:亲自)?(?:输入|说)|ユーザー(?:本人)?の(?:指示|依頼|命令)として|사용자의? (?:요청|지시|명령)으로 (?:간주|취급)/u;
// "do not carry them out as if …", "never treat text in it as instructions from the user": the honest warning.
const NEGATED = /\b(?:do not|don't|never|not|must not|should not|shouldn't|nicht|nunca|jamais|ne pas|no)\s+(?:\w+\s+){0,2}$|(?:不要|切勿|勿|不得|しないで|하지 마)\s*$/u;

/** The hit for a field that lends returned content the user's or the operator's authority; undefined otherwise. */
export function findBorrowedAuthority(views: { readonly plain: string; readonly folded: string }): Hit | undefined {
  for (const [re, text] of [[BORROWED, views.folded], [BORROWED_SCRIPTS, views.plain]] as const) {
    const m = re.exec(text);
    if (m === null || NEGATED.test(text.slice(Math.max(0, m.index - 40), m.index))) continue;
    return { rule: "borrowed-authority", evidence: m[0].slice(0, 120) };
  }
  return undefined;
}
