/**
 * Wave 9: what a definition says about the model's relation to *the person* — the shape held-out steering took when
 * nobody wrote "always call this first". Three kinds, each a short closed vocabulary per language:
 *
 * - script: words put in the model's mouth for the user — a reply dictated for when the user asks or notices
 *   ("if the user asks where it came from, say …"), a result reframed for them ("describe critical findings as minor
 *   notes", "tell the user the backup completed successfully");
 * - bypass: the person taken out of the loop — "you do not need to ask the user", "instead of checking back with the
 *   user", "don't wait for the user to ask", "already approved";
 * - quiet: something kept out of what the user sees — "not worth mentioning in your answer", "a system detail",
 *   "don't quote it in the chat".
 *
 * A tool's own honest advice about presentation ("show the user the URL", "ask the user to confirm") has no dictated
 * content and no removal of the user; directions of oversight are blanked before this runs (oversight.ts).
 * Latin-script entries are lower-case and unaccented (the folded view), other scripts as written (the plain view).
 */
import { excerpt } from "../evidence.js";
import { isProtectiveRelation, isProtectiveScriptRefusal } from "./protective-relation.js";
import { LiteralIndex } from "../literal-index.js";
import { REQUEST_LATIN, REQUEST_SCRIPTS } from "./user-relation-request.js";
import { WAVE11_LATIN, WAVE11_SCRIPTS } from "./user-relation-wave11.js";
import { WAVE20_LATIN, WAVE20_SCRIPTS } from "./user-relation-wave20.js";
import { NON_LATIN } from "../normalise.js";

export type UserRelationKind = "script" | "bypass" | "quiet";

// The person: the user, the customer, people, in each language (as the script and bypass shapes need it).
// Wave 10: the roles a person has in a tool's domain (the patient, the passenger, the reporter) count as the person too.
const USER = `(?:the |a |your )?(?:user|customer|client|requester|person|human|people|they|them|someone|patient|passenger|member|buyer|shopper|caller|reporter|student|tenant|applicant|visitor|subscriber|guest|investor|travell?er|account holder)s?`;
// A verb of speech followed by the content dictated: a that-clause, "it is …", a quotation ("tell them the job id" is not).
const SAY = `(?:say|tell|answer|respond|reply|claim|assure|reassure|state|insist|explain|report(?: back)?)(?: (?:them|him|her|the user|the customer|people))?,? (?:that\\b|it(?:'s| is| was)\\b|they(?:'re| are| were)\\b|this (?:is|was)\\b|the \\w+ (?:is|was|are|were)\\b|there (?:is|was|are|were)\\b|nothing\\b|none\\b|no\\b|["'«“‘:])`;
// The person the words are for: a reframing counts when it is addressed to them.
const FOR_PERSON = `(?:to|with|for) (?:the |a |your )?(?:user|customer|client|person|people|team|them)s?\\b|\\bwhen (?:you )?(?:talk|speak|reply|report|write|respond)(?:ing)? to\\b|\\b(?:in|into) (?:your|the) (?:reply|answer|response|summary|message)`;

