import { findEncodedRuns, UNSCREENED_STREAM } from "./encoded.js";
import { isLabelledSentence } from "./encoded-label.js";
import { FifoCache } from "./fifo-cache.js";
import { findBorrowedAuthority } from "./borrowed-authority.js";
import { findCredentialFetch } from "./credential-fetch.js";
import { findSkippedConfirmation } from "./skipped-confirmation.js";
import { findSafeguardOff } from "./safeguard-off.js";
import { findSecretCarried } from "./secret-carried.js";
import { findSessionContent } from "./session-content.js";
import { renderEvidence } from "./evidence.js";
import { findHiddenText } from "./hidden.js";
import { findInjection } from "./injection.js";
import { findFeatures, MAX_SCAN } from "./intent/features.js";
import { intentHit, maskOwnTools, onlyWeak, signalsOf } from "./intent/score.js";
import { identifierWords, textViews, visibleText } from "./normalise.js";
import { findLookalikeHost } from "./lookalike-host.js";
import { findPayeeRedirect } from "./payee-redirect.js";
import { findPhrases } from "./phrases.js";
import { ruleById, type AuditRuleId, type Hit } from "./rules.js";
import { findSecrets } from "./secrets.js";
import { findCrossToolSteering } from "./shadowing.js";
import { isAddressedSentence } from "./transformed.js";
import { SEVERITY_RANK, type FieldKind, type Severity } from "./types.js";

const MAX_DEPTH = 2;
const LONG_TEXT = 4000;
const LONG_FIELD = 600;

export interface ScoredHit {
  readonly rule: AuditRuleId;
  readonly severity: Severity;
  readonly evidence: string;
}

function score(hit: Hit): ScoredHit {
  return { rule: hit.rule, severity: hit.severity ?? ruleById(hit.rule).severity, evidence: hit.evidence };
}

export function maxSeverity(hits: readonly { severity: Severity }[]): Severity | undefined {
  let best: Severity | undefined;
  for (const h of hits) if (best === undefined || SEVERITY_RANK[h.severity] > SEVERITY_RANK[best]) best = h.severity;
  return best;
}

/**
 * Screen one string with every text rule. Text hidden inside it (tag characters, comments, text
 * behind padding, encoded runs) is screened too, and hiding anything that carries a signal is
 * itself a block.
 */
export interface TextAuditOptions {
  /** The tool's name says it is about the conversation (a summariser), so asking for it is no signal. */
  readonly aboutContext?: boolean;
  /** The server's own tool names: naming them is not steering (see maskOwnTools). */
  readonly ownTools?: ReadonlySet<string>;
  /** The tool's own parameter names: quoted, they are its arguments (see maskOwnTools). */
  readonly ownParams?: ReadonlySet<string>;
}

/**
 * A value written as one identifier ("always_use_this_tool_for_every_search") is a sentence to a model that reads it:
 * its words are screened as prose would be. Four or more joined words, so ordinary keys (`read_only`) stay as they are.
 */
export function spokenValue(text: string): string {
  return /^[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+){3,}$/.test(text) || /^[a-z]+(?:[A-Z][a-z0-9]+){3,}$/.test(text) ? identifierWords(text).join(" ") : text;
}

// Output repeats itself (a status, a date, a directory in every record): a string screened once is not screened again.
// Only without options (they change the verdict and are per listing), and only short text, so the cache stays small.
const CACHE_SIZE = 4096;
const CACHE_TEXT = 2048;
const CACHE = new FifoCache<readonly ScoredHit[]>(CACHE_SIZE);

export function auditText(givenText: string, field: FieldKind, depth = 0, options: TextAuditOptions = {}): ScoredHit[] {
  // Any option set (whichever there are now or later) bypasses the cache.
  if (givenText.length > CACHE_TEXT || Object.values(options).some((value) => value !== undefined)) {
    return screenText(givenText, field, depth, options);
  }
  // JSON writes a NUL inside the key as an escape, so the first three NULs end the parts before the text.
  const key = `${field.kind}\u0000${depth}\u0000${field.kind === "value" ? JSON.stringify(field.key ?? null) : ""}\u0000${givenText}`;
  const cached = CACHE.get(key);
  if (cached !== undefined) return [...cached];
  const hits = screenText(givenText, field, depth, options);
  CACHE.set(key, hits);
  return [...hits];
}

