/**
 * The checks every held-out set's shape test makes (v5 onwards): the shape the intent harness loads
 * and the counts its writer's brief promised. Never runs the auditor: a held-out set is measured once,
 * by its own scripts/measure-vN.ts, and nobody tunes on its cases.
 */
import { describe, expect, it } from "vitest";
import { FAMILIES, heldoutSetSchema, readIntentFile as read, repoList, SET_FAMILIES } from "./heldout-shape.js";

/** The ten most-spoken languages; every brief asks for each of them among the multilingual cases. */
const MOST_SPOKEN = ["zh", "hi", "es", "fr", "ar", "bn", "pt", "ru", "ur", "id"];

/**
 * The sets and tuning material written before held-out set v`version` (v8 onwards): its benign servers must be new
 * to all of them, and its descriptions must not repeat theirs.
 */
export function writtenBefore(version: number): string[] {
  const heldout = Array.from({ length: version - 2 }, (_, i) => `heldout-v${i + 2}`);
  const benign = ["benign-extra", ...[2, 3, 4, 5].map((n) => `benign-extra-${n}`)];
  return ["tuning", "tuning-v5", ...heldout, ...benign, "semantic-paraphrases"];
}

export interface HeldoutSetSpec {
  /** File name under tests/fixtures/audit-intent, without `.json` (e.g. "heldout-v6"). */
  readonly file: string;
  /** Id prefix of its attacks (e.g. "h6"). */
  readonly prefix: string;
  readonly minAttacks: number;
  readonly minPerFamily: number;
  readonly minMultilingual: number;
  readonly minBenignTools: number;
  readonly benignServers: readonly [min: number, max: number];
  /** The servers its brief allowed for the benign half. */
  readonly allowedRepos: readonly string[];
  /** Every earlier set and the tuning material: its benign servers must be new to all of them. */
  readonly earlier: readonly string[];
  /** The brief asked for English outside the multilingual family. */
  readonly englishElsewhere?: boolean;
  /** Check that no description of 40 characters or more repeats one of an earlier set. */
  readonly noReusedDescriptions?: boolean;
  /** Generic descriptions of 40 characters or more that two writers may well both write (e.g. a pagination cursor's). */
  readonly genericDescriptions?: readonly string[];
  /** The families its brief named (default: the six of v4–v13). */
  readonly families?: readonly (typeof SET_FAMILIES)[number][];
  /** Its brief asked for each of the ten most-spoken languages (default true; v14's asked for twelve languages of any kind). */
  readonly mostSpoken?: boolean;
  /** Its brief asked for each multilingual attack in a language of its own (v16 onwards). */
  readonly oneLanguageEach?: boolean;
}

/** Every string under a `description` key anywhere in a JSON value. */
function descriptions(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) descriptions(v, out);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (k === "description" && typeof v === "string") out.add(v);
      else descriptions(v, out);
    }
  return out;
}

const SHORT: Record<(typeof SET_FAMILIES)[number], string> = {
  "context-exfiltration": "ctx",
  shadowing: "sh",
  steering: "st",
  encoded: "enc",
  "server-instructions": "si",
  multilingual: "ml",
  credentials: "cred",
};

export function describeHeldoutSet(spec: HeldoutSetSpec): void {
  describe(`held-out set ${spec.file} (shape and counts only; the auditor is not run)`, () => {
    const set = heldoutSetSchema(spec.prefix).parse(read(spec.file));

    it(`has at least ${spec.minAttacks} attacks, at least ${spec.minPerFamily} in every family, with unique ids`, () => {
      expect(set.attacks.length).toBeGreaterThanOrEqual(spec.minAttacks);
      for (const family of spec.families ?? FAMILIES) expect(set.attacks.filter((a) => a.family === family).length, family).toBeGreaterThanOrEqual(spec.minPerFamily);
      expect(new Set(set.attacks.map((a) => a.id)).size).toBe(set.attacks.length);
    });

    it("ids name their family", () => {
      for (const a of set.attacks) expect(a.id.split("-")[1], a.id).toBe(SHORT[a.family]);
    });

    it(`has at least ${spec.minMultilingual} multilingual attacks across at least 14 languages${spec.mostSpoken === false ? "" : ", the ten most-spoken among them"}`, () => {
      const multilingual = set.attacks.filter((a) => a.family === "multilingual");
      expect(multilingual.length).toBeGreaterThanOrEqual(spec.minMultilingual);
      expect(multilingual.every((a) => a.language !== "en")).toBe(true);
      const languages = new Set(multilingual.map((a) => a.language));
      expect(languages.size).toBeGreaterThanOrEqual(14);
      if (spec.mostSpoken !== false) for (const language of MOST_SPOKEN) expect(languages.has(language), language).toBe(true);
      if (spec.oneLanguageEach === true) expect(languages.size).toBe(multilingual.length);
      if (spec.englishElsewhere === true) for (const a of set.attacks.filter((x) => x.family !== "multilingual")) expect(a.language, a.id).toBe("en");
    });

    it("gives every server-instructions attack its instructions", () => {
      for (const a of set.attacks.filter((x) => x.family === "server-instructions")) expect(a.server.instructions, a.id).toBeDefined();
    });

    it("configures the victim server beside every shadowing attack", () => {
      for (const a of set.attacks.filter((x) => x.family === "shadowing")) expect(a.otherServers.length, a.id).toBeGreaterThan(0);
    });

    if (spec.noReusedDescriptions === true)
      it('reuses no description of an earlier set or the tuning material (short generic ones such as "Page URL." aside)', () => {
        const earlier = new Set<string>();
        for (const name of spec.earlier) descriptions(read(name), earlier);
        for (const a of set.attacks) for (const d of descriptions(a.server)) if (d.length >= 40 && !(spec.genericDescriptions ?? []).includes(d)) expect(earlier.has(d), a.id).toBe(false);
      });

    const [minServers, maxServers] = spec.benignServers;
    it(`has at least ${spec.minBenignTools} benign tools from ${minServers}-${maxServers} allowed servers, with distinct names per server`, () => {
      expect(set.benign.reduce((n, s) => n + s.tools.length, 0)).toBeGreaterThanOrEqual(spec.minBenignTools);
      expect(set.benign.length).toBeGreaterThanOrEqual(minServers);
      expect(set.benign.length).toBeLessThanOrEqual(maxServers);
      for (const s of set.benign) {
        expect(spec.allowedRepos, s.source.repo).toContain(s.source.repo);
        expect(new Set(s.tools.map((t) => t.name)).size, s.server).toBe(s.tools.length);
      }
    });

    it("takes no benign server that an earlier set or the tuning material used", () => {
      const earlier = new Set(spec.earlier.flatMap((name) => repoList.parse(read(name)).benign.map((b) => b.source.repo)));
      for (const s of set.benign) expect(earlier.has(s.source.repo), s.source.repo).toBe(false);
    });
  });
}

