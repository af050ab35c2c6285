import { excerpt } from "./evidence.js";
import { MAX_SCAN } from "./intent/features.js";
import { textViews } from "./normalise.js";
import type { Hit } from "./rules.js";
import type { AuditContext } from "./types.js";

const CHANGES_USE =
  /\b(?:instead|must|always|never|before|after|whenever|when (?:using|calling|invoking)|redirect|replace|override|overrides|send|forward|bcc|cc|change|modify|do not use|don't use|only use|prefer|rather than|deprecated|disabled?|broken)\b/;
const CROSS_TOOL: readonly RegExp[] = [
  /\bthe [\w.-]+ tool (?:must|should|shall|needs to|has to|will now|is required to)\b/,
  /\b(?:this|these) (?:rules?|instructions?|requirements?) (?:also )?appl(?:y|ies) to (?:all|every|any) (?:other )?tools?\b/,
  /\b(?:all|every|any) other tools? (?:must|should|need to|have to)\b/,
  /\bwhen (?:using|calling|invoking) (?:any|every|all) other tools?\b/,
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Tool names like `send_email` or `listIssues` are distinctive. A bare word such as `search` or `explain` is also an
 * ordinary word and an ordinary parameter or value name ("the corresponding list or search tool", "alias for
 * 'search'"): it names another server's tool only when written as code (`` `search` ``, `search(`) or beside that
 * server's name ("elasticsearch's search tool", "the search tool from elasticsearch").
 */
function toolNamePattern(name: string, server: string): RegExp {
  const n = escapeRegExp(name.toLowerCase());
  const distinctive = /[_.-]/.test(name) || /[a-z][A-Z]/.test(name);
  if (distinctive) return new RegExp(`(?<![\\w-])${n}(?![\\w-])`);
  const s = escapeRegExp(server.toLowerCase());
  return new RegExp(
    `(?:\`${n}\`|(?<![\\w.-])${n}\\(|\\b${s}(?:'s|[./:]| mcp| server)? ${n}(?: tool)?\\b|\\b${n} tool (?:of|from|in|on) (?:the )?${s}\\b|\\b${s}[./:]${n}\\b)`,
  );
}

/** Server names that are ordinary words (`memory`, `git`) count only in server-shaped phrases. */
function serverNamePattern(name: string): RegExp {
  const n = escapeRegExp(name.toLowerCase());
  const distinctive = /[^a-z]/.test(name.toLowerCase());
  return distinctive
    ? new RegExp(`(?<![\\w-])${n}(?![\\w-])`)
    : new RegExp(`\\b(?:${n} (?:mcp|server|plugin)|(?:mcp|server)[ -]${n}|mcp-${n}|host:mcp-${n})\\b`);
}

/**
 * A description reaching into other configured servers: naming them or their tools, or rewriting how they are used.
 * `ownValues` are the `const`/`enum` values of the tool's own schema: monday.com's `update_doc` takes an operation
 * `add_comment` and documents it, which Trello also lists as a tool. Named so, without a word that changes how it is
 * used, the name is this tool's own vocabulary (info); a rule laid on it is still an override.
 */
export function findShadowing(text: string, context: AuditContext, ownToolNames: ReadonlySet<string>, ownValues: ReadonlySet<string> = new Set()): Hit[] {
  const view = textViews(text.length > MAX_SCAN ? text.slice(0, MAX_SCAN) : text).plain;
  const hits: Hit[] = [];
  for (const server of context.otherServers) {
    const names = [server.name, ...server.toolNames.filter((t) => !ownToolNames.has(t))];
    for (const [i, name] of names.entries()) {
      const m = (i === 0 ? serverNamePattern(name) : toolNamePattern(name, server.name)).exec(view);
      if (m === null) continue;
      const sentenceStart = Math.max(0, view.lastIndexOf(". ", m.index));
      const sentenceEnd = view.indexOf(". ", m.index);
      const sentence = view.slice(sentenceStart, sentenceEnd < 0 ? view.length : sentenceEnd);
      const what = i === 0 ? `server ${server.name}` : `tool ${server.name}/${name}`;
      const override = CHANGES_USE.test(sentence);
      hits.push({
        rule: override ? "cross-server-override" : "cross-server-reference",
        ...(!override && i > 0 && ownValues.has(name) ? { severity: "info" as const } : {}),
        evidence: `${what}: ${excerpt(view, m.index, m.index + m[0].length)}`,
      });
    }
  }
  return hits;
}

/** Rules laid down for other tools, whoever they belong to — needs no knowledge of the other servers. */
export function findCrossToolSteering(view: string): Hit[] {
  const cross = CROSS_TOOL.map((p) => p.exec(view)).find((m) => m !== null);
  return cross ? [{ rule: "cross-tool-steering", evidence: excerpt(view, cross.index, cross.index + cross[0].length) }] : [];
}
