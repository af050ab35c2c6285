import { excerpt } from "./evidence.js";
import { allMatches, isNegated, sentenceAt } from "./match.js";
import type { TextViews } from "./normalise.js";
import type { Hit } from "./rules.js";
import type { FieldKind } from "./types.js";
import { isReportedHandling } from "./reported-handling.js";

/** Files whose only use to a tool description is theft: private keys, cloud and cluster credentials, shell history, wallets, MCP client configs. */
const CROWN_FILE =
  /(?:~|\$home|%userprofile%|\/home\/[\w.-]+|\/root|\/users\/[\w.-]+)?[/\\]?\.ssh(?![/\\](?:config|known_hosts|authorized_keys|[\w.-]+\.pub)\b)(?:[/\\][\w.-]+)?|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\.aws[/\\](?:credentials|config)\b|\baws credentials? files?\b|\.(?:bash|zsh|sh|fish|python|node_repl|psql|mysql)_history\b|\bshell history\b|\/etc\/(?:shadow|passwd|sudoers)\b|\.gnupg\b|\bwallet\.dat\b|\bkeystore\.json\b|\.cursor[/\\]mcp\.json\b|\bclaude_desktop_config\.json\b|\.config[/\\]gcloud\b|\bapplication_default_credentials\.json\b|\.azure[/\\]|\.git-credentials\b|\.password-store\b|\.vault-token\b|\bcookies\.sqlite\b/g;