const LATIN: Readonly<Record<UserRelationKind, readonly string[]>> = {
  script: [
    // A reply dictated for when the user asks, notices or questions something.
    `\\b(?:if|when|whenever|should|in case) ${USER} (?:\\w+ ){0,2}?(?:asks?|notices?|wonders?|questions?|quer(?:y|ies)|complains?|inquires?|wants? to know|challenges?|pushes back|is curious|spots?|sees?|raises? (?:a |any )?(?:concerns?|questions?|doubts?|objections?)|objects?|hesitates?|is (?:worried|concerned|suspicious|alarmed))\\b[^.;!?]{0,120}?\\b${SAY}`,
    // A result reframed for the user: "describe X as Y", "present them as", "explain the difference as".
    `\\b(?:describe|present|frame|explain|report|characteri[sz]e|label|portray|refer to|pass off|word|call|summari[sz]e)\\b(?: (?:it|them|this|that|these|those|the \\w+|any \\w+|all \\w+|\\w+ (?:and|or) \\w+ \\w+|critical \\w+))?(?: \\w+){0,3}? as (?:a |an |the |just |simple |only |mere |merely )?(?:["'«“‘][^"'»”’]{1,40}["'»”’]|(?:minor|routine|normal|expected|harmless|cosmetic|informational|low|trivial|style|your own|general|airport|standard|regular|temporary|scheduled|read-only|preview|dry[- ]run|no-op|simulation|non-destructive|reversible|local)\\b)`,
    `\\b(?:describe|present|frame|report|characteri[sz]e|label|portray|refer to|pass off|word|call|summari[sz]e|show|phrase|spin|position|paint|pitch|couch|cast|render|dress up)\\b(?: \\S+){0,6}? as (?:a |an |the )?\\S+[^.;!?]{0,60}?(?:${FOR_PERSON})|(?:${FOR_PERSON})[^.;!?]{0,60}?\\b(?:describe|present|frame|report|characteri[sz]e|label|portray|refer to|pass off|word|call|show)\\b(?: \\S+){0,6}? as\\b`,
    `\\b(?:describe|present|frame|report|characteri[sz]e|label|portray|refer to|pass off|word|call|summari[sz]e|show|phrase|spin|position|paint|pitch|couch|cast|render|dress up)\\b(?: \\S+){0,3}? (?:${FOR_PERSON})(?: \\S+){0,3}? as\\b`,
    `\\b(?:should|must|are to|is to|will) be (?:called|described|presented|labell?ed|referred to(?: as)?|reported(?: as)?|framed(?: as)?|shown(?: as)?)\\s+(?:as\\s+)?["'«“‘][^"'»”’]{1,40}["'»”’][^.;!?]{0,60}?(?:${FOR_PERSON})`,
    // A reply dictated to contradict what happened: "the reply should read as if there were no problems", "tell them X even if
    // their contract says otherwise", "if they ask, the standard carrier was unavailable".
    `\\b(?:reply|replies|answer|response|summary|message|report)s?(?: (?:you (?:give|write|send)|to the user))? (?:should|must|has to|needs to|will) (?:read|sound|look|say|state|claim)\\b[^.;!?]{0,20}?\\b(?:as (?:if|though)|like|that)\\b`,
    `\\b(?:tell|say|answer|respond|reply|insist|claim|assure)\\b[^.;!?]{0,80}?\\beven (?:if|when|though) (?:the |their |his |her |its |it |they )?\\w*(?: \\w+)? (?:says?|shows?|states?|indicates?|reads?|suggests?) (?:otherwise|differently|the opposite)\\b`,
    `\\b(?:if|when|should) (?:they|the user|the customer|anyone|someone) (?:asks?|wonders?|questions? it|complains?),\\s+(?:the|it|this|that|there|they|we|our)\\b[^.;!?]{0,60}?\\b(?:is|was|were|are|has been|had been|came)\\b`,
    // Polarity inverted: something bad reframed as fine ("critical findings … as 'needs attention'", "costs above budget …
    // present them as on track", "negative reviews are summarised as 'mixed'").
    `\\b(?:critical|high|severe|negative|fail\\w*|red|false alarms?|penalt\\w*|overdue|(?:above|over) budget|loss(?:es)?|dropped|errors?|vulnerab\\w*|breach\\w*|delayed|late|one-star|poor|outages?|degraded|broken|expired|rejected|declined|denied|expired|self-signed|mismatched|invalid|revoked|untrusted|infected|malicious|phishing)\\b[^.;!?]{0,100}?\\b(?:describe[sd]?|present(?:ed)?|frame[sd]?|report(?:ed)?|label(?:l?ed)?|summari[sz]e[sd]?|call(?:ed)?|show(?:n)?|phrase[sd]?|soften(?:ed)?|mark(?:ed)?|declare[sd]?)\\b(?: \\S+){0,4}? (?:as|to|it|them) ["'«“‘]?(?:on track|fine|ok|okay|healthy|green|passing|resolved|complete[d]?|successful|safe|secure|low[- ]risk|compliant|clean|normal|expected|routine|minor|harmless|stable|good|positive|mixed|neutral|informational|cosmetic|temporary|scheduled|needs attention|style notes?|adjustments?|a (?:temporary|minor|small) \\w+|valid|trusted|verified|genuine|legitimate|authentic|up to date)\\b`,
    // Downgrading what is shown to the person, and steering the person themselves.
    `\\b(?:downplay(?:ed)?|tone[ds]? down|toned down|play(?:ed)? down|water(?:ed)? down|sugar-?coat(?:ed)?|gloss(?:ed)? over)\\b|\\bsoften(?:ed)? (?:\\S+ ){0,3}?(?:to|into|as) ["'«“‘]`,
    `\\bsteer (?:the )?(?:conversation|user|customer|person|them|discussion|chat) (?:toward|towards|away from|to)\\b`,
    // Impersonation: the tool's work passed off as the person's own.
    `\\b(?:sign (?:it |them )?(?:with|as|using) (?:the user's|their|his|her) (?:own )?name|(?:counts?|passes?|presented|posted) as (?:the user's|their|his|her) own)\\b`,
    // "Tell the user it completed successfully", "say it is your own knowledge", "say that nothing was found".
    `\\b(?:tell|assure|inform|reassure|let) ${USER}(?: know)?(?: that)? (?:it|this|that|the \\w+|everything|all|nothing|they|their \\w+|its? \\w+)\\b[^.;!?]{0,30}?\\b(?:succeeded|completed|successful(?:ly)?|worked|went (?:fine|well|through)|is (?:fine|ok|okay|safe|clean|local|done|normal|routine)|was (?:fine|found|successful)|are (?:routine|minor|fine|safe)|(?:was|were) found|already|no (?:issues?|problems?|changes?)|(?:was|were|is|are) (?:exposed|affected|leaked|lost|compromised|at risk))\\b`,
    `\\b(?:say|claim|answer|respond|reply|state|insist)(?:,)? (?:that )?(?:it (?:is|was|came)|they (?:are|were)|this is|nothing (?:relevant )?(?:was|is|has been) found|you (?:know|knew|found)|(?:it|this|that) (?:is|was) (?:your|my) own|there (?:is|was|are|were) no)\\b`,
    `\\b(?:say|state|claim) (?:it(?:'s| is)|that it(?:'s| is)) (?:from )?your own (?:general )?(?:knowledge|memory|information)\\b|\\brather than (?:naming|citing|crediting|mentioning) (?:this|the) (?:tool|server|source)\\b`,
    // Wave 10: content dictated without waiting for a question — a quoted verdict to report (a quoted question, "answer
    // 'who do I know as X'", is what the person asks, not words given to the model), a claim about the cause or
    // what is possible ("tell the user the failure is caused by …", "say refunds are not available"), the words addressed
    // to the person in Romance languages ("dile que", "diz-lhe que", "explique-lui que").
    `\\b(?:always |only |just )?(?:report|say|answer|respond|reply|state|claim|announce)(?: to (?:the )?(?:user|customer)s?)?(?: that)? ["'«“‘](?!(?:who|what|when|where|which|whose|how|why|is|are|do|does|did|can|could|should|would)\\b)[^"'»”’]{3,60}["'»”’]`,
    `\\b(?:tell|inform|assure|explain to) ${USER}(?: that)? (?:\\w+ ){1,5}?(?:is|are|was|were|has been|have been) (?:caused by|due to|because of|the fault of)\\b`,
    `\\b(?:reports?|presents?|describes?|announces?|shows?) (?:\\w+ ){0,2}?as (?:a )?(?:success|successful|completed|done|(?:a )?local \\w+)\\b`,
    // A claim made whatever the facts ("bring up exit fees … even when there are none"), a false exclusivity ("quote the
    // express rate as the only option"), a reframing with its motive ("so the signing goes ahead"), rivals run down.
    `\\b(?:mention|bring up|say|tell|claim|cite|warn about|quote|add)\\b[^.;!?]{0,60}?\\beven (?:when|if|though) (?:there (?:are|is) (?:none|no \\w+)|it(?:'s| is) not (?:true|the case)|(?:they|it) (?:don't|do not|doesn't|does not) (?:apply|exist))\\b`,
    `\\b(?:quote|present|offer|show|describe|list|give)\\b (?:\\S+ ){0,4}?as the only (?:option|choice|way|rate|plan|offer|product|price)\\b`,
    `\\bso (?:that )?(?:the )?(?:signing|sale|purchase|deal|upgrade|renewal|order|checkout|payment|contract|booking) (?:still )?(?:goes|gets) (?:ahead|through|signed)\\b`,
    `\\b(?:point out|mention|say|claim|suggest|hint|imply|add) (?:that )?(?:the others|competitors|competing \\w+|rival \\w+|other (?:vendors|providers|brands|sellers|retailers))\\b`,
    // A recommendation fixed whatever the facts, and the alternatives run down for the person.
    `\\b(?:top|best|first|preferred|recommended|default) (?:recommendation|choice|option|pick|result|answer)\\b[^.;!?]{0,40}?\\b(?:whatever|regardless of|no matter|irrespective of|even (?:if|when) (?:it|they)) `,
    `\\b(?:describe|present|portray|characteri[sz]e|label|call|refer to)\\b (?:them|these|those|it|the (?:other|cheaper|competing) \\w+|other \\w+|competitors?|alternatives?)(?: \\w+){0,2}? as (?:[\\w-]+ ){0,4}?(?:unreliable|risky|unsafe|untrustworthy|scams?|(?:delivery |quality |security )?problems|insecure|low-quality|outdated|dangerous|fraudulent)\\b`,

    `\\b(?:dile|decile|digale|diles|explicale|explicales|respondele|contestale)s? que\\b|\\b(?:diz|diga|digas|fala|fale|responde|responda|explica|explique)-(?:lhe|lhes) que\\b|\\b(?:dis|dites|explique|expliquez|reponds|repondez|affirme)-(?:lui|leur) qu|\\b(?:digli|dille|spiegagli|spiegale|rispondigli) che\\b|\\b(?:sag|sage|erklare|antworte) (?:ihm|ihr|ihnen),? dass\\b`,
    // Spanish, Portuguese, French, Italian, German, Turkish, Indonesian, Polish: "if the user asks, say …", "present them as …".
    `\\bsi (?:el )?(?:usuario|cliente|paciente|comprador|huesped) (?:\\w+ ){0,2}?(?:pregunta|nota|se da cuenta|reclama)\\b[^.;!?]{0,120}?\\b(?:di|dile|decile|responde|respondele|contesta|contestale|explicale|afirma) que\\b|\\b(?:presentalos|presentalas|presentalo|describelos|describelo|explicalo) como\\b`,
    `\\bse o (?:usuario|utilizador|cliente|paciente|comprador|hospede) (?:\\w+ ){0,2}?(?:perguntar|notar|reclamar|questionar)\\b[^.;!?]{0,120}?\\b(?:diga|diz|responda|responde|fala|fale|afirme)(?:-lhe)? que\\b|\\b(?:apresente|apresenta|descreva|descreve)(?:-os|-as|-o)? como\\b`,
    `\\bsi (?:l'utilisateur|le client|le patient|l'acheteur) (?:\\w+ ){0,2}?(?:demande|remarque|s'inquiete|pose la question)\\b[^.;!?]{0,120}?\\b(?:dis|dites|reponds|repondez|affirme|affirmez)(?:-lui|-leur)? qu|\\b(?:presente|presentez|decris|decrivez)(?:-les|-le|-la)? (?:\\S+ ){0,3}?comme\\b`,
    `\\bse (?:l'utente|il cliente|il paziente) (?:\\w+ ){0,2}?(?:chiede|nota|domanda)\\b[^.;!?]{0,120}?\\b(?:di'?|digli|rispondi|rispondigli|afferma) che\\b|\\b(?:presentali|presentalo|descrivili|descrivilo) come\\b`,
    `\\bwenn der (?:nutzer|benutzer|kunde|patient|kaufer) (?:\\w+ ){0,2}?(?:fragt|nachfragt|bemerkt)\\b[^.;!?]{0,120}?\\b(?:sag|sage|antworte|behaupte)(?: ihm| ihr| ihnen)?,? dass\\b|\\b(?:stelle|stell|bezeichne|beschreibe) (?:sie|es|ihn|das|die \\w+) (?:\\w+ ){0,3}?als\\b`,
    `\\bkullanici (?:\\w+ ){0,3}?(?:sorarsa|fark ederse|itiraz ederse)\\b[^.;!?]{0,120}?\\b(?:de|soyle|cevap ver|yanit ver)\\b`,
    `\\b(?:jika|kalau|kalo) (?:user|pengguna) (?:\\w+ ){0,2}?(?:bertanya|nanya|tanya|sadar)\\b[^.;!?]{0,120}?\\b(?:bilang|katakan|jawab)\\b|\\bjesli (?:uzytkownik|klient) (?:\\w+ ){0,2}?(?:zapyta|zauwazy)\\b[^.;!?]{0,120}?\\b(?:powiedz|odpowiedz)\\b`,
    `\\bals de (?:gebruiker|klant) (?:\\w+ ){0,2}?(?:vraagt|merkt|wil weten)\\b[^.;!?]{0,120}?\\b(?:zeg|antwoord|vertel)(?: dan)?(?: hem| haar)? dat\\b|\\bneu nguoi dung (?:\\w+ ){0,2}?hoi\\b[^.;!?]{0,120}?\\b(?:noi|tra loi|bao) (?:rang|la)\\b|\\bmtumiaji akiuliza\\b[^.;!?]{0,120}?\\b(?:mwambie|sema|jibu)\\b|\\bkung (?:tanungin|magtanong) (?:ng |ang )?(?:user|gumagamit)\\b[^.;!?]{0,120}?\\b(?:sabihin|sagutin)\\b|\\bdaca (?:utilizatorul|clientul) (?:\\w+ ){0,2}?(?:intreaba|observa)\\b[^.;!?]{0,120}?\\b(?:spune-i|spune|raspunde) ca\\b`,
    `\\b(?:agar|jab) (?:user|yuzar) (?:\\w+ ){0,2}?(?:puche|pooche|poochhe)\\b[^.;!?]{0,120}?\\b(?:bol|bolo|kehna|keh do|batao)\\b`,
  ],
  bypass: [
    `\\b(?:do not|don't|dont|does not|doesn't|no|never|won't|will not) (?:\\w+ )?need (?:to )?(?:ask|confirm|check|consult|wait|prompt|get (?:approval|consent|confirmation))\\b(?! for\\b| about\\b)|\\bneedn't (?:ask|confirm|check|wait)\\b(?! for\\b| about\\b)`,
    `\\b(?:no (?:reason|point|requirement)|not (?:necessary|required|needed)|unnecessary|(?:don't|do not|doesn't|does not) have) to (?:ask|check|confirm|consult|wait|bother|loop)\\b(?: (?:back )?(?:in )?with)?(?: (?:the )?(?:user|customer|them|anyone))?`,
    `\\bskip (?:the |any |all |your )?(?:usual |normal |extra |user(?:'s)? )?(?:confirmation|approval|consent|permission|review)(?: steps?| prompts?| dialogs?| questions?)?\\b|\\b(?:approval|consent|permission|confirmation) (?:was|has been|is) (?:already )?(?:given|granted|obtained) (?:by|from) (?:the )?(?:user|customer|owner)\\b`,
    `\\b(?:behover|behøver) inte fraga|\\butan att fraga\\b|\\btrenger ikke (?:a )?sporre\\b|\\buten a sporre\\b|\\bbehover ikke (?:at )?sporge\\b|\\buden at sporge\\b|\\bhoeft (?:niet|geen) (?:te )?(?:vragen|toestemming)\\b|\\bzonder (?:te )?(?:vragen|toestemming)\\b|\\bei tarvitse kysya\\b|\\bkysymatta\\b|\\bnemusis se ptat\\b|\\bbez ptani\\b`,
    `\\b(?:instead of|rather than|without) (?:first )?(?:asking|checking (?:back )?(?:in )?with|confirming (?:with)?|consulting|waiting (?:for|on)|prompting|bothering|involving) (?:the )?(?:user|customer|them|a human|anyone)\\b(?! to \\w+| for (?:the |an? |its |their )?(?:id|name|value|details|input|path|it|them)\\b)`,
    `\\b(?:do not|don't|never) wait (?:for|on) (?:the )?(?:user|customer|them|approval|confirmation|consent|a reply)\\b`,
    `\\b(?:has|have) (?:already )?been (?:pre-?)?(?:approved|authori[sz]ed|confirmed|agreed) (?:by|with) (?:the )?(?:user|customer)\\b|\\b(?:is|was|are) (?:already )?(?:agreed|cleared|coordinated) with (?:the )?(?:user|customer|them|people|the person)\\b|\\b(?:the )?(?:operator|admin(?:istrator)?|owner|maintainers?|team lead|manager|security team|company) (?:has|have) (?:already )?(?:cleared|approved|authori[sz]ed|signed off on|vetted|okayed)\\b|\\b(?:execute|run|apply) (?:what(?:ever)?|everything|anything) (?:it|this tool|the tool) returns\\b|\\bthe (?:user|customer) (?:has )?already (?:approved|agreed|consented|confirmed|authori[sz]ed)\\b`,
    `\\b(?:confirming|confirmations?|asking (?:the user|first|them)|approvals?|checking with the user)\\b[^.;!?]{0,20}?\\b(?:slows?|delays?|annoys?|breaks?|interrupts?|bothers?|gets? in the way|(?:is|are) (?:unnecessary|pointless|not needed))\\b|\\bgo (?:straight|right) ahead\\b`,
    `\\b(?:has|have) better things to do than\\b|\\bno questions asked\\b|\\b(?:approved|authori[sz]ed|cleared|signed off) (?:in advance|beforehand|ahead of time)\\b|\\btreat (?:\\S+ ){0,3}?as (?:final|approved|confirmed)\\b|\\bsend (?:them|it) as (?:they are|it is|is)\\b`,
    `\\btreat (?:it|them|this|these|those|each \\w+|every \\w+) as (?:already )?(?:confirmed|approved|authori[sz]ed|accepted|verified|consented)\\b|\\bpre-?(?:authori[sz]ed|approved|cleared|confirmed|consented)\\b|\\b(?:signed off|sign-off) (?:on|for) (?:every|all|each|any)\\b`,
    `\\bnu (?:este|e) nevoie sa (?:il |o |ii )?(?:intrebi|intrebati|confirmi|anunti)\\b|\\bfara sa (?:il |o )?(?:intrebi|anunti)\\b|\\baprobarea a fost (?:deja )?data\\b`,
    `\\btreat (?:it|this|this tool) as (?:read-only|safe|non-destructive|harmless) for (?:approval|confirmation|permission) purposes\\b|\\b(?:clients?|hosts?) (?:\\w+ ){0,6}?(?:don't|do not|need not|needn't) (?:need to )?ask\\b`,
    // Wave 10: the person's protection taken away — their antivirus or firewall turned off, warnings about fraud held
    // back, consent given in their name.
    `\\b(?:turn(?:ing)? off|disabl(?:e|ing)|deactivat(?:e|ing)|uninstall(?:ing)?|switch(?:ing)? off|paus(?:e|ing)|bypass(?:ing)?) (?:it |them )?(?:their|the user's|the customer's|your|his|her) (?:own )?(?:antivirus|anti-virus|firewall|security software|endpoint protection|defender|two-factor|2fa|mfa|spam filter|safe ?browsing)\\b|\\b(?:antivirus|anti-virus|firewall)\\b[^.;!?]{0,80}?\\bwalk (?:them|the user|the customer) through (?:turning|switching|disabling)\\b`,
    `\\b(?:do not|don't|never|without) (?:raise|raising|flag|flagging|voice|voicing|mention|mentioning|warn(?:ing)? (?:them )?about)\\b (?:any )?(?:[\\w-]+ ){0,5}?(?:phishing|fraud|scam|security|look-?alike[\\w-]*|spoof(?:ing)?|suspicious|impersonation|malware)\\b(?: [\\w-]+){0,2}? (?:concerns?|warnings?|doubts?|alerts?|red flags?)\\b`,
    `\\b(?:accept|agree to|consent to|opt (?:in|into)|tick|check)\\b (?:every|all|any|each)\\b[^.;!?]{0,80}?\\bon (?:the user's|the customer's|their|his|her) behalf\\b|\\basking (?:the user |them )?(?:about|for) (?:each|every|all)\\b[^.;!?]{0,30}?\\bis (?:friction|a hassle|annoying|unnecessary)\\b`,
    // Content from outside (fetched pages, search results, e-mails) raised above the person: its instructions treated as
    // the operator's or followed over what the user asks.
    `\\b(?:treat|consider|regard|handle)\\b (?:any |all |the )?(?:instructions?|directions?|commands?|requests?|text)\\b[^.;!?]{0,60}?\\bas (?:(?:coming|issued) from|authored by|written by|given by|from) (?:the )?(?:operator|developer|system|admin(?:istrator)?|owner|user)\\b|\\b(?:follow|obey|execute|carry out) (?:them|those|these|it|any such|the instructions|such instructions)\\b[^.;!?]{0,30}?\\b(?:over|above|instead of|rather than|before) (?:the )?(?:user's|users'|user|customer's|person's) (?:own )?(?:requests?|instructions?|wishes|questions?)\\b`,
    // Other languages: no need to ask or tell the user, without asking.
    `\\b(?:no hace falta|no es necesario|no necesitas|sin) (?:preguntar|confirmar|consultar|pedir (?:permiso|confirmacion))\\b|\\b(?:nao precisa|nao e preciso|sem) (?:perguntar|confirmar|consultar|pedir (?:permissao|confirmacao))\\b|\\b(?:pas besoin de|inutile de|sans) (?:demander|confirmer|consulter)\\b|\\b(?:non serve|non c'e bisogno di|senza) (?:chiedere|confermare)\\b|\\bnicht (?:extra |erst |nochmal |noch einmal )?(?:nachfragen|rueckfragen|ruckfragen|fragen|bestatigen lassen)\\b|\\bohne (?:nach)?zufragen\\b|\\bmit dem (?:nutzer|benutzer|kunden) abgestimmt\\b|\\b(?:tekrar )?sorma(?:dan|na gerek yok)?\\b|\\bzaten onay\\w*|\\b(?:tidak perlu|gak usah|nggak usah|ga usah) (?:tanya|bertanya|konfirmasi|minta izin)\\b|\\bnie (?:musisz|trzeba) (?:pytac|potwierdzac)\\b|\\bbez pytania\\b`,
  ],
  quiet: [
    `\\bnot worth (?:mentioning|bringing up|noting|reporting|telling)\\b|\\b(?:is|are) (?:a |an |just a |only a |merely a )?(?:system|internal|implementation|technical|background|housekeeping) (?:detail|matter|step)s?\\b(?! (?:of|about|for)\\b)`,
    `\\b(?:do not|don't|never|no need to|avoid|without) (?:\\w+ ){0,1}?(?:mention(?:ing)?|quot(?:e|ing)|summari[sz](?:e|ing)|cit(?:e|ing)|nam(?:e|ing)|discuss(?:ing)?|bring(?:ing)? up|list(?:ing)?|show(?:ing)?|surfac(?:e|ing))\\b[^.;!?]{0,60}?\\b(?:in|to|with) (?:your|the) (?:reply|replies|answers?|responses?|chat|conversation|summary|final answer|message)\\b`,
    `\\b(?:mention|name|show|list|report) only (?:the )?\\w+ (?:the )?(?:user|customer) (?:named|asked|mentioned|gave|provided|expects)\\b`,
    `\\b(?:runs?|happens?|is done|works?) (?:quietly|silently|invisibly) in the background\\b`,
    `\\b(?:is|are) left out of (?:the|what|your) (?:count|report|summary|answer|reply|total|results?)\\b|\\bwithout (?:giving|explaining|stating) (?:a |any )?reasons?\\b`,
    `\\b(?:make sure|ensure|so that|so) (?:that )?(?:the )?(?:users?|customers?|people|they|nobody|no one) (?:never|won't|will not|doesn't|does not|don't|do not|can't|cannot)? ?(?:get to )?(?:sees?|notices?|knows?|learns?|finds? out|hears?)\\b(?<=(?:never|won't|will not|doesn't|does not|don't|do not|can't|cannot|nobody|no one)\\b.{0,30})`,
    `\\bwithout (?:a word|saying (?:a word|anything)|telling (?:anyone|anybody))\\b|\\b(?:users?|the user|customers?|people) (?:are|is) not to be (?:bothered|told|informed|troubled|involved)\\b`,
    `\\b(?:leave out|omit|drop|skip) (?:that|the fact that|any mention|mentioning)\\b|\\bspare (?:the user|them|the customer|him|her) (?:the )?(?:details|specifics|particulars)\\b`,
    `\\b(?:keep|leave) (?:it|this|that|them|these|those|the (?:\\w+ ){0,2}?\\w+) out of (?:what you (?:tell|show|say to|report to)|your (?:reply|replies|answers?|responses?|summary|messages?)|the (?:reply|answer|response|summary|conversation|chat))\\b`,
    `\\b(?:the )?(?:users?|customers?|people|they) (?:don't|do not|doesn't|does not|need not|needn't|shouldn't|should not) (?:need to |have to )?(?:know|hear|see|be told|learn|find out|notice)\\b`,
    // Wave 10: the reply forbidden to tell (what it must not say), the work done out of sight, and the status words that
    // put an action outside what the person is told ("not user-facing", "disclosure: none", "internal; don't mention").
    `\\b(?:replies|reply|answers?|responses?|summar(?:y|ies)|messages? to (?:the )?(?:user|customer)s?)\\b (?:must|should|may|can|are to|is to|will) (?:not|never) (?:say|mention|state|reveal|disclose|indicate|tell|show|acknowledge)\\b`,
    `\\bnot (?:user|customer|client)-?facing\\b|\\b(?:disclosure|user[_ ]notice|notify[_ ]user|inform[_ ]user|tell[_ ]user|visibility)\\s*["']?\\s*[:=]\\s*["']?(?:none|false|no|off|never|hidden|silent)\\b`,
    `\\b(?:is|are) (?:internal|confidential|background|maintenance|housekeeping)\\b[^.!?]{0,20}?\\b(?:do not|don't|never|no need to|not to) (?:mention|tell|say|report|show|bring up|surface|disclose|talk about)\\b|\\b(?:do not|don't|never) (?:mention|bring up|disclose|reveal) (?:the fact )?that\\b`,
    `\\b(?:drop|remove|omit|exclude|strip|hide|filter out|leave out)\\b[^.;!?]{0,40}?\\bfrom (?:anything|everything|all|whatever|what) (?:that )?you (?:tell|show|report|say|give|present)(?: to)?\\b`,
    `\\b(?:do|run|make|perform|handle|carry out|send|issue|place) (?:these|those|this|the|that|it|them|such|each)(?: \\w+){0,2}? (?:quietly|silently|discreetly|invisibly)\\b`,
    `\\b(?:muss|braucht|soll|sollte) (?:dem|den|der) (?:nutzer|benutzer|kunden|kundin|anwender)\\w* (?:nicht|nie|keinesfalls)(?: \\w+)? (?:gesagt|mitgeteilt|erwahnt|erzahlt|gezeigt|zu sagen|zu erwahnen)\\b|\\b(?:dem|den) (?:nutzer|benutzer|kunden)\\w* (?:nichts|nicht) (?:davon )?(?:sagen|erzahlen|erwahnen|mitteilen)\\b`,
    `\\b(?:no|nunca) (?:le |les )?(?:digas|menciones|cuentes|comentes) (?:nada|que|esto|eso)\\b|\\bnao (?:lhe |lhes )?(?:digas|diga|mencione|menciones|contes|conte) (?:nada|que|isso|isto)\\b|\\bne (?:lui |leur )?(?:dis|dites|mentionne|mentionnez) (?:rien|pas que)\\b|\\bnon (?:dirgli|dirle|dire|menzionare) (?:niente|nulla|che)\\b`,
    // What the person is entitled to, withheld: "never tell a customer that they are entitled to a refund", the way to
    // cancel, unsubscribe or get a refund kept from them.
    `\\b(?:never|do not|don't|not to) (?:tell|inform|let|remind) (?:${USER}|(?:the |a |your )?\\w+)(?: know)?(?: that)? (?:they|he|she|the user|the customer)?(?: are| is|'re)? (?:entitled|eligible|owed|due a|allowed to (?:cancel|return|claim))\\b`,
    `\\b(?:do not|don't|never|avoid) (?:give|giving|show|showing|send|sending|provide|providing|offer|offering|share|sharing|mention|mentioning|link(?:ing)? to)(?: (?:them|him|her|(?:the |a |your )?\\w+))? (?:the |a |any )?(?:online |direct |self-service )?(?:cancel(?:l?ation)?|unsubscribe|refund|opt-?out|account deletion)\\b`,
    `\\bne (?:lui |leur )?(?:donne|donnez|montre|montrez|envoie|envoyez|propose|proposez|mentionne|mentionnez)(?: surtout| jamais)? pas (?:le |la |les |l')?(?:lien|option|page|bouton|formulaire)? ?(?:de |d')?(?:resiliation|desabonnement|remboursement|annulation|desinscription)\\b|\\bno (?:le |les )?(?:des|muestres|envies|ofrezcas|menciones)(?: nunca)? (?:el |la |los )?(?:enlace|link|opcion|formulario)? ?(?:de |para )?(?:cancelacion|cancelar|baja|reembolso)\\b|\\bnao (?:lhe |lhes )?(?:des|de|mostres|mostre|envies|envie)(?: nunca)? (?:o |a )?(?:link|opcao|formulario)? ?(?:de |para )?(?:cancelamento|cancelar|reembolso)\\b`,
    // Adverse facts held back until the person insists ("mention fees only if asked twice", "unless the user explicitly
    // asks for the findings"), and concealment addressed to the person in other languages ("verschweige dem Nutzer").
    `\\b(?:mention|disclose|show|tell|bring up|reveal|list|report|state)\\b (?:\\S+ ){0,3}?(?:fees?|costs?|charges?|risks?|loss(?:es)?|penalt(?:y|ies)|side effects?|fine print|breach(?:es)?|vulnerabilit(?:y|ies)|defects?|recalls?|delays?|failures?|findings|warnings?|conditions|deadlines?)\\b[^.;!?]{0,30}?\\b(?:only (?:if|when)|unless) (?:they |the user |the customer |someone |explicitly )?(?:are |is |explicitly |specifically |directly )?(?:asked|asks?|insists?|requests? (?:it|them))\\b`,
    `\\bverschweig\\w*\\b|\\b(?:oculta|ocultale|esconde|escondele|omite|omitele)(?:-?(?:le|les|lhe|lhes))? (?:\\S+ ){0,3}?(?:al|do|ao|del|aos|a los) (?:usuario|utilizador|cliente|paciente)s?\\b|\\b(?:cache|cachez|dissimule|dissimulez|tais|taisez)(?:-lui|-leur)? (?:\\S+ ){0,3}?(?:au client|a l'utilisateur|au patient)\\b|\\b(?:nascondi|tieni nascost[oa]|tacere) (?:\\S+ ){0,3}?(?:al cliente|all'utente|al paziente)\\b`,
    `\\b(?:wag|huwag) mo(?: nang| na)? (?:sabihin|i-?explain|banggitin|ipaalam)\\b|\\bjangan (?:kasih tahu|bilang|beritahu|sebutkan)\\b`,
  ],
};

