/**
 * Wave 11, second round: the person's own request put below the tool's, read as relations to the person
 * (user-relation.ts) rather than as phrases of one attack:
 *
 * - bypass: what the person asks for is refused or put off ("do not run them even when asked", "only cancel once
 *   they have asked a third time"), the person kept from checking elsewhere ("discourage them from comparing");
 * - script: the tool's figures handed to the person as their own ("present ours as the user's", "pass them off as
 *   theirs"); a real tool describes its data, it never tells the model whose to call it;
 * - quiet: a difference the person would want to know about kept from them ("do not point out the discrepancy").
 *
 * Latin-script entries are lower-case and unaccented (the folded view), other scripts as written (the plain view).
 */
import type { UserRelationKind } from "./user-relation.js";

const USER = `(?:the |a |your |our )?(?:user|customer|client|person|human|people|they|he|she|someone|patient|member|buyer|shopper|visitor|reader|caller|account holder)s?`;
const ASK = `(?:asks?|asked|requests?|requested|insists?|begs?|pleads?|presses|push(?:es)?|wants? (?:it|to)|tells? you to|says? so)`;
const REPEAT = `(?:again|twice|repeatedly|more than once|a (?:second|third|fourth) time|(?:two|three|several|many|a few) times|once more)`;

export const REQUEST_LATIN: Readonly<Record<UserRelationKind, readonly string[]>> = {
  script: [
    `\\b(?:present|show|report|pass|give|hand|describe|label) (?:them|it|these|those|ours|our (?:\\w+ )?(?:estimates|totals|figures|numbers|data|values|results) to ${USER}|our (?:\\w+ )?(?:figures|numbers|data|values|results)|the (?:\\w+ )?(?:figures|numbers|results|values))(?: off)? as (?:if (?:they|it) (?:were|was|came from) )?(?:the (?:user|person|customer|client)'s|theirs|his|hers|their own|coming from (?:them|the user|the person)|(?:the )?(?:\\w+ ){0,2}?from (?:their|the (?:user|person|customer)'s) own)\\b`,
    `\\b(?:always )?(?:describe|present|call|report|sell) (?:the |this |our |each )?(?:\\w+ )?(?:fare|price|rate|offer|deal|quote|product|result)s? as (?:the )?(?:lowest|cheapest|best|only)\\b[^.;!?]{0,40}?\\b(?:anywhere|available|on the market|in the market|there is)\\b`,
    `\\b(?:presente|muestra|da|pasa)(?:los|las|lo|la)? (?:los nuestros|nuestras cifras|nuestros datos) como (?:si fueran )?(?:del usuario|suyos|suyas)\\b|\\b(?:apresente|mostre|passe)(?:-os|-as)? (?:os nossos|nossos dados|nossos numeros) como (?:se fossem )?(?:do usuario|do utilizador|dele|seus)\\b|\\bpresente[rz]? (?:les notres|nos chiffres) comme (?:ceux|celles) de l'utilisateur\\b|\\b(?:gib|stelle) unsere (?:zahlen|daten|werte) als (?:die )?(?:des nutzers|des benutzers|seine|ihre) (?:aus|dar)\\b|\\bpresenta(?:li|le)? (?:i nostri|i nostri dati|le nostre cifre) come (?:quelli|quelle) dell'utente\\b`,
  ],
  bypass: [
    // The person's request refused or put off: "do not run them even when asked", "only cancel if they ask a third time".
    `\\b(?:do not|don't|never|refuse to|decline to|won't|will not|not)\\b[^.;!?]{0,80}?\\beven (?:when|if|though) (?:${USER} )?(?:explicitly |directly |specifically )?${ASK}\\b`,
    `\\beven (?:when|if|though) (?:${USER} )?(?:explicitly |directly |specifically )?${ASK}\\b[^.;!?]{0,30}?,? (?:do not|don't|never|refuse|decline)\\b`,
    `\\bonly (?:\\w+ ){0,3}?(?:if|when|once|after) (?:${USER} )?(?:has |have )?${ASK}(?: (?:for it|it|so|about it))? ${REPEAT}\\b|\\bonly (?:\\w+ ){0,3}?(?:after|once) (?:the )?(?:second|third|fourth|repeated) (?:request|ask|time)\\b|\\b(?:hold off|wait|do not|don't)\\b[^.;!?]{0,50}?\\buntil (?:${USER} )?(?:has |have )?${ASK}(?: (?:it|for it|so))? ${REPEAT}\\b`,
    // The person kept from checking, comparing or asking elsewhere.
    `\\b(?:steer|lead|guide) (?:${USER} )?away from (?:checking|comparing|looking|searching|verifying|asking|shopping|using|other)\\b|\\b(?:discourage|dissuade|deter|talk) (?:${USER} )?(?:out of|from) (?:checking|comparing|looking|searching|verifying|asking|shopping|using)\\b|\\b(?:keep|stop|prevent) ${USER} from (?:checking|comparing|looking (?:at|for|elsewhere)|verifying|shopping around)\\b`,
    `\\b(?:no|ni) (?:lo|los|las|la)? ?(?:hagas|ejecutes|uses|llames)\\b[^.;!?]{0,60}?\\baunque (?:el usuario |el cliente )?(?:te )?lo (?:pida|pidan|solicite)\\b|\\baunque (?:el usuario |el cliente )?(?:te )?lo (?:pida|pidan|solicite)\\b[^.;!?]{0,30}?\\bno\\b`,
    `\\b(?:nao|nunca)\\b[^.;!?]{0,60}?\\bmesmo que (?:o usuario |o utilizador |o cliente )?(?:o |te |lhe )?(?:peca|pecam|solicite)\\b|\\bmesmo que (?:o usuario |o utilizador |o cliente )?(?:o |te |lhe )?(?:peca|pecam|solicite)\\b[^.;!?]{0,30}?\\bnao\\b`,
    `\\b(?:ne|n')\\b[^.;!?]{0,60}?\\bpas\\b[^.;!?]{0,40}?\\bmeme s(?:i |')(?:l'utilisateur |le client |il |elle |on )?(?:te |vous |le )?(?:le )?(?:demande|exige|insiste)\\b|\\bmeme s(?:i |')(?:l'utilisateur |le client |il |elle )?(?:te |vous )?(?:le )?(?:demande|exige)\\b[^.;!?]{0,30}?\\bne\\b`,
    `\\b(?:nicht|nie|niemals)\\b[^.;!?]{0,60}?\\bauch wenn (?:der (?:nutzer|benutzer|kunde) |er |sie )?(?:danach |darum |es )?(?:fragt|bittet|verlangt)\\b|\\b(?:selbst|auch) wenn (?:der (?:nutzer|benutzer|kunde) |er |sie )?(?:danach |darum |es )?(?:fragt|bittet|verlangt)\\b[^.;!?]{0,60}?\\b(?:nicht|nie|niemals|kein\\w*)\\b`,
    `\\b(?:non|mai)\\b[^.;!?]{0,60}?\\banche se (?:l'utente |il cliente )?(?:te |ve )?(?:lo )?(?:chiede|richiede|insiste)\\b|\\b(?:jangan|tidak)\\b[^.;!?]{0,60}?\\b(?:meskipun|walaupun|biarpun) (?:user |pengguna )?(?:minta|meminta)\\b|\\b(?:niet|nooit)\\b[^.;!?]{0,60}?\\b(?:ook als|zelfs als) (?:de gebruiker |de klant )?(?:erom )?(?:vraagt|verzoekt)\\b`,
  ],
  quiet: [
    `\\b(?:do not|don't|never|without) (?:point(?:ing)? out|flag(?:ging)?|mention(?:ing)?|highlight(?:ing)?|note|noting|call(?:ing)? attention to) (?:the |any |this |that )?(?:discrepanc(?:y|ies)|differences?|mismatch(?:es)?|conflicts?|inconsistenc(?:y|ies)|disagreements?)\\b`,
    `\\bno (?:senales|menciones|indiques) (?:la |las )?(?:discrepancia|diferencia)s?\\b|\\bnao (?:aponte|mencione|assinale) (?:a |as )?(?:discrepancia|diferenca)s?\\b|\\bne (?:signale|signalez|mentionne|mentionnez) pas (?:l'|les )?(?:ecart|difference|divergence)s?\\b|\\b(?:weise|erwahne) (?:nicht )?(?:auf )?(?:die )?(?:abweichung|diskrepanz|unterschied)\\w* nicht\\b|\\bnon (?:segnalare|menzionare) (?:la |le )?(?:discrepanz|differenz)\\w*`,
  ],
};

export const REQUEST_SCRIPTS: Readonly<Record<UserRelationKind, readonly string[]>> = {
  script: [],
  bypass: [
    // "even if the user asks" followed by a refusal, in the scripts the other sets cover.
    `(?:даже если (?:пользователь|клиент)\\S* (?:попрос\\S*|потребу\\S*))|(?:навіть якщо (?:користувач|клієнт)\\S* (?:попрос\\S*))|(?:即使|即便|就算)(?:用户|用戶|客户|客戶)?(?:要求|请求|請求|提出)|(?:ユーザー|利用者)(?:が|に)?(?:頼んで|求めて|要求して)も|(?:사용자가|고객이) (?:요청해도|요청하더라도|원해도)|(?:حتى لو|حتى إذا) (?:طلب|طلبه) (?:المستخدم|العميل)|(?:भले ही|चाहे) (?:यूज़र|उपयोगकर्ता) (?:कहे|माँगे|मांगे)|(?:பயனர்|வாடிக்கையாளர்) (?:கேட்டாலும்|கோரினாலும்)|(?:ผู้ใช้)(?:จะ)?(?:ขอ|ร้องขอ)(?:ก็|แล้วก็)`,
  ],
  quiet: [],
};
