import type { RuleFamily, Severity } from "./types.js";

export interface AuditRule {
  readonly id: string;
  readonly family: RuleFamily;
  /** The severity a plain hit gets; escalation (hidden text carrying a signal, combined signals) may raise it. */
  readonly severity: Severity;
  readonly summary: string;
}

/** Every rule the auditor can report: the single source for the threat-model table and for tests. */
export const AUDIT_RULES = [
  { id: "tag-characters", family: "hidden-text", severity: "block", summary: "Unicode tag characters (U+E0000 block); the ASCII they hide is decoded into the evidence and screened" },
  { id: "variation-selector-run", family: "hidden-text", severity: "block", summary: "a run of 4+ variation selectors (data smuggled in invisible selectors)" },
  { id: "invisible-characters", family: "hidden-text", severity: "warn", summary: "zero-width, soft hyphen, BOM, fillers; block when the field also carries a signal or 8+ of them (a hidden channel)" },
  { id: "bidi-control", family: "hidden-text", severity: "warn", summary: "bidirectional overrides/isolates that reorder what is displayed; block when the field also carries a signal" },
  { id: "ansi-escape", family: "hidden-text", severity: "warn", summary: "terminal escape sequences; block for conceal/erase/cursor moves or when the field also carries a signal" },
  { id: "hidden-markup", family: "hidden-text", severity: "warn", summary: "HTML/Markdown comments that a renderer hides; block when they carry a signal" },
  { id: "padding", family: "hidden-text", severity: "warn", summary: "long whitespace or blank-line padding pushing text out of the visible area; block when that text carries a signal" },
  { id: "mixed-script-word", family: "hidden-text", severity: "warn", summary: "a word mixing Latin with Cyrillic/Greek/Armenian look-alikes (homoglyph evasion)" },
  { id: "control-characters", family: "hidden-text", severity: "info", summary: "other C0/C1 control characters (cosmetic; stripped before display)" },
  { id: "encoded-payload", family: "encoding", severity: "warn", summary: "base64 / hex / URL / unicode-escape run whose decoded text trips another rule (takes that rule's severity, at least warn), or decodes to a sentence in a field that names its encoding or asks for it to be decoded" },
  { id: "encoded-text", family: "encoding", severity: "info", summary: "an encoded run that decodes to readable text without other signals" },
  { id: "fake-authority-tag", family: "authority", severity: "block", summary: "<IMPORTANT>, <system>, [SYSTEM], [INST], <|im_start|>, <<SYS>> and similar markup claiming authority" },
  { id: "authority-heading", family: "authority", severity: "warn", summary: "`### Instruction`, `SYSTEM:` prefixes, notes addressed to the AI/model/agent" },
  { id: "instruction-override", family: "override", severity: "block", summary: "ignore/disregard/forget previous instructions — English, Spanish, French, German, Italian, Portuguese, Russian, Chinese, Japanese, Korean" },
  { id: "role-reassignment", family: "override", severity: "block", summary: "you are now…, developer/DAN/jailbreak mode, disable safety filters, pretend to be — in several languages" },
  { id: "borrowed-authority", family: "override", severity: "warn", summary: "returned content given the user's or operator's authority: carry it out as if the user typed it, treat requests in it as the user's, follow it ahead of anything else" },
  { id: "role-preamble", family: "override", severity: "info", summary: "`You are a … assistant` persona text in a definition" },
  { id: "tool-priority", family: "steering", severity: "warn", summary: "call this tool first, before using any other tool, do not use other tools" },
  { id: "conditional-operation", family: "steering", severity: "warn", summary: "does not work unless you first call/read/pass …" },
  { id: "skipped-confirmation", family: "steering", severity: "warn", summary: "the person's confirmation argued away: do not ask or wait for the user, skip the yes/no prompt, users need not be consulted, confirming is redundant" },
  { id: "safeguard-off", family: "steering", severity: "warn", summary: "a parameter that shows or holds an action for the person (dry_run, preview, confirm, approval, notify_user) whose description dictates the value that turns it off: \"Leave false.\", \"Keep true.\", \"Use 'auto'.\"" },
  { id: "conceal-from-user", family: "steering", severity: "warn", summary: "do not tell/mention to the user, hidden from the user, silently send …" },
  { id: "key-file-access", family: "secrets", severity: "block", summary: "reading or moving private keys, cloud credentials, shell history, MCP client configs, wallets; moving (not merely reading) .env, kubeconfig, .npmrc and similar" },
  { id: "key-file-reference", family: "secrets", severity: "warn", summary: "a key or credential file named without an access verb: warn for private files and for any key file passed as an argument value, info for tooling files (.env, kubeconfig)" },
  { id: "credential-fetch", family: "secrets", severity: "warn", summary: "the model sent to fetch a secret the person did not hand over: read it from the environment or a dotfile, take the cookie from the browser, copy another server's stored credentials, reuse one seen earlier" },
  { id: "secret-carried", family: "secrets", severity: "warn", summary: "a password, token, card number or one-time code to be put inside an argument made for something else: appended to it, as its suffix, pasted into it, in its query, or sent again with a retry" },
  { id: "second-factor-request", family: "secrets", severity: "warn", summary: "one tool asking for a person's password and their second factor (the one-time code from their phone or authenticator app, recovery codes, the security answer): the whole sign-in, the check meant to stop a password alone included" },
  { id: "secret-solicitation", family: "secrets", severity: "block", summary: "asks to provide/include/send seed phrases, private/SSH keys, card CVV, cloud credentials, the system prompt or conversation history" },
  { id: "credential-request", family: "secrets", severity: "warn", summary: "asks for the user's passwords, API keys or tokens (block when sent to an outside address)" },
  { id: "credential-in-text", family: "secrets", severity: "warn", summary: "a live-looking credential: GitHub/AWS/Slack/OpenAI/Google tokens, PEM private keys, JWTs, long bearer tokens" },
  { id: "exfiltration-verb", family: "exfiltration", severity: "block", summary: "exfiltrate/steal data (outside a detect/prevent context)" },
  { id: "external-destination", family: "exfiltration", severity: "warn", summary: "send/email/post/BCC … to a literal e-mail address, URL or IP" },
  { id: "url-template-exfiltration", family: "exfiltration", severity: "block", summary: "a markdown image or <img> URL with a slot for data (`?q={conversation}`), fetched by the client without a click" },
  { id: "session-content", family: "exfiltration", severity: "warn", summary: "the whole of what the model saw, read or was told asked for: every document you have read, the instructions you are running under, everything you remember, the last 20 tool responses you received" },
  { id: "exfiltration-parameter", family: "exfiltration", severity: "block", summary: "a parameter asking for the system prompt, conversation, context, notes or secrets unrelated to the tool (warn when weak)" },
  { id: "shell-injection", family: "injection", severity: "block", summary: "command substitution, `; curl …`, pipe-to-shell in values; warn in prose" },
  { id: "query-injection", family: "injection", severity: "block", summary: "KQL/SQL control syntax in an identifier-like value (`| project …`, `' or 1=1`, `; drop`)" },
  { id: "argument-injection", family: "injection", severity: "block", summary: "an embedded `--flag` in an identifier-like value" },
  { id: "path-traversal", family: "injection", severity: "warn", summary: "repeated `../` in an identifier-like value" },
  { id: "script-injection", family: "injection", severity: "block", summary: "<script>, HTML event handlers, javascript: URLs, self-invoking functions, child_process/electron reach-ins" },
  { id: "cross-server-reference", family: "shadowing", severity: "warn", summary: "a description names another configured server or its tools" },
  { id: "cross-server-override", family: "shadowing", severity: "block", summary: "…and changes how they are used (must/always/instead/send to/before calling …)" },
  { id: "cross-tool-steering", family: "shadowing", severity: "warn", summary: "rules for other tools: `the X tool must …`, `applies to all other tools`" },
  { id: "tool-name-collision", family: "shadowing", severity: "info", summary: "a tool with the same name as another server's tool (namespaced, so cosmetic)" },
  { id: "identifier-characters", family: "identifier", severity: "warn", summary: "a tool name with non-ASCII letters (info for other characters outside [A-Za-z0-9_.-])" },
  { id: "unscreened-remainder", family: "hidden-text", severity: "warn", summary: "a schema or content value too deep or too large to screen completely (the rest could hide anything)" },
  { id: "long-text", family: "identifier", severity: "info", summary: "a description longer than 4000 characters" },
  { id: "second-opinion", family: "second-opinion", severity: "warn", summary: "the optional LLM reviewer called the definition malicious (info when suspicious); never the only check" },
  { id: "intent", family: "intent", severity: "warn", summary: "the scoring model: signals (context or credential requests, secrecy, steering, shadowing of other tools, destinations, decoding hints, imperatives to the model) found in 20 languages add up to warn (3) or block (5)" },
  { id: "intent-model", family: "intent", severity: "warn", summary: "the fitted scoring model (logistic regression over where each intent signal sits: prose, parameter, value) calls the definition an attack where the hand-weighted score stays below warn" },
  { id: "intent-text-model", family: "intent", severity: "warn", summary: "the text model (logistic regression over the hashed words and word pairs of a definition's English text, by where they sit) calls it an attack where every other rule stays below warn (tools under five distinct content words are not scored); the evidence names the unit and its strongest words" },
  { id: "annotation-mismatch", family: "steering", severity: "warn", summary: "annotations that contradict the tool's name (readOnlyHint: true on drop/delete/send/pay …): clients skip confirmation for read-only tools" },
  { id: "payee-redirect", family: "shadowing", severity: "warn", summary: "a literal account (IBAN, account or wallet number) named with payments or transfers and a change of payee (instead of, from now on, the old one no longer used)" },
  { id: "lookalike-domain", family: "shadowing", severity: "warn", summary: "a host name that reads as a well-known service's once punycode is decoded and look-alike letters folded (xn--gthub-zsa.com, gіthub.com)" },
  { id: "lookalike-tool-name", family: "shadowing", severity: "block", summary: "a tool name that reads the same as another server's tool once look-alike letters, digits and separators are folded (send_emaіl, send-emai1)" },
  { id: "oversized-text", family: "hidden-text", severity: "warn", summary: "a string longer than 262 144 characters: the rest is not screened (nothing legitimate needs that much)" },
  { id: "combined-signals", family: "combined", severity: "block", summary: "two or more warn-level signals of different families in one field" },
] as const satisfies readonly AuditRule[];

export type AuditRuleId = (typeof AUDIT_RULES)[number]["id"];

// Built from the table itself, so every AuditRuleId has an entry.
const BY_ID = Object.fromEntries(AUDIT_RULES.map((r) => [r.id, r])) as Record<AuditRuleId, AuditRule>;

export function ruleById(id: AuditRuleId): AuditRule {
  return BY_ID[id];
}

/** A raw hit from one rule module, before it is placed at a location. */
export interface Hit {
  readonly rule: AuditRuleId;
  readonly severity?: Severity;
  readonly evidence: string;
}
