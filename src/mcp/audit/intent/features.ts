import { excerpt } from "../evidence.js";
import { FifoCache } from "../fifo-cache.js";
import { mayMatch } from "../literal-index.js";
import { eachMatch, execAll, isNegated } from "../match.js";
import { isReportedHandling } from "../reported-handling.js";
import { handsOver, namesOtherThanSecret } from "./handover-object.js";
import { notTheModelsContext, staysOwn } from "./own-scope.js";
import { secretNotAsked } from "./protective-relation.js";
import { secretAskedOf } from "./person-secret.js";
import { NON_LATIN, speakPlaceholders, textViews } from "../normalise.js";
import type { IntentFeature } from "./lexicon.js";
import { allPhrases, phrasesIndex, SCRIPTS } from "./phrase-set.js";
import { addressRelationsOf } from "./address-relation.js";
import { governanceOf } from "./governance.js";
import { withoutOversight } from "./oversight.js";
import { outcomeRelationsOf } from "./outcome-relation.js";
import { OPTION_CLAUSE, userRelationsOf } from "./user-relation.js";
import { ANAPHOR, BEACON, DESTINATION, HARVEST, HARVEST_PERSONAL, NEXT_HANDOVER, OWN_RETURN, OWN_SETTING, PRONOUN_HANDOVER, PUT_INTO, RETRIEVAL_PURPOSE, SEEN, SOURCE, STRONG_HANDOVER } from "./feature-patterns.js";

/** One feature seen in one screened string, with where it was seen. */
export interface FeatureHit {
  readonly feature: IntentFeature | "destination" | "source" | "harvest" | "harvest-handover" | "handover" | "context-handover" | "governance" | "governance-strong" | "script" | "bypass" | "quiet" | "foreign-order" | "person-order" | "secret-asked";
  readonly evidence: string;
}

// Their phrases are negations themselves ("do not tell the user", "never use other tools").
const SELF_NEGATED: ReadonlySet<IntentFeature> = new Set(["secrecy", "directive", "steering"]);

const HANDOVER_DISTANCE = 60;
const MAX_POSITIONS = 64;

/** Where a feature's phrases match (not in a negated clause), per view, bounded. */
function positions(views: { plain: string; folded: string }, feature: IntentFeature): Array<{ view: "plain" | "folded"; at: number; end: number }> {
  const out: Array<{ view: "plain" | "folded"; at: number; end: number }> = [];
  for (const { feature: f, script, pattern } of allPhrases()) {
    if (f !== feature) continue;
    const view = script === "latin" ? "folded" : "plain";
    eachMatch(globalOf(pattern), views[view], (m) => {
      if (!isNegated(views[view], m.index, m.index + m[0].length)) out.push({ view, at: m.index, end: m.index + m[0].length });
      return out.length >= MAX_POSITIONS;
    });
    if (out.length >= MAX_POSITIONS) return out;
  }
  return out;
}

// Each phrase's `gu` copy, made once: a copy per call (what matchAll makes too) cost more than matching a short text.
const globals = new WeakMap<RegExp, RegExp>();
function globalOf(pattern: RegExp): RegExp {
  let global = globals.get(pattern);
  if (global === undefined) {
    global = new RegExp(pattern.source, "gu");
    globals.set(pattern, global);
  }
  return global;
}

/** The sentence around an index, where a line break also ends one (listings write lists and JSON shapes one per line). */
function lineSentence(view: string, index: number): string {
  const start = Math.max(...[". ", "! ", "? ", "; ", "\n"].map((s) => view.lastIndexOf(s, index)));
  const ends = [". ", "! ", "? ", "; ", "\n"].map((s) => view.indexOf(s, index)).filter((i) => i >= 0);
  return view.slice(Math.max(0, start), ends.length === 0 ? view.length : Math.min(...ends));
}