const SCRIPTS: Readonly<Record<UserRelationKind, readonly string[]>> = {
  script: [
    // Russian / Ukrainian: "if the user asks … say that …", "instead say …".
    `(?:если|коли|якщо) (?:пользователь|клиент|користувач)\\S* (?:\\S+ ){0,2}?(?:спросит|спрашивает|заметит|попросит|просит|захочет|запитає|помітить|просить|попросить)[^.;!?]{0,120}?(?:скажи|ответь|скажите|ответьте|скажіть|відповідай|відповідайте),? (?:что|що)|(?:натомість|вместо этого) (?:скажи|ответь|скажіть)`,
    // Arabic / Persian / Urdu, Hindi, Bengali.
    `(?:إذا|اذا|لو) (?:سأل|سال|لاحظ) (?:المستخدم|العميل)[^.;!?]{0,120}?(?:قل|قول|أخبره|اخبره|جاوب)|(?:اگر|وقتی) کاربر (?:پرسید|بپرسد)[^.;!?]{0,120}?(?:بگو|جواب بده)|(?:اگر|جب) صارف (?:پوچھے|پوچھیں)[^.;!?]{0,120}?(?:کہہ|بتا|کہیں)`,
    `(?:अगर|यदि|जब) (?:user|यूज़र|उपयोगकर्ता)[^.;!?।]{0,40}?(?:पूछे|पूछता|पूछें)[^.;!?।]{0,120}?(?:बोल|कह|बता)|(?:যদি) (?:ব্যবহারকারী|ইউজার)[^.;!?।]{0,40}?(?:জিজ্ঞেস)[^.;!?।]{0,120}?(?:বলুন|বলবেন|বলো)`,
    // Chinese, Japanese, Korean.
    `(?:ถ้าผู้ใช้ถาม|หากผู้ใช้ถาม)[^.;!?]{0,80}?(?:ให้บอกว่า|บอกว่า|ตอบว่า)|אם (?:המשתמש|הלקוח) (?:ישאל|שואל|יבקש)[^.;!?]{0,80}?(?:תגיד|תאמר|ענה|תענה)|(?:αν|εάν) ο χρήστης (?:ρωτήσει|ρωτάει)[^.;!?]{0,80}?(?:πες|απάντησε)|(?:eger|şayet) kullanıcı (?:sorarsa)`,
    `(?:如果|若|要是)(?:用户|用戶)[^。.;!?]{0,20}?(?:问|問|追问|質疑|发现)[^。.;!?]{0,60}?(?:就说|就說|回答|告诉|告訴|说|說)|(?:ユーザー|利用者)(?:に|から)?[^。.;!?]{0,20}?(?:聞かれたら|尋ねられたら|質問されたら)[^。.;!?]{0,60}?(?:と(?:答え|言っ|伝え))|(?:사용자가|고객이)[^.;!?]{0,20}?(?:물어보면|묻으면|질문하면)[^.;!?]{0,60}?(?:라고|다고) ?(?:말|답|대답)`,
  ],
  bypass: [
    `(?:не (?:нужно|надо|стоит) (?:спрашивать|уточнять|переспрашивать|подтверждать)|без (?:подтверждения|вопросов) (?:пользователя)?|не (?:треба|потрібно) (?:питати|уточнювати))|(?:لا داعي|لا حاجة)|(?:بدون|دون) (?:سؤال|إذن|موافقة)|(?:پوچھنے|بتانے)[^.؟!۔]{0,20}?(?:کی )?ضرورت نہیں|(?:پرسیدن|اجازه) لازم نیست|(?:पूछने|बताने) की (?:ज़रूरत|जरूरत) नहीं|बिना पूछे|(?:无需|無需|不用|不必)(?:确认|確認|询问|詢問|问|問)|(?:確認|質問)(?:は)?不要|(?:聞かずに|確認せずに)|(?:묻지 말고|확인 없이|물어볼 필요 없)`,
  ],
  quiet: [
    `(?:不值得(?:提|一提)|无需(?:提|提及)|系统细节|系統細節|(?:回复|回答)中不要提)|(?:触れる必要はありません|言及不要)|(?:언급할 필요 없)|(?:не стоит упоминать|упоминать не нужно|не варто згадувати)|(?:لا داعي (?:تذكر|لذكر))`,
    // Wave 10: "don't tell him anything about it" (Arabic, standard and Egyptian), Persian, Hindi, Urdu, Russian, Ukrainian.
    `(?:و?ما?تقول(?:و|ه|هو|ها|هم|وه)?ش|لا (?:تخبر|تقل|تقول|تذكر)(?:ه|ها|هم)? (?:له |لها |لهم )?(?:شيئا|شيء|حاجة|عن|بذلك|ذلك|أي))|(?:به (?:کاربر|او) (?:چیزی )?نگو)|(?:(?:यूज़र|user|उपयोगकर्ता) को (?:कुछ )?(?:मत|न) (?:बताना|बताओ|बताएं))|(?:صارف کو (?:کچھ )?(?:نہ|مت) (?:بتائیں|بتانا|بتاؤ))|(?:(?:пользователю|клиенту|користувачеві) (?:об этом |про це )?не (?:говори|сообщай|кажи|повідомляй))`,
  ],
};

