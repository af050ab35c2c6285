import { isStopWord, stem, tokenise } from "./tokenise.js";

/**
 * Words people and models use for the same thing in tool land. A query word also looks for the
 * other words of its group, at a lower weight than the word itself (see EXPANSION_WEIGHT in
 * bm25.ts), so an exact word still wins. General software vocabulary only: no group names a
 * particular server or a query of the labelled set (tests/fixtures/discovery).
 * Each entry is one group; a member may be several words ("pull request").
 */
const GROUPS: readonly (readonly string[])[] = [
  ["repository", "repo"],
  ["pull request", "pr", "merge request"],
  ["directory", "folder", "dir"],
  ["delete", "remove", "erase", "destroy", "drop", "rm"],
  ["create", "new", "make", "add"],
  ["get", "fetch", "retrieve", "read", "show", "view", "load"],
  ["list", "enumerate", "ls"],
  ["search", "find", "lookup", "look up", "locate", "grep", "query"],
  ["update", "edit", "modify", "change"],
  ["write", "save", "overwrite", "store"],
  ["move", "rename", "mv"],
  ["copy", "duplicate", "cp"],
  ["issue", "bug", "ticket"],
  ["message", "msg", "chat"],
  ["user", "member", "person", "people", "account"],
  ["environment", "env"],
  ["database", "db"],
  ["javascript", "js", "script"],
  ["web", "internet", "online", "website"],
  ["url", "link", "web page", "webpage"],
  ["image", "picture", "photo", "png", "jpg"],
  ["review", "approve"],
  ["reaction", "emoji", "react"],
  ["timezone", "time zone"],
  ["relation", "relationship", "link", "connection", "edge"],
  ["sum", "add up", "total", "plus"],
  ["run", "execute", "exec"],
  ["screenshot", "capture", "snapshot"],
  ["navigate", "open", "go to", "visit", "browse"],
  ["mkdir", "create directory"],
  ["checkout", "switch"],
  ["compress", "gzip", "zip"],
  ["recursive", "tree", "nested"],
];

type Expansion = readonly (readonly string[])[];

/** Stemmed word → the other members of its groups, each a list of stemmed words. */
const EXPANSIONS: ReadonlyMap<string, Expansion> = (() => {
  const map = new Map<string, (readonly string[])[]>();
  for (const group of GROUPS) {
    const members = group.map((member) => tokenise(member).filter((word) => !isStopWord(word)).map(stem));
    for (const member of members) {
      if (member.length !== 1) continue;
      const key = member[0] as string;
      const others = members.filter((m) => m !== member);
      map.set(key, [...(map.get(key) ?? []), ...others]);
    }
  }
  return map;
})();

/** The other ways of saying a stemmed query word; several-word phrases come as arrays. */
export function synonymsOf(term: string): Expansion {
  return EXPANSIONS.get(term) ?? [];
}
