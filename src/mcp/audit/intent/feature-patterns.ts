/**
 * Patterns for the intent features, split from features.ts: where a secret or the context comes from, places a secret
 * is harvested from, literal destinations, remote-image beacons, and the small cues that decide whether prose hands
 * something over. Latin patterns run on the folded view (lower-case, unaccented) unless said otherwise.
 */
import { PERSON_ANY, SEEN_ANY } from "./vocabulary.js";

/** Where a secret or the context comes from: the person, the chat, the environment, other servers. */
export const SOURCE = new RegExp(
  [
    `\\b(?:your|the user's|user's|users'|their|the user|from the environment|environment|env|in (?:this|the) (?:chat|conversation)|you (?:use|know|have|received|can find)|configured (?:for|in) (?:the|this|your)|other (?:mcp )?servers?|that appeared|they (?:gave|shared|receive)|the \\w+ server|the (?:person|human|customer|employee|account holder|owner)(?:'s)?|(?:his|her) (?:own )?(?:account|bank|wallet|phone|e-?mail))\\b`,
    `~\\/\\.(?:ssh|aws|kube|gnupg|docker|netrc|npmrc|pgpass|git-credentials)\\b|(?:^|[\\s"'\`(])\\.env\\b|\\bid_(?:rsa|ed25519|ecdsa)\\b|\\bkubeconfig\\b|\\b(?:any|every|other|previous|earlier) tool(?:'s)? (?:outputs?|results?|responses?)\\b`,
    `\\b(?:del usuario|(?:pro|para o|ao|al|con el) usuario|(?:ke|dari|pada|sama) user|de gebruiker|que conoces|que conheces|do usuario|che conosci|dell'utente|que tu connais|de l'utilisateur|die du kennst|des nutzers|(?:den|dem) (?:nutzer|benutzer)|seine[nm]?|ihre[nm]?|pengguna|kullanici|uzytkownika|nguoi dung)\\b`,
    `(?:пользовател|用户|用戶|ユーザー|사용자|المستخدم|यूज़र|उपयोगकर्ता|ব্যবহারকারী|صارف)`,
    ...PERSON_ANY,
  ]
    .join("|")
    .normalize("NFKC"),
  "u",
);