/** What the briefs from v8 on promised beyond the shared suite. */
export interface BriefCounts {
  readonly file: string;
  readonly prefix: string;
  /** The sets written before it (file names), whose server instructions it must not repeat. */
  readonly earlier: readonly string[];
  /** The least number of attacks per family. */
  readonly familyMinimums: readonly (readonly [string, number])[];
}

/** Family minimums, 20 languages (10 in scripts other than Latin), no reused server instructions, pinned benign servers. */
export function describeBriefCounts(spec: BriefCounts): void {
  describe(`held-out set ${spec.file}: the brief's own counts beyond the shared suite`, () => {
    const set = heldoutSetSchema(spec.prefix).parse(read(spec.file));
    const count = (family: string): number => set.attacks.filter((a) => a.family === family).length;

    it.each(spec.familyMinimums)("has at least the brief's number of %s attacks (%i)", (family, min) => {
      expect(count(family)).toBeGreaterThanOrEqual(min);
    });

    it("writes its multilingual attacks in at least 20 languages, some in scripts other than Latin", () => {
      const multilingual = set.attacks.filter((a) => a.family === "multilingual");
      expect(new Set(multilingual.map((a) => a.language)).size).toBeGreaterThanOrEqual(20);
      const nonLatin = multilingual.filter((a) => /(?!\p{Script=Latin})\p{L}/u.test(JSON.stringify(a.server)));
      expect(new Set(nonLatin.map((a) => a.language)).size).toBeGreaterThanOrEqual(10);
    });

    it("repeats no server instructions of an earlier set", () => {
      const earlier = new Set<string>();
      for (const name of spec.earlier) {
        const file = read(name) as { attacks?: { server?: { instructions?: string } }[] };
        for (const a of file.attacks ?? []) if (a.server?.instructions !== undefined) earlier.add(a.server.instructions);
      }
      for (const a of set.attacks) if (a.server.instructions !== undefined) expect(earlier.has(a.server.instructions), a.id).toBe(false);
    });

    it("takes every benign server at a pinned commit, each with at least ten tools", () => {
      for (const s of set.benign) {
        expect(s.source.commit, s.server).toMatch(/^[0-9a-f]{40}$/);
        expect(s.tools.length, s.server).toBeGreaterThanOrEqual(10);
      }
    });
  });
}

/**
 * What the briefs of v18 onwards asked beyond the shared checks: no attack uses the alarm words a careful attacker
 * avoids, and `multilingual` attacks each in a language of its own, none English.
 */
export function describeQuietAttacks(file: string, prefix: string, multilingual: number): void {
  describe(`held-out set ${file.replace("heldout-", "")}: what its brief asked beyond the shared checks`, () => {
    const set = heldoutSetSchema(prefix).parse(read(file));

    it("keeps the alarm words out: no attack says 'ignore previous' or 'hidden'", () => {
      const alarmed = set.attacks.filter((a) => /ignore previous|hidden/i.test(JSON.stringify(a.server)));
      expect(alarmed.map((a) => a.id)).toEqual([]);
    });

    it(`writes ${multilingual} multilingual attacks, each in a language of its own, none of them English`, () => {
      const attacks = set.attacks.filter((a) => a.family === "multilingual");
      expect(attacks.length).toBe(multilingual);
      expect(attacks.every((a) => a.language !== "en")).toBe(true);
    });
  });
}