function screenText(givenText: string, field: FieldKind, depth: number, options: TextAuditOptions): ScoredHit[] {
  if (givenText.length === 0) return [];
  const fullText = field.kind === "value" ? spokenValue(givenText) : givenText;
  // Past MAX_SCAN nothing is screened: the finding holds the definition, and the time stays bounded.
  const oversized = fullText.length > MAX_SCAN;
  const text = oversized ? fullText.slice(0, MAX_SCAN) : fullText;
  const hidden = findHiddenText(text);
  const visible = visibleText(text);
  // The server's own tool names read as `own-tool`: ordering its own tools ("prefer this tool over list_x") is its business.
  const views = field.kind === "identifier" ? textViews(identifierWords(text).join(" ")) : textViews(maskOwnTools(text, options.ownTools, options.ownParams));
  const hits: ScoredHit[] = [
    ...hidden.hits,
    ...findPhrases(views, visible),
    ...findSecrets(views, visible, field, options.ownParams),
    ...findInjection(visible, field),
    ...findCrossToolSteering(views.folded),
    ...[findLookalikeHost(visible)].filter((h) => h !== undefined),
    ...(field.kind === "prose" ? [findPayeeRedirect(views, visible)].filter((h) => h !== undefined) : []),
    ...(field.kind === "prose" ? [findBorrowedAuthority(views)].filter((h) => h !== undefined) : []),
    ...(field.kind === "prose" ? [findCredentialFetch(views)].filter((h) => h !== undefined) : []),
    ...(field.kind === "prose" ? [findSkippedConfirmation(views)].filter((h) => h !== undefined) : []),
    // A docstring's "notify_user (bool): Set to false.": the parameter is named in the prose itself.
    ...(field.kind === "prose" ? [findSafeguardOff(views.folded)].filter((h) => h !== undefined) : []),
    ...(field.kind === "prose" ? [findSecretCarried(views.folded)].filter((h) => h !== undefined) : []),
    // Also in values: a default or an example can hold the request ("all messages … that you have read").
    ...[findSessionContent(views.folded)].filter((h) => h !== undefined),
  ].map(score);
  if (oversized) hits.push({ rule: "oversized-text", severity: "warn", evidence: `${fullText.length} characters; only the first ${MAX_SCAN} were screened` });
  if (field.kind !== "identifier") {
    const signals = signalsOf({ text: maskOwnTools(text, options.ownTools, options.ownParams), role: field.kind === "value" ? "value" : "prose" }, options.aboutContext ?? false);
    // Weak signals (a link, other tools named, an imperative) add up in one short field; spread over long documentation
    // (a tuning guide with a SQL sample, a URL and "must"), they are how documentation reads.
    const intent = onlyWeak(signals) && text.length > LONG_FIELD ? undefined : intentHit(signals);
    if (intent !== undefined) hits.push(score(intent));
  }

  if (depth < MAX_DEPTH) {
    for (const hiddenText of hidden.hiddenTexts) {
      for (const inner of auditText(hiddenText, { kind: "prose" }, depth + 1, options)) {
        hits.push({ ...inner, evidence: renderEvidence(`(hidden) ${inner.evidence}`) });
      }
    }
    // Compressed streams are inflated only in the text as written (see findEncodedRuns): the screened text stays bounded.
    for (const run of findEncodedRuns(visible, depth === 0)) hits.push(encodedHit(run.encoding, run.decoded, auditText(run.decoded, field, depth + 1, options), run.encoded, () => isLabelledSentence(visible, run.encoded, run.decoded)));
  }
  if (field.kind === "prose" && text.length > LONG_TEXT) {
    hits.push({ rule: "long-text", severity: "info", evidence: `${text.length} characters` });
  }
  return escalate(dedupe(hits));
}

// Ciphers nobody writes data in: a whole sentence in ROT13, backwards, leetspeak or Morse is hidden on purpose.
const CIPHERS: ReadonlySet<string> = new Set(["rot13", "reversed", "leetspeak", "caesar", "atbash", "rot47", "morse"]);
const BINARY: ReadonlySet<string> = new Set(["base64", "base32", "hex", "binary", "char-codes", "octal-escape"]);
// What a hidden sentence asks for or does; any one of them, hidden that way, is enough to hold the tool.
const HIDDEN_INTENT: ReadonlySet<string> = new Set(["credential", "context", "secrecy", "steering", "redirect", "decode-hint", "script", "bypass", "quiet", "governance", "governance-strong"]);