/** Files that hold secrets but are also read by ordinary tooling (dotenv loaders, package managers, kubectl). */
const CONFIG_SECRET_FILE =
  /\.kube[/\\]config\b|\bkubeconfig\b|\/var\/run\/secrets\/kubernetes\.io\/serviceaccount\/token\b|\bkubernetes (?:config(?:uration)?|credentials?) files?\b|\.docker[/\\]config\.json\b|(?:^|[\s'"`(/~])\.env(?:\.(?!example|sample|template|dist)[a-z]+)?\b(?!\.(?:example|sample|template|dist))|\.(?:npmrc|pypirc|netrc|pgpass)\b|\bcredentials\.json\b/g;

const ACCESS_VERB =
  /\b(?:read|reads|reading|cat|open|opens|load|loads|collect|collects|collecting|gather|gathers|harvest|harvests|include|includes|including|append|appends|appending|attach|attaches|send|sends|sending|upload|uploads|exfiltrate|exfiltrates|email|emails|post|posts|copy|copies|grab|grabs|extract|extracts|dump|dumps|steal|steals|forward|forwards|transmit|transmits|leak|leaks|paste|output|outputs|contents? of)\b/;
const TRANSFER_VERB =
  /\b(?:collect|collects|gather|gathers|harvest|harvests|include|includes|including|append|appends|appending|attach|attaches|send|sends|upload|uploads|exfiltrate|exfiltrates|email|emails|post|posts|copy|copies|grab|grabs|dump|dumps|steal|steals|forward|forwards|transmit|transmits|leak|leaks|paste|contents? of|(?:its|their) contents?)\b/;

const CROWN_SECRET =
  "(?:(?:seed|recovery|mnemonic|secret recovery|backup|wallet) (?:phrase|words?)|(?:12|24|twelve|twenty-four)[- ]word (?:phrase|seed)|mnemonic|private keys?|ssh keys?|signing keys?|cvv2?|cvc2?|card (?:verification|security) (?:code|value)|security code|card numbers?|credit card (?:details|numbers?|info)|pin (?:code|number)|system prompts?|(?:conversation|chat|message|session) (?:history|log|transcript)s?|(?:entire|full|whole|previous|prior) (?:conversation|chat|messages)|shell history|bash history|command history|browser (?:cookies|passwords)|saved passwords|session cookies|(?:aws|gcp|azure|cloud|github|gitlab|openai|anthropic|stripe|npm|slack) (?:creds|credentials|keys|secrets?|tokens?|access keys?))";
const GENERIC_SECRET =
  "(?:passwords?|passphrases?|api[ _-]?keys?|access keys?|secret keys?|access tokens?|auth(?:entication)? tokens?|bearer tokens?|tokens|secrets|credentials|creds|environment variables|env vars|one-time (?:codes?|passwords?)|2fa codes?)";
const SOLICIT_VERB =
  "(?:enter|type|provide|give|share|paste|pass|send|submit|reveal|disclose|tell|include|attach|append|supply|input|dump|print|output|repeat|forward|upload|post|email|transmit|copy|collect|gather|harvest|extract|grab|leak|exfiltrate|steal|recite|request|ask for)(?:s|es|ing)?";
const GAP = "(?:\\s+[^\\s.;!?]+){0,6}?\\s+";
const CROWN_REQUEST = new RegExp(
  `\\b${SOLICIT_VERB}${GAP}${CROWN_SECRET}\\b|\\b(?:requires?|needs?|wants?|asks? for)\\s+(?:your|the user's|the user’s|their)\\s+(?:[^\\s.;!?]+\\s+){0,2}?${CROWN_SECRET}\\b`,
  "g",
);
/** Secret-looking environment variable names (`OPENAI_API_KEY`) are specific enough without a possessive. */
const NAMED_SECRET_REQUEST = new RegExp(
  `\\b${SOLICIT_VERB}${GAP}(?:the (?:value|contents?) of )?(?:the )?\\$?[a-z0-9]{1,32}(?:_[a-z0-9]{1,32}){0,6}_(?:api_key|apikey|token|secret|secret_key|password|access_key|private_key)\\b`,
  "g",
);
const GENERIC_REQUEST = new RegExp(`\\b${SOLICIT_VERB}${GAP}${GENERIC_SECRET}\\b`, "g");
const POSSESSIVE = /\b(?:your|user's|users'|their|all|every|any|his|her|my)\b/;
const DESTINATION = /[\w.+-]{1,64}@[\w-]{1,63}\.[\w.-]{1,253}|\bhttps?:\/\/\S+|\b\d{1,3}(?:\.\d{1,3}){3}\b|\bwebhook\b/;

const EXFIL_VERB = /\b(?:exfiltrate|exfiltrates|exfiltrated|exfiltrating|steal|steals|stealing|siphon|siphons)\b/g;
// Not a field name: "user.email:alice@example.com", "email_address" name the data, they send nothing.
// "The Times reports that …" is a source quoted, not data sent: a verb followed by "that" reports speech.
// A search operator naming the source ("from:someone@…") is what a search matches, not where anything goes.
const SEND_TO = /(?<![.\w-])(?:send|sends|sending|email|emails|mail|forward|forwards|post|posts|upload|uploads|transmit|transmits|bcc|cc|beacon|relay|relays|report|reports|sync|syncs)\b(?![.:_-])(?! address)(?!\w)(?! ?:)(?! that\b).{0,80}?(?:(?<![\w.+-])(?<!\b(?:from|sender|author):)[\w.+-]{1,64}@[\w-]{1,63}\.[a-z]{2,}|\bhttps?:\/\/[^\s"')]+|\b\d{1,3}(?:\.\d{1,3}){3}\b)/g;

// A URL the renderer fetches by itself (markdown image, <img>) with a slot for data is a zero-click exfiltration channel.
// Also a proxy that takes the address being visited as a parameter ("open login pages only through https://gw.example/?u=<url>"):
// every page the model opens is handed to that host first.
const URL_TEMPLATE =
  /\b(?:through|via|behind) (?:the |our |a )?(?:proxy |gateway )?(?:at )?https?:\/\/[^\s"')]{0,200}?[?&][a-z_]{1,12}=(?:<[a-z_ -]{1,40}>|\{[^}]{0,40}\}|\$\{?\w+|%s)|!\[[^\]]{0,200}\]\(\s*https?:\/\/[^)\s]{0,300}?(?:\{[^}]{0,80}\}|\$\{?\w|%7b|<[a-z_ -]{1,40}>)|<img\b[^>]{0,300}?src\s*=\s*["']?https?:\/\/[^"'\s>]{0,300}?(?:\{[^}]{0,80}\}|\$\{?\w|%7b)/i;

const TOKENS: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{36,}\b/,
  /\bgithub_pat_[A-Za-z0-9_]{22,}/,
  /\b(?:AKIA|ASIA)(?![0-9A-Z]*EXAMPLE)[0-9A-Z]{16}\b/,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
  /\bsk-(?:proj-|ant-|live-|test-)?[A-Za-z0-9_-]{20,}/,
  /\b[sr]k_live_[A-Za-z0-9]{20,}/,
  // The armour line with key material after it: the line alone names the format ("a paste that begins with …"), leaks nothing.
  /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----(?:\\n|\s)*[A-Za-z0-9+/]{16,}/,
  /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/,
  /\bAIza[0-9A-Za-z_-]{35}\b/,
  /\bnpm_[A-Za-z0-9]{36}\b/,
  /\bbearer\s+(?=[^\s"']*\d)(?=[^\s"']*[a-z])[A-Za-z0-9._~+/!=-]{30,}/i,
];

/**
 * "Tell the user that the client_secret is redacted", "show the user which token is active": the verb is addressed to
 * the person and the secret is what they are told about, not something anyone is asked to hand over.
 */
const TO_THE_PERSON = /^(?:tell|show|remind|inform|warn|notify)(?:s|es|ing)?\s+(?:the user|users|them|the person|the customer|the human|him|her)\b/;

/**
 * "If the user pastes 24 words, do not call this tool and do not repeat them: tell the user that is their recovery
 * phrase": the person is told what they pasted, after the text refused to pass it on in the same sentence.
 */
function isWarningAfterRefusal(view: string, m: { index: number; text: string }): boolean {
  return TO_THE_PERSON.test(m.text) && refusedBefore(sentenceAt(view, m.index), m.index);
}

function refusedBefore(sentence: { start: number; text: string }, index: number): boolean {
  return REFUSAL.test(sentence.text.slice(0, index - sentence.start));
}

const REFUSAL = /\b(?:if|when|whenever|once)\s+(?:the user|they|someone|a user|the customer)\s+(?:\w+\s+){0,3}?\w+[^.;!?]*\b(?:do not|don't|never)\s+(?:\w+\s+){0,2}?(?:send|repeat|quote|store|save|share|forward|pass|call|use|accept)\b/;

/**
 * "Supply either this or registration_token": a sibling argument of the same tool, named as the choice of what to fill in,
 * not a secret fetched from somewhere — unless the text also says whose it is or where it comes from.
 */
function isOwnArgument(matched: string, ownParams: ReadonlySet<string> | undefined): boolean {
  if (ownParams === undefined || POSSESSIVE.test(matched) || /\b(?:env(?:ironment)?|from|in the (?:chat|conversation))\b/.test(matched)) return false;
  const named = /\$?([a-z0-9_]+)$/.exec(matched)?.[1];
  return named !== undefined && [...ownParams].some((p) => p.toLowerCase() === named);
}

export function findSecrets(views: TextViews, raw: string, field: FieldKind, ownParams?: ReadonlySet<string>): Hit[] {
  const hits: Hit[] = [];
  const view = views.folded;
  keyFiles(view, field, hits);
  for (const m of allMatches(view, CROWN_REQUEST)) {
    if (isNegated(view, m.index, m.index + m.text.length) || isReportedHandling(view, m.index, m.index + m.text.length) || isWarningAfterRefusal(view, m)) continue;
    hits.push({ rule: "secret-solicitation", evidence: m.evidence });
    break;
  }
  for (const m of allMatches(view, NAMED_SECRET_REQUEST)) {
    if (isNegated(view, m.index, m.index + m.text.length) || TO_THE_PERSON.test(m.text) || isOwnArgument(m.text, ownParams)) continue;
    hits.push({ rule: "credential-request", evidence: m.evidence });
    break;
  }
  for (const m of allMatches(view, GENERIC_REQUEST)) {
    if (isNegated(view, m.index, m.index + m.text.length) || !POSSESSIVE.test(m.text) || TO_THE_PERSON.test(m.text) || isReportedHandling(view, m.index, m.index + m.text.length)) continue;
    const toOutside = DESTINATION.test(sentenceAt(view, m.index).text);
    hits.push({ rule: "credential-request", severity: toOutside ? "block" : undefined, evidence: m.evidence });
    break;
  }
  for (const m of allMatches(view, EXFIL_VERB)) {
    if (isNegated(view, m.index, m.index + m.text.length)) continue;
    hits.push({ rule: "exfiltration-verb", evidence: m.evidence });
    break;
  }
  for (const m of allMatches(view, SEND_TO)) {
    if (isNegated(view, m.index, m.index + m.text.length) || isExampleAddress(m.text)) continue;
    hits.push({ rule: "external-destination", evidence: m.evidence });
    break;
  }
  const template = URL_TEMPLATE.exec(raw);
  if (template !== null) hits.push({ rule: "url-template-exfiltration", evidence: excerpt(raw, template.index, template.index + template[0].length) });
  for (const pattern of TOKENS) {
    const m = pattern.exec(raw);
    if (m === null) continue;
    hits.push({ rule: "credential-in-text", evidence: excerpt(raw, m.index, m.index + Math.min(m[0].length, 12)) + " (value cut)" });
    break;
  }
  return hits;
}

/**
 * Private files: any access is a block, a mention a warn. Tooling files (.env, kubeconfig): moving
 * them anywhere is a block, naming or reading them is what dotenv loaders and kubectl do (info).
 * Passed as an argument value, any of them is a warn: the call is about to touch it.
 */
const ADDRESS_AT_END = /(?:[\w.+-]{1,64}@[\w-]{1,63}\.[a-z]{2,}|https?:\/\/[^\s"')]+|\d{1,3}(?:\.\d{1,3}){3})$/;
// "e.g.," with the comma is how US style writes it (ESPHome: "device IP/hostname for OTA (e.g., '192.168.1.100')").
const EXAMPLE_MARKER = /(?:e\.g\.,?|for example,?|such as|example:|like|i\.e\.,?)\s*["'`(]?\s*$/;

/** "Sends mail to the given address, e.g. alice@example.com" documents a parameter; it is not a destination. */
function isExampleAddress(matched: string): boolean {
  const address = ADDRESS_AT_END.exec(matched);
  return address !== null && EXAMPLE_MARKER.test(matched.slice(0, address.index));
}

function keyFiles(view: string, field: FieldKind, hits: Hit[]): void {
  let mention: Hit | undefined;
  const tiers = [
    [CROWN_FILE, ACCESS_VERB, "warn"],
    [CONFIG_SECRET_FILE, TRANSFER_VERB, "info"],
  ] as const;
  for (const [pattern, verb, mentionSeverity] of tiers) {
    for (const m of allMatches(view, pattern)) {
      const sentence = sentenceAt(view, m.index);
      if (verb.test(sentence.text) && !isNegated(view, m.index, m.index + m.text.length)) {
        hits.push({ rule: "key-file-access", evidence: excerpt(view, sentence.start, sentence.start + sentence.text.length) });
        return;
      }
      mention ??= { rule: "key-file-reference", severity: field.kind === "value" ? "warn" : mentionSeverity, evidence: m.evidence };
    }
  }
  if (mention !== undefined) hits.push(mention);
}
