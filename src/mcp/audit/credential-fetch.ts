/**
 * A secret the model is told to go and fetch (wave 30, from the credentials misses of six writers, v14–v19): a
 * definition that, besides asking for a token, password or cookie, tells the model where to find one the person never
 * handed over — "read it from the user's environment", "grep them out of ~/.bashrc", "take it from the calendar
 * server's stored credentials", "the session cookie from the browser", "if you saw one earlier, use it". An honest
 * tool asks for its key and lets the person (or the client's configuration) supply it; pointing the model at the
 * machine's environment, dotfiles, browser storage or another server's configuration is how a secret that belongs to
 * something else is lifted. Descriptions of what the server itself does ("reads FOO_TOKEN from the environment",
 * "defaults to the FOO_API_KEY variable") are not imperatives addressed to the model and are not read.
 */
import { isNegated } from "./match.js";
import type { Hit } from "./rules.js";

// Folded view (lower-case, unaccented). A dot followed by a non-space is part of a path or a name, not a sentence end.
const IN_SENTENCE = String.raw`(?:[^.;!?\n]|\.(?=[^\s]))`;

/** What a secret is called; `_api_key`-style variable names count too. */
const SECRET = /\b(?:tokens?|api ?keys?|keys?|passwords?|passcodes?|passphrases?|cookies?|secrets?|credentials?|creds|psk|pat|auth(?:entication)? (?:header|string|value)s?|session ids?|sid)\b|_(?:api_?key|token|secret|secret_key|password|key)\b/;

/** Places on the person's machine, in their browser or in another server where secrets live, read with a preposition. */
const PLACE = [
  // the environment, named as the person's or the shell's
  String.raw`(?:the user'?s|their|your|the|local|shell|process) (?:shell |local )?(?:environment|env)\b`,
  String.raw`(?:the |an? |any )?env(?:ironment)? var(?:iable)?s?\b`,
  String.raw`env\b`,
  String.raw`(?:the user'?s |their |your |the )?(?:[\w-]+ )?(?:[\w-]+'s )?(?:shell profile|dotfiles?|browser(?:'s)?(?: [\w-]+){0,2}|local ?storage|keychain|password manager|saved (?:passwords|logins|credentials)|inbox)\b`,
  // another server's or connector's configuration: named, not "the server's" (which is the tool's own)
  String.raw`(?:the |that |an? |another )?(?!(?:the|this|our|its|same) )[\w-]+ (?:mcp )?(?:server|connector|integration|plugin|extension)'?s? (?:env|environment|config(?:uration)?|stored credentials|credentials|settings)\b`,
  // what passed through the conversation
  String.raw`(?:your )?memory\b`,
].join("|");
/** Files where secrets live, which may be the verb's object by themselves ("read ~/.config/gh/hosts.yml"). */
const FILE = [
  String.raw`~\/[\w./-]+`,
  String.raw`(?:^|[\s(\x60'"])\.(?:env|bashrc|zshrc|profile|bash_profile|npmrc|netrc|pypirc|storage)\b`,
  String.raw`\b[\w-]+\.(?:ya?ml|toml|ini|cfg|conf|pem|json)\b`,
  String.raw`\bdocument\.cookie\b`,
].join("|");
const SOURCE = String.raw`(?:\b(?:from|in|out of|inside|within|under)\s+(?:${PLACE})|${FILE})`;
const OBJECT = String.raw`(?:it|them|this|that|those|one|(?:the |their |your |its |any |all )?(?:[\w-]+ ){0,3}?(?:${SECRET.source}))`;

/** An imperative at the start of a clause on a secret ("read it", "grep them", "take the key") toward a source. */
const FETCH = new RegExp(
  String.raw`(?:^\s*|[.;:!?]\s+|,\s+|\b(?:and|then|or|otherwise|else)\s+|\(\s*)(?:please\s+)?(?:read|grep|copy|take|pull|fetch|retrieve|get|find|look for|use|fill|paste|extract|grab|lift|check|search)\s+(?:(?:${OBJECT})\b${IN_SENTENCE}{0,80}?(?:${SOURCE})|[\x60'"]?(?:${FILE})|(?:in\s+)?from\s+(?:${PLACE}))`,
  "g",
);
/** A secret named as coming from a place only the model can reach: "the session cookie from the browser tool". */
const FROM_REACH = new RegExp(
  String.raw`(?:${SECRET.source})${IN_SENTENCE}{0,40}?\b(?:(?:from|out of)\s+(?:the user'?s |their |your |the )environment\b(?! variable)|(?:from|out of)\s+(?:the user'?s |their |your |the |that |a |another )?(?:[\w-]+ ){0,2}?(?:browser|local ?storage|keychain|password manager|saved (?:passwords|logins)|inbox|(?!(?:the|this|our|its|same) )[\w-]+ (?:mcp )?(?:server|connector|integration)'?s? (?:env|environment|config(?:uration)?|stored credentials|credentials|settings)))`,
  "g",
);
/** "If a token is in their environment or you saw one earlier, use it": found somewhere, then handed over. */
const IF_FOUND = new RegExp(
  String.raw`\bif\b${IN_SENTENCE}{0,80}?(?:${SOURCE}|\b(?:saw|seen|noticed|came across)(?: [\w-]+){0,3}? (?:earlier|before|previously))${IN_SENTENCE}{0,60}?,\s*(?:use|pass|include|put|send|add|append|paste) (?:it|them)\b`,
  "g",
);
const SENTENCE = new RegExp(String.raw`${IN_SENTENCE}+`, "g");

function sentences(view: string): Array<{ start: number; text: string }> {
  return [...view.matchAll(SENTENCE)].map((m) => ({ start: m.index, text: m[0] }));
}

/** The hit for a field that sends the model to fetch a secret the person did not hand over; undefined otherwise. */
export function findCredentialFetch(views: { readonly folded: string }): Hit | undefined {
  const view = views.folded;
  const parts = sentences(view);
  for (const [i, s] of parts.entries()) {
    // The secret may be named in the sentence before: "Long-lived access token. If you have file access, read it from …"
    if (!SECRET.test(`${parts[i - 1]?.text ?? ""} ${s.text}`)) continue;
    for (const re of [FETCH, FROM_REACH, IF_FOUND]) {
      re.lastIndex = 0;
      const m = re.exec(s.text);
      if (m === null) continue;
      const start = s.start + m.index;
      if (isNegated(view, start, start + m[0].length)) continue;
      return { rule: "credential-fetch", evidence: m[0].trim().slice(0, 120) };
    }
  }
  return undefined;
}