/** The sentence after the one holding an index ("" at the end of the text). */
function nextSentence(view: string, index: number): string {
  const ends = [". ", "! ", "? ", "; ", "\n"].map((x) => view.indexOf(x, index)).filter((i) => i >= 0);
  return ends.length === 0 ? "" : lineSentence(view, Math.min(...ends) + 2);
}

const PERFECT_BEFORE = /\b(?:have|has|had|already|been)\s+$/;

/** A verb of handing over in the sentence, not in a negated clause ("… without printing the values"). */
function handingOverIn(sentence: string): boolean {
  for (const { feature, script, pattern } of allPhrases()) {
    if (feature !== "supply" || script !== "latin") continue;
    let found = false;
    // "Other people may already have read it": a perfect tense reports what was done, it asks nothing.
    eachMatch(globalOf(pattern), sentence, (m) => (found = !isNegated(sentence, m.index, m.index + m[0].length) && !PERFECT_BEFORE.test(sentence.slice(Math.max(0, m.index - 16), m.index))));
    if (found) return true;
  }
  return false;
}

/** The first place a secret would be taken from, skipping negated clauses ("do not use environment variables") and places written to. */
function harvestAt(view: string): { index: number; end: number } | undefined {
  if (!mayMatch(HARVEST, view)) return undefined;
  for (const m of execAll(HARVEST_ALL, view, MAX_POSITIONS)) {
    const end = m.index + m[0].length;
    if (isNegated(view, m.index, end) || INTO_STORE.test(view.slice(Math.max(0, m.index - 40), m.index + (/^\s/.test(m[0]) ? 1 : 0)))) continue;
    // "Falls back to the OPENWEATHER_API_KEY environment variable": where the tool reads its own setting, not a place to take one from.
    if (OWN_SETTING.test(view.slice(Math.max(0, m.index - 60), m.index))) continue;
    return { index: m.index, end };
  }
  return undefined;
}