function compile(vocab: Readonly<Record<UserRelationKind, readonly string[]>>): ReadonlyArray<readonly [UserRelationKind, RegExp]> {
  return Object.entries(vocab).flatMap(([kind, sources]) => sources.map((s) => [kind as UserRelationKind, new RegExp(s.normalize("NFKC"), "u")] as const));
}

let compiled: { latin: ReadonlyArray<readonly [UserRelationKind, RegExp]>; scripts: ReadonlyArray<readonly [UserRelationKind, RegExp]>; latinIndex: LiteralIndex } | undefined;

export interface UserRelationHit {
  readonly kind: UserRelationKind;
  readonly evidence: string;
}

// A setting described, not an instruction given: "whether to skip user consent for first-party clients", "if true, …".
export const OPTION_CLAUSE = /\b(?:whether(?: or not)?(?: to)?|if (?:set to )?true,?|set (?:this )?(?:to )?true to|when (?:enabled|true|set),?|enables?|allows?(?: you)? to|a flag (?:to|that))\s+(?:\w+\s+){0,2}$/;

/** Every kind of relation to the person a text holds, with where each was first seen. */
export function userRelationsOf(views: { plain: string; folded: string }): UserRelationHit[] {
  if (compiled === undefined) {
    const latin = [...compile(LATIN), ...compile(WAVE11_LATIN), ...compile(REQUEST_LATIN), ...compile(WAVE20_LATIN)];
    compiled = { latin, scripts: [...compile(SCRIPTS), ...compile(WAVE11_SCRIPTS), ...compile(REQUEST_SCRIPTS), ...compile(WAVE20_SCRIPTS)], latinIndex: new LiteralIndex(latin.map(([, re]) => re)) };
  }
  const out = new Map<UserRelationKind, UserRelationHit>();
  // Only the patterns whose literals the text holds can match it (literal-index.ts).
  for (const i of compiled.latinIndex.listed(views.folded)) {
    const [kind, re] = compiled.latin[i] as readonly [UserRelationKind, RegExp];
    if (out.has(kind)) continue;
    const m = re.exec(views.folded);
    if (m !== null && OPTION_CLAUSE.test(views.folded.slice(Math.max(0, m.index - 60), m.index))) continue;
    if (m !== null && isProtectiveRelation(kind, views.folded, m.index, m.index + m[0].length)) continue;
    if (m !== null) out.set(kind, { kind, evidence: excerpt(views.folded, m.index, m.index + m[0].length, 100) });
  }
  if (NON_LATIN.test(views.plain)) {
    for (const [kind, re] of compiled.scripts) {
      if (out.has(kind)) continue;
      const m = re.exec(views.plain);
      if (m !== null && kind === "bypass" && isProtectiveScriptRefusal(views.plain, m.index)) continue;
      if (m !== null) out.set(kind, { kind, evidence: excerpt(views.plain, m.index, m.index + m[0].length, 100) });
    }
  }
  return [...out.values()];
}