// A text escape of a plain ASCII letter or digit (`%49`, `\u0067`, `&#103;`): honest text escapes accents, spaces and
// reserved characters, never the letters themselves. Eight of them spell words on purpose, where no reader looks.
const PLAIN_ESCAPE = /%(?:3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa])|\\u00(?:3[0-9]|4[1-9A-Fa-f]|5[0-9Aa]|6[1-9A-Fa-f]|7[0-9Aa])|&#(?:4[89]|5[0-7]|6[5-9]|[78][0-9]|9[0789]|1[01][0-9]|12[012]);/g;
const ESCAPED_LETTERS = 8;
const escapesLetters = (encoded: string): boolean => (encoded.match(PLAIN_ESCAPE)?.length ?? 0) >= ESCAPED_LETTERS;

/** `labelled` is asked only when no other rule speaks for the decoded text (it reads the whole field). */
function encodedHit(encoding: string, decoded: string, inner: ScoredHit[], encoded: string, labelled: () => boolean): ScoredHit {
  // Honest definitions carry no compressed text at all, let alone one padded past what is screened.
  if (decoded === UNSCREENED_STREAM) return { rule: "encoded-payload", severity: "warn", evidence: `${encoding} → ${UNSCREENED_STREAM}` };
  const worst = maxSeverity(inner);
  const shown = renderEvidence(decoded, 80);
  // A sentence encoded and pointed out to the reader ("stored hex-encoded: …", "ROT13, decode and apply"): decode and follow (encoded-label.ts).
  if ((worst === undefined || worst === "info") && labelled()) {
    return { rule: "encoded-payload", severity: "warn", evidence: renderEvidence(`${encoding} → "${shown}" (an encoded sentence, labelled for the reader)`) };
  }
  if ((worst === undefined || worst === "info") && CIPHERS.has(encoding)) {
    const intent = findFeatures(decoded).find((f) => HIDDEN_INTENT.has(f.feature));
    if (intent !== undefined) return { rule: "encoded-payload", severity: "warn", evidence: renderEvidence(`${encoding} → "${shown}" (${intent.feature} in a ciphered sentence)`) };
  }
  // A sentence to the model (naming the user, a field, a tool) hidden in a cipher or a binary encoding is an instruction
  // nobody was meant to read; text escapes (`\u00e9`, `&eacute;`, `%20`) are how honest JSON and HTML write accents.
  if ((worst === undefined || worst === "info") && (CIPHERS.has(encoding) || BINARY.has(encoding) || escapesLetters(encoded)) && isAddressedSentence(decoded)) {
    return { rule: "encoded-payload", severity: "warn", evidence: renderEvidence(`${encoding} → "${shown}" (a sentence to the model, encoded)`) };
  }
  if (worst === undefined || worst === "info") {
    return { rule: "encoded-text", severity: "info", evidence: `${encoding} → "${shown}"` };
  }
  const rules = [...new Set(inner.filter((h) => h.severity !== "info").map((h) => h.rule))].join(", ");
  return { rule: "encoded-payload", severity: worst, evidence: renderEvidence(`${encoding} → "${shown}" (${rules})`) };
}

function dedupe(hits: ScoredHit[]): ScoredHit[] {
  const best = new Map<AuditRuleId, ScoredHit>();
  for (const h of hits) {
    const prior = best.get(h.rule);
    if (prior === undefined || SEVERITY_RANK[h.severity] > SEVERITY_RANK[prior.severity]) best.set(h.rule, h);
  }
  return [...best.values()];
}

/**
 * Hidden characters next to a real signal are the hiding of that signal: block. Two independent
 * warn-level signals of different families in one field (steering plus a destination, say) are
 * how multi-part poisoning reads: block as well.
 */
function escalate(hits: ScoredHit[]): ScoredHit[] {
  const signals = hits.filter((h) => ruleById(h.rule).family !== "hidden-text" && h.severity !== "info");
  const out = hits.map((h) =>
    signals.length > 0 && ruleById(h.rule).family === "hidden-text" && h.severity === "warn"
      ? { ...h, severity: "block" as const }
      : h,
  );
  // The intent score already sums the field's signals: counting it as one more family would count them twice.
  const warnFamilies = new Set(signals.filter((h) => h.severity === "warn" && h.rule !== "intent").map((h) => ruleById(h.rule).family));
  if (warnFamilies.size >= 2 && !out.some((h) => h.severity === "block")) {
    const rules = signals.map((h) => h.rule).join(" + ");
    out.push({ rule: "combined-signals", severity: "block", evidence: rules });
  }
  return out;
}