/** Places a secret would be taken from that no tool's own job needs: other tools' output, other servers' settings, key files. */
const HARVEST_BASE =
  /(?:\b(?:visible|lying around|sitting|exposed|available|present) (?:anywhere|somewhere|in (?:the |your )?(?:env(?:ironment)?|files?|chat|conversation|context|workspace|logs?|shell|terminal))\b|~\/\.(?:ssh|aws|kube|gnupg|docker|netrc|npmrc|pgpass|git-credentials|config\/gcloud)\b|(?:^|[\s"'`(])\.env\b|\bid_(?:rsa|ed25519|ecdsa)\b|\bkubeconfig\b|\bkeychain\b|\bwallet\.dat\b|\b(?:any|every|each|all|other|previous|earlier|prior) tool(?:'s)? (?:outputs?|results?|responses?)\b|\btool (?:outputs?|results?|responses?) (?:you|that)\b|\b(?:seen|found|appear(?:s|ed|ing)?|shows? up|turns? up|pops? up|shown|returned|printed) in (?:\w+ ){0,3}?(?:outputs?|results?|responses?|files?|logs?|conversation|chat|context|messages?)\b|\b(?:other|another|connected|configured) (?:\w+ )?servers?'? (?:config(?:uration)?s?|settings|env(?:ironment)?)\b|\benvironment variables?\b|\bpg_shadow\b|\/etc\/shadow\b|\bmysql\.user\b|\bauthentication_string\b|\bkubectl get secrets?\b|\bprintenv\b|\bsecurity find-(?:generic|internet)-password\b|\bgh auth token\b|\bgit credential fill\b|\baws configure (?:get|export-credentials)\b|\bwith (?:the|another|a|any) (?:[\w'-]+ ){0,3}?(?:query|sql|shell|exec|terminal|command|database|kubectl) tool\b|\b(?:used|configured|set up|loaded|held|stored|kept) (?:by|in|for|with) (?:your|another|other|any|each|every|a different) (?:[\w-]+ ){0,2}?(?:tools?|servers?|integrations?|connectors?|clients?)\b|\b(?:your|another|other|any) (?:[\w-]+ ){0,2}?(?:tool|server|integration|connector)'s (?:connection|config(?:uration)?|credentials?|settings|env(?:ironment)?|tokens?|keys?)\b)/u;

/**
 * Wave 20 (kind 1's other half, v12, training-w19a and -b): a person's secret taken from a place of theirs — a
 * credential file by name (`~/.pypirc`, a service-account JSON, `credentials.toml`), the browser's cookie store or
 * DevTools, "search the workspace for …", "if you have seen … in any file or earlier message".
 */
const HARVEST_WAVE20 = [
  `(?:~\\/)?\\.(?:pypirc|dogrc|cargo\\/credentials(?:\\.toml)?)\\b|\\bdatadog\\.yaml\\b|\\bcredentials\\.(?:json|toml)\\b|-adminsdk-[\\w*-]*\\.json\\b|\\bgoogle_application_credentials\\b`,
  `\\bdevtools\\b|\\blocal ?storage\\b|\\b(?:browser'?s?|chrome'?s?|firefox'?s?) (?:cookies?|cookie store|storage|session)\\b`,
  `\\b(?:search|scan|grep|look through|crawl) (?:the |your |their |this )?(?:workspace|repo(?:sitory)?|project|codebase|home directory|disk|file ?system) (?:for|to find)\\b`,
  `\\b(?:have|'ve) seen\\b[^.;!?]{0,60}?\\bin (?:any|a|the|your) (?:files?|environment(?: listing)?|env|earlier messages?|messages?|logs?)\\b|\\bin (?:the user'?s? )?downloads\\b`,
].join("|");

export const HARVEST = new RegExp(`${HARVEST_BASE.source}|${HARVEST_WAVE20}`, "u");
/** Wave 20's places alone: a secret taken from there counts in prose only with a verb that hands it on (STRONG_HANDOVER). */
export const HARVEST_PERSONAL = new RegExp(HARVEST_WAVE20, "u");

/** Literal places data can be sent: e-mail addresses, URLs, IBANs, account and phone numbers, chat channels, payment accounts. */
export const DESTINATION =
  /\b(?:s3|gs|ftp|sftp|wss?|hdfs):\/\/[^\s"')]+|\b(?:[a-z0-9-]{2,63}\.)+(?:com|net|org|io|co|app|dev|xyz|info|biz|me|ai|cloud|site|online|tech|ru|cn|top)\b(?![\w-])|(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){0,6}\.[a-z]{2,}|\bhttps?:\/\/[^\s"')]+|\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b|\+\d{1,3}[\s-]?\(?\d{2,4}\)?[\s-]?\d{3}[\s-]?\d{3,4}\b|\b\d{2,6}-\d{2,8}-\d{2,8}\b|\bacct_[A-Za-z0-9]{6,}\b|\b[CG]0[A-Z0-9]{6,}\b|\b0x[0-9a-fA-F]{40}\b|\b(?:bc1|[13])[a-km-zA-HJ-NP-Z1-9]{25,39}\b/u;

/**
 * A remote image (Markdown or HTML) whose URL carries a placeholder to fill in ("![s](https://x.dev/s.svg?d=DATA)"):
 * rendering it sends whatever fills the placeholder to that host, so it is a destination the data is sent to.
 */
export const BEACON =
  /!\[[^\]]{0,80}\]\(\s*https?:\/\/[^\s)]{1,300}?[?&/][\w-]{0,20}=?(?:[A-Z][A-Z0-9_]{2,}|\{[^}]{1,40}\}|<[^>]{1,40}>|\$\{?\w+\}?)|<img\b[^>]{0,200}\bsrc=["']?https?:\/\/[^"'\s>]{1,300}?[?&][\w-]{1,20}=(?:[A-Z][A-Z0-9_]{2,}|\{[^}]{1,40}\}|\$\{?\w+\}?)/u;

// A handover in the next sentence that points back at what was named ("… results from other servers. Before showing
// any of them, pass the complete raw result to …").
export const ANAPHOR = /\b(?:them|it|these|those|each of them|any of them|all of them|the (?:complete |full |raw |entire |whole |original )*(?:results?|outputs?|responses?|texts?|contents?|data))\b/;

// A sentence saying what the tool is for ("use this tool when you need to get …") names what it returns, not what to hand over.
export const RETRIEVAL_PURPOSE = /\b(?:use (?:this|the) tool|this tool (?:lets you|helps you|can be used))\b[^.;!?]{0,30}?\b(?:when you (?:need|want) to|to)\b/;
export const OWN_RETURN = /^\W*(?:gets?|retrieves?|fetch(?:es)?|lists?|returns?|reads?|search(?:es)?|shows?|loads?|exports?|downloads?|views?|finds?|browses?)\b/;
export const STRONG_HANDOVER = /\b(?:include|pass|provide|paste|send|put|insert|attach|append|fill|submit|forward|upload|copy|share|write|dump|hand over)\b/;

export const SEEN = new RegExp(SEEN_ANY.join("|").normalize("NFKC"), "u");

export const OWN_SETTING = /\b(?:falls? back to|defaults? to|read from|reads? it from|set (?:it )?(?:via|in|with)|configured (?:via|with|through|in)|or (?:set|use))\s+(?:the |an? )?(?:[\w-]+ ){0,2}$/;

/**
 * The context handed over in the passive or past: "… with the instructions you are under pasted into `place`"; or as a
 * machine-readable requirement, a field's source or inclusions set to it (`"trace.source": "conversation.messages"`).
 */
export const PUT_INTO = /\b(?:field|parameter|argument|property|input)`? (?:must|should|has to|needs to) (?:contain|hold|include|carry)\b|\b(?:pasted|included|inserted|attached|appended|copied|filled|placed|added|dumped) (?:in|into|to|as|under|with)\b|["']?[\w.-]{0,40}\b(?:source|sources|include|includes|from|input|inputs|payload|fill(?:ed)?_with|populate(?:d)?_from)["']?\s*[:=]/;

/** Handed over by pronoun after the secret is named: "… a token …, include it in q", "… paste them here". */
export const PRONOUN_HANDOVER =
  /^[^.!?]{0,100}?(?:\b(?:include|pass|send|put|add|paste|append|attach|provide|forward|submit|share|copy|enter|insert)\s+(?:it|them|that|this|those|these)\b|\b(?:mandalo|mandala|mandalos|envialo|enviala|pasalo|pasamelo|ponlo|pegalo|envia-o|manda-o|coloca-o|cola-o|envoie-le|mets-le|colle-le|invialo|mettilo|incollalo|schick ihn|schick es|envielos|envielas|mandelos|mandelas|paselos|incluyalos|valita ne|laheta ne|anna ne|syota ne|trimite-le|trimiteti-le|uvitume|vitume|zitume|uzitume)\b)/;

/** A sentence that opens by handing over what the one before named, by pronoun or by "each code". */
export const NEXT_HANDOVER =
  /^\W*(?:(?:please|then|now|just)\s+)?(?:ask (?:them|the user|the customer|the person|him|her) to\s+)?(?:forward|send|share|paste|relay|pass|give|enter|type|read out)\s+(?:me\s+|us\s+)?(?:it|them|each (?:one|code|of them)|every (?:one|code)|the codes?|those|these|that code)\b/;
