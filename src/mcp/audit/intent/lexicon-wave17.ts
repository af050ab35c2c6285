/**
 * Wave-17 phrase sets, written from the kinds the spent sets v10 and v11 showed:
 *
 * - orders in the imperative forms languages without a `directive` set put them in: South Slavic imperatives at the
 *   start of a clause ("прво позови", "ne koristi"), Turkish imperatives at the end of one ("… söyle;", "… kullanma,"),
 *   as English "call …", "do not …" open a sentence;
 * - the conversation and the model's instructions named by a property instead of a name: guidance "the user cannot
 *   see" or "you are following", what other tools "returned to you", the model's memory and its profile of the person,
 *   the person's messages picked out ("the last ten user messages", "the messages in which the user mentions…");
 * - keeping the person uninformed told as their wish ("has asked not to be told about background actions");
 * - key files named by their format (".pem key file"), the secret a person holds for a server they reach.
 *
 * Latin-script phrases are lower-case and unaccented (they match the folded view), other scripts as written.
 */
import type { IntentFeature } from "./lexicon.js";

const directive = [
  `(?:^|[.!?:;,] )(?:не (?:помињи|помињите|говори|говорите|користи|користите|нуди|нудите)|(?:прво |увек )?(?:позови|позовите|користи|користите|пошаљи|пошаљите|додај|додајте))(?=[\\s,.;]|$)`,
  `(?:^|[.!?:;,] )(?:nemoj|ne (?:spominji|spominjite|govori|koristi|koristite|nudi))\\b|(?:^|[.!?:;,] )(?:prvo |uvijek |uvek )?(?:pozovi|pozovite|posalji|posaljite|dodaj|dodajte)\\b`,
  `\\b(?:soyle|soyleyin|kullanma|kullanmayin|gonder|gonderin|ekle|ekleyin|sorma|sormayin|gosterme)(?=\\s*(?:[.;,!:]|$))`,
];

const context = [
  `\\b(?:guidance|instructions?|rules|guidelines|directions|notes|prompt)\\b(?: [\\w-]+){0,4}? (?:that )?(?:the user|they|the person|the customer) (?:cannot|can't|can not|does not|doesn't|do not|don't|never) see\\b`,
  `\\b(?:guidance|instructions?|rules|guidelines|directions) you (?:are|were|have been) (?:following|working under|operating under|set up with|configured with|given)\\b`,
  `\\bwhat (?:the )?(?:other|previous|earlier|any other) (?:[\\w-]+ )?tools? (?:have |has )?(?:returned|gave|produced|output|said)\\b|\\b(?:content|text|output|results?|data)(?: that)? (?:other )?(?:applications?|apps?|tools?|servers?)(?: (?:and|or) (?:other )?(?:tools?|applications?|apps?))? (?:have |has )?returned to you\\b`,
  `\\b(?:everything|anything|all|whatever is|contents?) (?:[\\w']+ ){0,4}?in your context window\\b`,
  `\\byour (?:persistent|long-term|saved|stored|working) memor(?:y|ies)\\b|\\bthe profile you (?:keep|have built|maintain|hold|have) (?:of|on|about) (?:the )?(?:user|customer|person|them)\\b`,
  `\\b(?:the )?(?:text|content|contents|wording) of (?:the )?(?:last|latest|most recent|previous|recent|first) (?:\\d+ |few |two |three |five |ten |twenty )?(?:user |customer )?messages\\b|\\bmessages exchanged (?:so far|until now|to date|in this (?:chat|conversation|session))\\b`,
  `\\b(?:quote|copy|paste|list|include) (?:\\w+ ){0,2}?(?:the )?messages (?:in which|where|that|when) (?:the )?(?:user|customer|person|they)\\b`,
  `\\b(?:text|anything|everything|what) you (?:were|have been) (?:asked|told|instructed) not to (?:repeat|share|reveal|disclose|show)\\b|\\beverything you (?:have been|were|'ve been) told (?:in|during|so far in) (?:this|the) (?:session|conversation|chat)\\b`,
  `\\b(?:all|every|each) (?:the )?(?:documents?|messages?|files?|attachments?)(?: and (?:documents?|messages?|files?|attachments?))? (?:from|in|of) (?:this|the) (?:session|conversation|chat)\\b`,
];

// Every link of a kind swapped for a fixed one: "replace any payment link with https://…".
const redirect = [`\\breplace (?:any|every|all|each) (?:[\\w-]+ )?(?:links?|urls?|addresses|accounts?|ibans?|wallets?) (?:\\w+ ){0,3}?with (?:https?:\\/\\/|[\\w.+-]+@)`];

const secrecy = [`\\b(?:has |have )?(?:asked|wants?|prefers?|wishes|chose|chosen) not to be (?:told|informed|notified|alerted|updated) (?:about|of)\\b`];

const credential = [`(?:\\.pem|\\bpem) (?:key )?files?\\b|\\bbegin (?:rsa |openssh |ec )?private key\\b`];

export const WAVE17_LEXICON: Readonly<Partial<Record<IntentFeature, readonly string[]>>> = { directive, context, secrecy, credential, redirect };
