import { excerpt } from "./evidence.js";
import { FifoCache } from "./fifo-cache.js";
import { identifierWords } from "./normalise.js";
import type { Hit } from "./rules.js";
import type { FieldKind } from "./types.js";

const SHELL_WORD =
  "(?:curl|wget|nc|ncat|netcat|bash|sh|zsh|dash|python3?|perl|ruby|php|node|rm|cat|base64|powershell|pwsh|cmd(?:\\.exe)?|whoami|uname|chmod|chown|eval|exec|dd|mkfifo|telnet|socat|scp|ssh|nslookup|dig|ping|kill|shutdown|reboot|sudo|env|printenv)";
const SUBSTITUTION = new RegExp(`\\$\\([^)]{0,300}?\\b${SHELL_WORD}\\b|\`[^\`]{0,300}?\\b${SHELL_WORD}\\b[^\`]{0,300}\``, "i");
const SEPARATED_COMMAND = new RegExp(`(?:;|&&|\\|\\||\\||\\r|\\n)\\s*${SHELL_WORD}\\b`, "i");
const PIPE_TO_SHELL = /\b(?:curl|wget|iwr|invoke-webrequest)\b[^|\n]{0,200}\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b|\b(?:iex|invoke-expression)\b/i;
const NETWORK_SUBSTITUTION = /\$\([^)]{0,300}?\b(?:curl|wget|nc|ncat)\b/i;

const KQL_OPERATOR =
  /\|\s*(?:project(?:-away)?|take|where|extend|summarize|union|join|limit|top|sort by|order by|distinct|evaluate|invoke|externaldata|getschema|search|count|render|mv-expand|parse)\b/i;
const SQL_CONTROL =
  /'\s*(?:or|and)\s+'?\w+'?\s*=\s*'?\w+|\bunion\s+(?:all\s+)?select\b|;\s*(?:drop|delete|insert|update|alter|create|truncate|exec|shutdown|grant)\s|'\s*;?\s*--|\/\*[\s\S]{0,500}?\*\/|\/\/\s*$/i;
const EMBEDDED_FLAG = /^\s*--?[a-z][\w-]*(?:=|\s|$)|^\S+\s+--?[a-z][\w-]*(?:=|\s|$)/i;
const TRAVERSAL = /(?:\.\.[/\\]){2,}/;

// Keys whose values are names, paths and ids: shell, query or flag syntax there is an injection, not content.
const IDENTIFIER_KEY_WORD =
  /^(?:id|ids|name|names|path|paths|file|files|filename|dir|directory|folder|table|database|db|collection|namespace|resource|host|hostname|repo|repository|owner|branch|ref|number|project|scene|uri|url|key|type|label|tag|user|username|email|port|slug|bucket|container|pod|service|cluster|region|account|channel|topic|index|schema|model|version)$/;
// Keys whose values are code by design: judge only the unmistakable (pipe-to-shell from the network).
const CODE_KEY_WORD = /^(?:command|cmd|script|code|shell|query|kql|sql|expression|expr|filter|args|arguments|flags|options|pipeline|program|source|snippet)$/;

const SCRIPT: readonly RegExp[] = [
  // A script element, not the tag named in prose ("all <script> tags are removed").
  /<\s*script\b(?!>\s*(?:tags?|elements?|blocks?)\b)/i,
  /<[a-z][^>]{0,300}?\son[a-z]+\s*=/i,
  /(?:href|src|action|formaction|xlink:href)\s*=\s*["']?\s*javascript:/i,
  /\]\(\s*javascript:/i,
  /\(\s*(?:async\s+)?function\s*[\w$]*\s*\([^)]*\)\s*\{[\s\S]{0,2000}?\}\s*\)\s*\(/,
  /\(\s*(?:async\s*)?\([^)]*\)\s*=>[\s\S]{0,2000}?\)\s*\(\s*\)/,
  /\b(?:require|import)\s*\(\s*["'](?:node:)?(?:child_process|fs|net|vm|worker_threads)["']\s*\)/,
  /\bprocess\s*\.\s*(?:mainModule|binding|dlopen)\b/,
  /\belectron\s*\.\s*[a-z]+\s*\.\s*[a-z]+\s*\(/i,
  /\bnew\s+Function\s*\(/,
];

// Every string of an output sits under a few keys (`result`, `path`, `name`): each key's class is worked out once.
const KEY_CLASSES = new FifoCache<"identifier" | "code" | "other">(256);

function keyClass(key: string | undefined): "identifier" | "code" | "other" {
  if (key === undefined) return "other";
  const known = KEY_CLASSES.get(key);
  if (known !== undefined) return known;
  const found = classOf(key);
  KEY_CLASSES.set(key, found);
  return found;
}

function classOf(key: string): "identifier" | "code" | "other" {
  const words = identifierWords(key);
  const last = words[words.length - 1] ?? "";
  if (words.some((w) => CODE_KEY_WORD.test(w))) return "code";
  return IDENTIFIER_KEY_WORD.test(last) ? "identifier" : "other";
}

function hitAt(rule: Hit["rule"], text: string, m: RegExpExecArray, severity?: Hit["severity"]): Hit {
  return { rule, severity, evidence: excerpt(text, m.index, m.index + m[0].length) };
}

/** Shell, query, flag and script injection. Values are judged by the key they sit under. */
export function findInjection(text: string, field: FieldKind): Hit[] {
  const hits: Hit[] = [];
  const script = SCRIPT.map((p) => p.exec(text)).find((m) => m !== null);
  if (script) hits.push(hitAt("script-injection", text, script));

  if (field.kind !== "value") {
    const m = NETWORK_SUBSTITUTION.exec(text) ?? PIPE_TO_SHELL.exec(text);
    if (m !== null) hits.push(hitAt("shell-injection", text, m, "warn"));
    return hits;
  }
  const keys = keyClass(field.key);
  if (keys === "code") {
    const m = PIPE_TO_SHELL.exec(text) ?? NETWORK_SUBSTITUTION.exec(text);
    if (m !== null) hits.push(hitAt("shell-injection", text, m, "warn"));
    return hits;
  }
  const shell =
    SUBSTITUTION.exec(text) ?? PIPE_TO_SHELL.exec(text) ?? (keys === "identifier" ? SEPARATED_COMMAND.exec(text) : null);
  if (shell !== null) hits.push(hitAt("shell-injection", text, shell, keys === "identifier" ? "block" : "warn"));
  if (keys !== "identifier") return hits;
  const query = KQL_OPERATOR.exec(text) ?? SQL_CONTROL.exec(text);
  if (query !== null) hits.push(hitAt("query-injection", text, query));
  // A flag inside an injected command is part of that command, not a separate finding.
  const flag = shell === null ? EMBEDDED_FLAG.exec(text) : null;
  if (flag !== null) hits.push(hitAt("argument-injection", text, flag));
  const traversal = TRAVERSAL.exec(text);
  if (traversal !== null) hits.push(hitAt("path-traversal", text, traversal));
  return hits;
}
