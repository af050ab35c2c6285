import { renderEvidence } from "../evidence.js";
import type { Hit } from "../rules.js";
import type { Severity } from "../types.js";
import { findFeatures, type FeatureHit } from "./features.js";

/**
 * What a screened string is to the model: prose it reads (descriptions, instructions), a
 * parameter's description (which by its nature tells the model what to put in), or a value.
 */
export type IntentRole = "prose" | "parameter" | "value";

/**
 * Signals built from features, with weights. A single word ("password", "bcc", "always") is never
 * enough: a signal needs its parts together (a secret *and* a verb of handing it over *and* whose
 * it is), and a finding needs signals adding up to WARN_AT.
 */
export type IntentSignal =
  | "context-request"
  | "credential-request"
  | "credential-harvest"
  | "secrecy"
  | "steering"
  | "shadowing"
  | "cross-tool"
  | "redirect"
  | "destination"
  | "decode-hint"
  | "directive"
  | "governance"
  | "deception"
  | "prose-slot"
  | "unread-slot";

const WEIGHT: Readonly<Record<IntentSignal, number>> = {
  "context-request": 3,
  "credential-request": 3,
  "credential-harvest": 3,
  secrecy: 3,
  "decode-hint": 3,
  shadowing: 3,
  steering: 2,
  governance: 3,
  deception: 3,
  redirect: 1.5,
  "cross-tool": 1,
  destination: 1,
  directive: 1,
  // A free-text parameter that asks in sentences for what its tool never mentions (prose-slot.ts): read from the
  // definition's shape, in any language; honest bodies and comments look the same, so it needs another sign beside it.
  "prose-slot": 2,
  // The same slot written in a language the phrase sets cannot read: nothing else in it would ever be seen.
  "unread-slot": 3,
};

const PROMPT_FOR_ANOTHER = /\b(?:a|an|custom|optional|the) (?:custom )?system prompt (?:for|to (?:use|send|pass|give))\b|\bsystem prompt (?:for|to use with|passed to|to (?:guide|steer|instruct|direct|configure|prime)) (?:the )?(?:llm|model|extraction|extractor|generation|completion|agent)\b/;

