import { excerpt } from "./evidence.js";
import { isNegated } from "./match.js";
import { identifierWords, textViews } from "./normalise.js";
import type { Hit } from "./rules.js";
import type { SchemaProperty } from "./schema-walk.js";

// Concepts a tool has no business asking for unless it is about them (a prompt editor may take `system_prompt`).
const STRONG_CONCEPTS: readonly RegExp[] = [
  /\bsystem ?prompts?\b/,
  /\b(?:conversation|chat|message|session|prompt) ?(?:history|log|transcript|context)\b/,
  /\bconversation\b/,
  /\btranscripts?\b/,
  /\b(?:previous|prior|past) ?messages\b/,
  /\bside ?notes?\b/,
  /\b(?:env|environment) ?(?:vars?|variables|dump)\b/,
];
const WEAK_CONCEPTS: readonly RegExp[] = [
  /\b(?:context|history|notes?|feedback|memory|summary|debug|diagnostics?|telemetry|metadata|reasoning|thoughts|extra|details|comments?|annotations?|api ?keys?|tokens?|passwords?|instructions?|secrets?|credentials?|private ?keys?|ssh ?keys?|seed ?phrase|mnemonic|cvv)\b/,
];

// A verb and its inflections only: "pass" must not read "password / access token" as "pass … access token".
const INCLUDE_SENSITIVE =
  /\b(?:include|pass|provide|fill|populate|put|copy|paste|append|attach|send|insert|add|supply|enter|dump|list|share|forward)(?:s|es|ed|d|ing|ied|ies)?\b.{0,60}?\b(?:conversation|chat history|context window|full context|entire context|previous messages|prior messages|system prompt|your instructions|environment variables|env vars|secrets?|credentials?|api keys?|access tokens?|passwords?|file contents|contents of|ssh|private keys?|mcp\.json|\.env\b)/;
const HIDDEN_PURPOSE =
  /\b(?:always (?:include|pass|provide|fill|send|populate|set)|must always|required for (?:telemetry|analytics|diagnostics|tracking|logging|internal)|for (?:telemetry|analytics|diagnostics|tracking|logging|internal) (?:purposes|use|only)|internal (?:context|use|telemetry|only)|(?:do not|don't|never) (?:show|mention|tell|display)|not shown|hidden|automatically (?:include|fill|populate)d?)\b/;

// "Instructions for how the deep search agent should process results": up to four words between.
const FOR_ANOTHER_MODEL = /\b(?:for|to (?:use|send|pass) (?:to|with))\b(?:\s+\S+){0,4}?\s+(?:llm|model|extraction|extractor|generation|completion|agent|sub-?agent|researcher)\b/;
const REFERENCE_SUFFIX = /\b(?:id|ids|uuid|name|names|type|url|uri|index|number|count|limit|offset|format|mode|enabled|flag|length|size)$/;

function concept(words: string, patterns: readonly RegExp[]): RegExp | undefined {
  return patterns.find((p) => p.test(words));
}

/**
 * A parameter shaped to carry the model's context out: its name asks for the system prompt,
 * conversation, secrets or "notes", and either the tool is not about that, the name is disguised
 * (`_system_prompt_`), or the description tells the model to always fill it with sensitive data.
 */
export function findExfiltrationParameter(property: SchemaProperty, tool: { name: string; description?: string | undefined }): Hit | undefined {
  const words = identifierWords(property.name).join(" ");
  // Only free text can carry a conversation out: `conversation_id` or a boolean flag cannot.
  if (!property.freeText || REFERENCE_SUFFIX.test(words)) return undefined;
  const joined = identifierWords(property.name).join("");
  const description = textViews(property.description).folded;
  const toolText = `${identifierWords(tool.name).join(" ")} ${textViews(tool.description ?? "").folded}`;
  const evidence = excerpt(`${property.name}: ${property.description}`, 0, property.name.length);

  const include = INCLUDE_SENSITIVE.exec(description);
  if (include !== null && !isNegated(description, include.index, include.index + include[0].length)) {
    return { rule: "exfiltration-parameter", evidence };
  }
  const decorated = /^_|_$/.test(property.name);
  const hiddenPurpose = HIDDEN_PURPOSE.test(description);
  const strong = concept(words, STRONG_CONCEPTS) ?? concept(joined, STRONG_CONCEPTS);
  if (strong !== undefined) {
    const related = strong.test(toolText);
    // "System prompt for LLM extraction": a prompt the caller writes for another model, not the model's own.
    const forAnotherModel = FOR_ANOTHER_MODEL.test(description) && !/\b(?:your|you|yours)\b/.test(description);
    if (decorated || hiddenPurpose || (!related && !forAnotherModel)) return { rule: "exfiltration-parameter", evidence };
    return undefined;
  }
  const weak = concept(words, WEAK_CONCEPTS);
  if (weak !== undefined && (decorated || hiddenPurpose) && !weak.test(toolText)) {
    return { rule: "exfiltration-parameter", severity: "warn", evidence };
  }
  return undefined;
}