// "E-mail of the person to add, e.g. octocat@github.com", "the IBAN given by the user, e.g. DE89 …": a literal shown as an
// example documents the parameter; it is not a place the tool sends anything.
const EXAMPLE_BEFORE = /(?:\be\.g\.|\bfor example|\bsuch as|\bexample:|\bi\.e\.|\blike|\bz\.b\.|\bpor ejemplo|\bpar exemple|\bpor exemplo|\bbeispiel:?)\s*[,:]?\s*(?:add |use |send to |to )?["'`(]?\s*$/i;

// Compiled once: nearly every screened string runs them (execAll, not matchAll, which would copy them for each).
const DESTINATION_ALL = new RegExp(DESTINATION.source, "gu");
const HARVEST_ALL = new RegExp(HARVEST.source, "gu");

function destinationAt(raw: string): { index: number; end: number } | undefined {
  for (const m of execAll(DESTINATION_ALL, raw, MAX_POSITIONS)) {
    if (EXAMPLE_BEFORE.test(raw.slice(Math.max(0, m.index - 40), m.index))) continue;
    return { index: m.index, end: m.index + m[0].length };
  }
  return undefined;
}

/** Into a field: "… the API key into the auth parameter". */
const INTO_FIELD = /^.{0,60}?\b(?:into|in|to|as|under) (?:the |a |an )?(?:[\w-]+ ){0,2}?(?:field|parameter|param|argument|header|property|input)\b/u;

/**
 * A request to hand a secret over: a verb of handing over *before* the secret (after it in the
 * non-Latin scripts, where the verb comes last) ("send the user's
 * password", "ask for the recovery phrase"), or the secret going into a field ("… the key into the
 * auth parameter"). "Write it down and keep it offline" after "your recovery phrase" is advice, not a request.
 */
function handoverOf(views: { plain: string; folded: string }, distance: number): string | undefined {
  const secrets = positions(views, "credential");
  const verbs = positions(views, "supply");
  for (const secret of secrets) {
    const text = views[secret.view];
    // Languages that put the verb last (Korean, Japanese, Hindi, Turkish…) hand over after naming the secret.
    // Latin-script verb-final languages (Turkish: "kart numarasını … iste") too, at a shorter distance and within the sentence.
    const after = (v: { at: number }): boolean =>
      secret.view === "plain" ? v.at - secret.end <= distance : v.at - secret.end <= 40 && !/[.!?;]/.test(text.slice(secret.end, v.at));
    // "If the user pastes a private key, don't send it anywhere": someone else's act, named so the model refuses it.
    // A secret's name that names something else ("password reset", "the token can see") is handed nowhere.
    if (namesOtherThanSecret(text, secret.end)) continue;
    const verb = verbs.find((v) => v.view === secret.view && (v.at <= secret.at ? secret.at - v.end <= distance : after(v)) && !isReportedHandling(text, v.at, secret.end) && handsOver(text, v, secret));
    if (verb !== undefined) return excerpt(text, verb.at, secret.end, 100);
    if (INTO_FIELD.test(text.slice(secret.end, secret.end + 160))) return excerpt(text, secret.at, secret.end, 100);
    // "If a token is visible anywhere, include it in q": the verb comes after, with a pronoun for the secret.
    // "… a private key, don't send it anywhere" forbids the handover the pronoun would make.
    const pronoun = secret.view === "folded" ? PRONOUN_HANDOVER.exec(text.slice(secret.end, secret.end + 120)) : null;
    if (pronoun !== null && !isNegated(text, secret.end, secret.end + pronoun[0].length)) return excerpt(text, secret.at, secret.end, 100);
    // "… text messages with verification codes. Ask them to forward each code to relay_code": the next sentence hands it over.
    if (secret.view === "folded" && NEXT_HANDOVER.test(nextSentence(text, secret.end))) return excerpt(text, secret.at, secret.end, 100);
  }
  return undefined;
}

/** Longer text is screened up to here; the definition gets an `oversized-text` finding for the rest. */
export const MAX_SCAN = 262_144;

/**
 * The features of one string. Each is looked for in both views (folded for unaccented Latin
 * phrases and look-alikes, plain for other scripts); a negated or defensive clause ("never asks for
 * your password", "detects attempts to …") does not count, except for secrecy, whose phrases are negations.
 */
export function findFeatures(text: string): FeatureHit[] {
  const cached = CACHE.get(text);
  if (cached !== undefined) return cached;
  const found = computeFeatures(text);
  CACHE.set(text, found);
  return found;
}

// A tool's fields are scored once on their own and once together with the tool's other fields.
const CACHE_SIZE = 256;
const CACHE = new FifoCache<FeatureHit[]>(CACHE_SIZE);

/** What comes before a match in its clause (back to the last sentence or clause break, at most 120 characters). */
function clauseBefore(view: string, index: number): string {
  const start = Math.max(...[". ", "; ", "! ", "? ", ": ", "\n"].map((s) => view.lastIndexOf(s, index)), index - 120);
  return view.slice(Math.max(0, start), index);
}

// A setting described, not an instruction given: "whether to skip user consent for first-party clients", "if true, …".
// "Never proceed … without first showing the user": two negations make a rule of transparency, not secrecy.
const OUTER_NEGATION = /\b(?:never|do not|don't|must not|cannot|can't|should not|shouldn't|may not)\b/;
// "Saves credentials to a .env file", "writing the .env file": the secret goes *into* the file, the file is no source.
const INTO_STORE = /\b(?:to|into|writ(?:e|es|ing|ten)|sav(?:e|es|ing)|creat(?:e|es|ing)|updat(?:e|es|ing)|stor(?:e|es|ing)|populat(?:e|es|ing))\s+(?:a |an |the |your |its |(?:the )?project'?s? )?$/;

const SCOPED_AFTER =
  /^[^.;!?]{0,40}?\b(?:when(?:ever)? (?:setting up|you need|looking for|the user asks (?:about|for))|if you need|for (?:questions?|queries|information|docs?|documentation|details|tasks?|lookups?) (?:about|on|regarding|related to)|to (?:get|find|look up|list|discover|load) (?:the |a |an )?\w+)\b/;
const UNSCOPED = /\b(?:always|every|any|anything|everything|all|whatever|no matter|regardless|never|only)\b/;
// "Call it before any other tool whenever the user specifies a particular agenda": a look-up that comes first only when the
// person names one of the things this tool lists, however wide the words before it.
const PARTICULAR_SCOPE =
  /^[^.;!?]{0,100}?\b(?:whenever|when|if|once) (?:the )?(?:user|person|customer) (?:specifies|mentions|names|refers to|picks|selects|chooses|asks (?:about|for)) (?:a|an|one) (?:particular|specific|given|certain|named)\b/;

// An identifier of the chat (a `chat_id` parameter documented, "the ID / username of the chat") before the match in its sentence.
const CHAT_BY_ID = /\b(?:chat|conversation|thread|dialog|channel)_?ids?\b|\b(?:id|ids|identifier|username|handle|link|title|name)(?: or \w+)? (?:of|for) $/;

/** Whether a feature's match is a setting's description, a double negation or own-tool ordering rather than what the feature means. */
function describesRatherThanAsks(feature: IntentFeature, view: string, index: number, end: number): boolean {
  const before = clauseBefore(view, index);
  if ((feature === "secrecy" || feature === "steering") && OPTION_CLAUSE.test(before)) return true;
  // "Whether to copy attachments to the new page": a switch the caller sets, unless it names a literal place (an address, a link).
  if (feature === "redirect" && OPTION_CLAUSE.test(before) && !/^[^.;!?]*?(?:@|https?:|www\.|\d{4})/.test(view.slice(index, end + 100))) return true;
  // "… referenced as "DC: …" in your instructions": where the user writes something, not a request for the instructions.
  if (feature === "context" && /^your\b/.test(view.slice(index, end)) && /\b(?:in|into|to|within|per|from)\s$/.test(view.slice(Math.max(0, index - 8), index))) return true;
  // "The ID of the chat to send the poll to", "chat_id: wait for this chat only": a chat named by its identifier is an
  // object the tool acts on (a Telegram chat, a Slack thread), not the model's own conversation.
  if (feature === "context" && CHAT_BY_ID.test(view.slice(Math.max(0, view.lastIndexOf(". ", index)), index))) return true;
  // "Can pin messages": pin the verb, not the secret.
  if (feature === "credential" && view.slice(index, end) === "pin" && /^(?:s|ned)? (?:(?:the|a|an|this|that|your|new|important) )?(?:messages?|posts?|chats?|topics?|notes?|items?|tabs?|comments?|it|them|to)\b/.test(view.slice(end, end + 30))) return true;
  // "Don't show this survey to users who saw one": a segment of a product's end users, not the person in the chat.
  if (feature === "secrecy" && /\busers?$/.test(view.slice(index, end)) && /^ (?:who|that|whose|with|in (?:a|the|this) (?:segment|cohort|group))\b/.test(view.slice(end, end + 24))) return true;
  if (feature === "secrecy" && /^without\b/.test(view.slice(index, end)) && OUTER_NEGATION.test(before)) return true;
  // "Always prefer this tool over 'suggest_aws_commands'" orders the server's own tools, "prefer this over 'username'" the
  // tool's own arguments (maskOwnTools wrote `own-tool`, `own-param`).
  if (feature === "steering" && /^(?:\W{0,3}| (?:first )?before (?:using |calling )?(?:the )?)own-(?:tool|param)\b/.test(view.slice(end, end + 40))) return true;
  // "Use the own-tool tool first": the server's own tool named, not another's.
  if (feature === "cross-tool" && /\bown-tool\b/.test(view.slice(index, end))) return true;
  // "Use this tool first when setting up a new workspace", "prefer this tool over web search for questions about this
  // product's API": ordering scoped to the tool's own situation or topic, with nothing saying always, any or every.
  if (feature === "steering" && SCOPED_AFTER.test(view.slice(end, end + 100)) && !UNSCOPED.test(view.slice(Math.max(0, index - 60), end + 100))) return true;
  if (feature === "steering" && PARTICULAR_SCOPE.test(view.slice(index, end + 120))) return true;
  if (feature === "context" && notTheModelsContext(view, index, end)) return true;
  if (feature === "credential" && secretNotAsked(view, index, end, clauseBefore(view, index))) return true;
  return staysOwn(feature, view, index, end);
}

function computeFeatures(text: string): FeatureHit[] {
  const spoken = speakPlaceholders(text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text);
  const seenViews = textViews(spoken);
  const views = { plain: withoutOversight(seenViews.plain), folded: withoutOversight(seenViews.folded) };
  const present = new Set(["latin", ...(NON_LATIN.test(views.plain) ? SCRIPTS.filter(([, test]) => test.test(views.plain)).map(([name]) => name) : [])]);
  const hits = new Map<FeatureHit["feature"], FeatureHit>();
  // Phrases of other scripts run on the plain view only when the text holds one of their scripts.
  const plainToo = present.size > 1;
  const index = phrasesIndex();
  const all = allPhrases();
  // Only the phrases whose literals a view holds are visited, in the lexicon's order (literal-index.ts).
  for (const i of index.listed(...(plainToo ? [views.folded, views.plain] : [views.folded]))) {
    const phrase = all[i];
    if (phrase === undefined) continue;
    const { feature, script, scripts, pattern } = phrase;
    const latin = script === "latin";
    // With no other script in the text there is no plain-view index: its phrases cannot match, so they are skipped first.
    const candidate = latin ? index.has(views.folded, i) : plainToo && index.has(views.plain, i);
    if (!candidate || hits.has(feature) || !scripts.some((name) => present.has(name))) continue;
    const view = latin ? views.folded : views.plain;
    const m = pattern.exec(view);
    if (m === null) continue;
    if (!SELF_NEGATED.has(feature) && isNegated(view, m.index, m.index + m[0].length)) continue;
    if (describesRatherThanAsks(feature, view, m.index, m.index + m[0].length)) continue;
    hits.set(feature, { feature, evidence: excerpt(view, m.index, m.index + m[0].length, 100) });
  }
  for (const view of [views.folded, views.plain]) {
    const m = mayMatch(SOURCE, view) ? SOURCE.exec(view) : null;
    if (m !== null) {
      hits.set("source", { feature: "source", evidence: excerpt(view, m.index, m.index + m[0].length, 100) });
      break;
    }
  }
  // A secret and a verb of handing over count together only close to each other ("get details … with current credentials" is not a request).
  if (hits.has("credential") && hits.has("supply")) {
    const handover = handoverOf(views, HANDOVER_DISTANCE);
    if (handover !== undefined) hits.set("handover", { feature: "handover", evidence: handover });
  }
  // Prose asks for the context only with a verb of handing over in the same sentence (a parameter's description is itself the ask).
  const context = hits.get("context");
  if (context !== undefined) {
    const first = positions(views, "context")[0];
    const sentence = first === undefined ? "" : lineSentence(views[first.view], first.at);
    const next = first === undefined ? "" : nextSentence(views[first.view], first.at);
    // "Use this tool when you need to: … get some personal information about the user": what the tool returns.
    // "Get full chat history (up to limit)": a description opening with a verb of returning names what the tool returns.
    const opening = first !== undefined && !/[.!?;] /.test(views[first.view].slice(0, first.at)) && OWN_RETURN.test(sentence);
    const retrieval = (RETRIEVAL_PURPOSE.test(sentence) || opening) && !STRONG_HANDOVER.test(sentence);
    if (!retrieval && (handingOverIn(sentence) || PUT_INTO.test(sentence) || (ANAPHOR.test(next) && handingOverIn(next)))) {
      hits.set("context-handover", { feature: "context-handover", evidence: context.evidence });
    }
  }
  const harvest = harvestAt(views.folded);
  const seen = harvest === undefined ? (mayMatch(SEEN, views.plain) ? SEEN.exec(views.plain) : null) ?? (mayMatch(SEEN, views.folded) ? SEEN.exec(views.folded) : null) : null;
  // "Passwords you saw in the chat" in other languages (vocabulary.ts): a place a secret was seen, as a parameter asks for it.
  if (seen !== null) hits.set("harvest", { feature: "harvest", evidence: excerpt(seen.input, seen.index, seen.index + seen[0].length, 100) });
  if (harvest !== undefined) {
    hits.set("harvest", { feature: "harvest", evidence: excerpt(views.folded, harvest.index, harvest.end, 100) });
    // Prose asks to take a secret from there only with a verb of handing over in the same sentence.
    const sentence = lineSentence(views.folded, harvest.index);
    // "Scan the repository for leaked keys and list each file": a scanner reports where secrets are; wave 20's personal
    // places (a credential file, the browser, the workspace) count only when the secret is handed on ("pass", "put").
    const personal = HARVEST_PERSONAL.test(views.folded.slice(harvest.index, harvest.end));
    if (personal ? STRONG_HANDOVER.test(sentence) : handingOverIn(sentence)) {
      hits.set("harvest-handover", { feature: "harvest-handover", evidence: excerpt(views.folded, harvest.index, harvest.end, 100) });
    }
  }
  // Steering as a relation (governance.ts): kinds of governing words seen together in one sentence.
  const governance = governanceOf(views);
  if (governance !== undefined) {
    const feature = governance.kinds.size >= 3 ? "governance-strong" : "governance";
    hits.set(feature, { feature, evidence: governance.evidence });
  }
  // Orders to the model about other calls, or about its answers (address-relation.ts).
  // "Call it before any other tool whenever the user specifies a particular agenda", "whether to skip user consent": a look-up
  // for what the person named, a switch the caller sets.
  // A text of one piece is folded as the whole was: its views are the ones above.
  const fold = (piece: string): string => (piece === spoken ? views.folded : withoutOversight(textViews(piece).folded));
  for (const relation of addressRelationsOf(spoken, fold)) {
    if (PARTICULAR_SCOPE.test(relation.sentence) || OPTION_CLAUSE.test(relation.sentence.slice(0, relation.at))) continue;
    hits.set(relation.kind, { feature: relation.kind, evidence: relation.evidence });
  }
  // The model's relation to the person (user-relation.ts): words put in its mouth, the user taken out of the loop, kept quiet.
  for (const relation of userRelationsOf(views)) hits.set(relation.kind, { feature: relation.kind, evidence: relation.evidence });
  // The same relations from word classes per language (outcome-relation.ts): a failure told as success, "no need to ask".
  for (const relation of outcomeRelationsOf(views)) {
    const feature = relation.kind === "falsified" ? "script" : "bypass";
    if (!hits.has(feature)) hits.set(feature, { feature, evidence: relation.evidence });
  }
  // A person's account secret asked for and routed through the model (person-secret.ts).
  const asked = secretAskedOf(views);
  if (asked !== undefined) hits.set("secret-asked", { feature: "secret-asked", evidence: asked });
  const raw = (text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text).normalize("NFKC");
  const destination = destinationAt(raw);
  if (destination !== undefined) hits.set("destination", { feature: "destination", evidence: excerpt(raw, destination.index, destination.end, 100) });
  const beacon = mayMatch(BEACON, raw) ? BEACON.exec(raw) : null;
  if (beacon !== null && !hits.has("redirect")) hits.set("redirect", { feature: "redirect", evidence: excerpt(raw, beacon.index, beacon.index + beacon[0].length, 100) });
  return [...hits.values()];
}