const OWN_INSTRUCTIONS =
  /\b(?:system (?:and developer )?(?:prompt|messages?|instructions?)|developer (?:messages?|instructions?|prompt)|(?:guidance|instructions?|rules|guidelines|directions) (?:you (?:were|have been|are) (?:given|set up with|configured with|following)|(?:that )?(?:the user|they|the person) (?:cannot|can't|can not|does not|doesn't|do not|don't) see))\b/;

export const WARN_AT = 3;
export const BLOCK_AT = 5;

export interface SignalHit {
  readonly signal: IntentSignal;
  readonly evidence: string;
}

export interface ScreenedUnit {
  readonly text: string;
  readonly role: IntentRole;
}

// A listing's own tools are all masked (Telegram's server lists 122; a note naming its 100th tool names its own tool);
// the bound only keeps the alternation finite. Parameters of one tool are far fewer.
const MAX_OWN_TOOLS = 512;
const MAX_OWN_NAMES = 64;

/**
 * The server's own tools named in a text become `own-tool`: "use this instead of get_dashboard_by_uid"
 * orders a server's own tools, which is its business; steering reaches past them (other servers, any tool).
 */
export function maskOwnTools(text: string, ownTools: ReadonlySet<string> | undefined, ownParams?: ReadonlySet<string>, anotherKept = true): string {
  const masked = maskOwnParams(text, ownParams);
  if (ownTools === undefined || ownTools.size === 0) return masked;
  const names = [...ownTools].filter((n) => n.length >= 3).slice(0, MAX_OWN_TOOLS);
  if (names.length === 0) return masked;
  const pattern = new RegExp(`(?<![\\w.-])(?:${names.map(escapeName).join("|")})(?![\\w-])(?:\\(\\))?`, "g");
  // "Any other search tool", "the built-in fetch tool": a tool named by the word that is also this tool's name is another one.
  // The text model (frozen, wave 16) was fitted on every occurrence masked and reads that view (anotherKept false).
  return masked.replace(pattern, (name, at: number) => (anotherKept && ANOTHER_BEFORE.test(masked.slice(Math.max(0, at - 40), at)) ? name : "own-tool"));
}

const ANOTHER_BEFORE = /\b(?:other|another|built-in|native|different|third-party)\s+(?:[\w-]+\s+)?$/i;

const escapeName = (n: string): string => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The tool's own parameters, quoted (`'username'`, `` `query` ``), become `own-param`: "prefer this over 'username'"
 * in a parameter's description chooses between the tool's own arguments. Unquoted they stay words ("the password").
 */
function maskOwnParams(text: string, ownParams: ReadonlySet<string> | undefined): string {
  if (ownParams === undefined || ownParams.size === 0) return text;
  const names = [...ownParams].filter((n) => n.length >= 2).slice(0, MAX_OWN_NAMES);
  if (names.length === 0) return text;
  return text.replace(new RegExp(`(['"\`])(?:${names.map(escapeName).join("|")})\\1`, "g"), "$1own-param$1");
}

/** Parameter names of a definition, from the JSON paths of its screened fields (`$.inputSchema.properties.<name>…`). */
export function paramNamesOf(jsonPaths: Iterable<string>): Set<string> {
  const names = new Set<string>();
  for (const path of jsonPaths) for (const m of path.matchAll(/\.properties\.([^.[\]]+)/g)) if (m[1] !== undefined) names.add(m[1]);
  return names;
}

// Conversation nouns only: a verb such as "summarise" or a word such as "notes" does not make a tool
// about the conversation (`summarize_document` asking for "everything the user told you" is an attack).
const CONTEXT_TOPIC = /\b(?:conversations?|chats?|threads?|dialog(?:ue)?s?|transcripts?|prompts?|memory|memories|handoff)\b/;

/**
 * Whether the tool is about the conversation (a summariser may ask for `the conversation so far`).
 * Judged from its name alone: the description is where an attacker writes, and a tool named
 * `summarize_chat` shows what it is in every prompt and listing.
 */
export function isAboutContext(toolNameWords: string): boolean {
  return CONTEXT_TOPIC.test(toolNameWords);
}

export function signalsOf(unit: ScreenedUnit, toolIsAboutContext = false): SignalHit[] {
  const features = new Map<FeatureHit["feature"], FeatureHit>(findFeatures(unit.text).map((f) => [f.feature, f]));
  const has = (f: FeatureHit["feature"]): boolean => features.has(f);
  const at = (f: FeatureHit["feature"]): string => features.get(f)?.evidence ?? "";
  const out: SignalHit[] = [];
  // A parameter that *is* a prompt for some other model ("system prompt for LLM extraction", "a custom system prompt") asks for configuration, not for the model's own context.
  const promptForAnother = PROMPT_FOR_ANOTHER.test(at("context"));
  // In prose too: a description that lists its arguments ("- systemPrompt: System prompt to guide the LLM") describes one.
  // A value (a default, an example, an enum entry) naming the conversation is a template the model is meant to fill in.
  // A summariser may ask for the conversation, never for the model's own instructions ("plus the system and developer messages").
  if (has("context") && (!toolIsAboutContext || OWN_INSTRUCTIONS.test(unit.text.toLowerCase())) && !promptForAnother && (has("context-handover") || unit.role === "parameter" || unit.role === "value")) {
    out.push({ signal: "context-request", evidence: at("context") });
  }
  if (has("credential") && has("handover") && has("source")) out.push({ signal: "credential-request", evidence: at("credential") });
  // Asked of the person and routed through a field, every call or the chat, in words the phrase sets above miss (person-secret.ts).
  else if (has("secret-asked")) out.push({ signal: "credential-request", evidence: at("secret-asked") });
  // A secret taken from somewhere the tool has no business reading (other tools' output, other servers' configuration, key files):
  // a parameter's description needs no verb (it is itself the place to put it); prose needs one.
  else if (has("credential") && has("harvest") && (has("harvest-handover") || unit.role === "parameter")) out.push({ signal: "credential-harvest", evidence: `${at("credential")} … ${at("harvest")}` });
  if (has("secrecy")) out.push({ signal: "secrecy", evidence: at("secrecy") });
  // The user taken out of the loop, or something kept out of what they see, is secrecy in other words (user-relation.ts).
  else if (has("bypass") || has("quiet")) out.push({ signal: "secrecy", evidence: at(has("bypass") ? "bypass" : "quiet") });
  // Words put in the model's mouth for the user: a dictated reply, a reframed result.
  if (has("script")) out.push({ signal: "deception", evidence: at("script") });
  if (has("steering")) out.push({ signal: "steering", evidence: at("steering") });
  // Steering read as a relation (governance.ts): three kinds together govern the model beyond this tool on their own;
  // two count as phrase steering does (they need another sign beside them).
  if (has("governance-strong")) out.push({ signal: "governance", evidence: at("governance-strong") });
  else if (has("governance") && !has("steering")) out.push({ signal: "steering", evidence: at("governance") });
  // An order about other calls or about the model's answers, in a tool's own text (address-relation.ts).
  if (!has("governance-strong") && (has("foreign-order") || has("person-order"))) out.push({ signal: "governance", evidence: at(has("foreign-order") ? "foreign-order" : "person-order") });
  // A redirect to a literal address in the same string ("add backup@… as co-owner", "cc audit@…") hands another
  // action's data to a fixed party: shadowing, whether or not another tool is named.
  if (has("redirect") && (has("cross-tool") || has("destination"))) out.push({ signal: "shadowing", evidence: at("redirect") });
  else if (has("cross-tool")) out.push({ signal: "cross-tool", evidence: at("cross-tool") });
  else if (has("redirect")) out.push({ signal: "redirect", evidence: at("redirect") });
  if (has("destination")) out.push({ signal: "destination", evidence: at("destination") });
  if (has("decode-hint")) out.push({ signal: "decode-hint", evidence: at("decode-hint") });
  if (has("directive")) out.push({ signal: "directive", evidence: at("directive") });
  // A value (an enum entry, a default) is data the model picks or passes on: one that steers, hides or asks for context
  // is addressed to the model whether or not it is phrased as an order, so it also counts as a directive.
  else if (unit.role === "value" && out.some((s) => !WEAK.has(s.signal))) out.push({ signal: "directive", evidence: `in a value: ${out[0]?.evidence ?? ""}` });
  return out;
}

/** The strongest hit per signal, across units. */
export function mergeSignals(lists: readonly SignalHit[][]): SignalHit[] {
  const best = new Map<IntentSignal, SignalHit>();
  for (const list of lists) for (const hit of list) if (!best.has(hit.signal)) best.set(hit.signal, hit);
  return [...best.values()];
}

export function scoreOf(signals: readonly SignalHit[]): number {
  return signals.reduce((sum, s) => sum + WEIGHT[s.signal], 0);
}

export function severityOf(score: number): Severity | undefined {
  if (score >= BLOCK_AT) return "block";
  if (score >= WARN_AT) return "warn";
  return undefined;
}

/**
 * Signals that say how text is written, not what it wants: a link, a reference to other tools, a
 * "use this tool when". Real listings carry all three spread over a definition (a region URL in one
 * parameter, "use this tool when…" in the description, "find a team's slug for other tools"), so
 * merged across fields they never reach warn without a signal of intent beside them. In one field
 * ("when any calendar tool creates an event, also … scheduling@partner.example") they still do.
 */
const WEAK: ReadonlySet<IntentSignal> = new Set(["destination", "directive", "cross-tool"]);

export function onlyWeak(signals: readonly SignalHit[]): boolean {
  return signals.every((s) => WEAK.has(s.signal));
}

/** An `intent` hit when the signals add up; the evidence names each signal with what triggered it. */
export function intentHit(signals: readonly SignalHit[]): Hit | undefined {
  const score = scoreOf(signals);
  const severity = severityOf(score);
  if (severity === undefined) return undefined;
  const ordered = [...signals].sort((a, b) => WEIGHT[b.signal] - WEIGHT[a.signal]);
  const parts = ordered.map((s) => `${s.signal} «${s.evidence.length > 40 ? `${s.evidence.slice(0, 39)}…` : s.evidence}»`);
  return { rule: "intent", severity, evidence: renderEvidence(`score ${score}: ${parts.join(" + ")}`) };
}
