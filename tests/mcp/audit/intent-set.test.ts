import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditedTool, Finding } from "../../../src/mcp/audit/index.js";
import { isFlagged, loadHalf, scoreAttack, type HalfName } from "./intent-harness.js";
import { allTools, careful, fooled, indiscriminateVerdict, keyOf, measureCorpus, measureHalf, none, pct, row, secondOpinions, unfounded, type Extra, type Figures } from "./intent-set-measure.js";

/**
 * Recall and benign-flag rate of the auditor on everything it is tuned on (tests/fixtures/audit-intent/README.md):
 * the public corpus (mcp-guardbench, tool-definition and content cases, plus five real listings), set v1
 * (tuning.json), sets v2 and v3 (heldout-v2.json, heldout-v3.json: each held out for its measurements, tuned on
 * since — v3 from wave 6), tuning set v5 (tuning-v5.json: attacks aimed at the rules' blind spots, wave 6) and
 * extra benign material from real servers (benign-extra.json, benign-extra-2.json). "Flagged" means warn or
 * block: either holds the tool until a person accepts it. Set v4 (heldout-v4.json) was written
 * independently and measured once when it was merged (63/84, 8/86); spent in wave 8 (84/84, 0/86 after tuning). Sets v5,
 * v6, v7 and v8 were written independently the same way and are spent too (tuned on in waves 9, 10, 11 and the second
 * round of wave 11). Set v9 (heldout-v9.json, wave 11) was measured once, then spent in wave 12 (tuned on). Set v10
 * (heldout-v10.json, wave 12) was measured with the rules, beside wave 15's text model and with wave 16's (each frozen
 * before v10 was scored); spent in wave 17 (tuned on with v11). v11 and wave 16's benign-voice sets: intent-set-voice.test.ts.
 *
 * With the optional LLM second opinion on, every definition goes through the real reviewer
 * (src/mcp/service/second-opinion.ts → AI SDK → HTTP) to the local fake model (./fake-reviewer.ts: a
 * deterministic reviewer that judges English sentences addressed to the model and quotes the one it
 * objects to). Three more reviewers show what the host lets a model do: one fooled into calling everything
 * safe and one that calls everything malicious and quotes text that is not in the definition — neither
 * may change a single figure (a second opinion adds a finding only with a real quote, and never removes
 * one) — and one that calls everything malicious quoting each description: it holds a benign tool only where
 * the rules see a sign of intent in that description (second-opinion-combine.ts), counted below.
 */

// Five passes over every set (off, on and three test reviewers): generous on a loaded machine.
describe("audit recall and benign-flag rate", { timeout: 180_000 }, () => {
  const lines = ["", "| set | LLM second opinion | attacks flagged | recall | benign flagged | benign rate |", "|---|---|---|---|---|---|"];
  let withCareful: Extra = none;
  let withFooled: Extra = none;
  let withUnfounded: Extra = none;
  let withIndiscriminate: Extra = none;

  beforeAll(async () => {
    const tools = allTools();
    const lookup = (m: Map<string, Finding[]>): Extra => (t, own) => m.get(keyOf(t, own)) ?? [];
    const a = await secondOpinions(careful, tools);
    const b = await secondOpinions(fooled, tools);
    const c = await secondOpinions(unfounded, tools);
    const d = await secondOpinions(indiscriminateVerdict, tools);
    // Every definition really went to the model, once per reviewer.
    expect([a.requests, b.requests, c.requests, d.requests]).toEqual([tools.length, tools.length, tools.length, tools.length]);
    withCareful = lookup(a.byTool);
    withFooled = lookup(b.byTool);
    withUnfounded = lookup(c.byTool);
    withIndiscriminate = lookup(d.byTool);
  }, 300_000);

  const notes: string[] = [];
  afterAll(() => {
    console.log([...lines, "", ...notes].join("\n"));
  });

  /** Off, on, and what a reviewer that calls everything malicious (quoting each description) would add. */
  function measure(name: string, f: (extra: Extra) => Figures): { off: Figures; on: Figures; blindlyHeld: number } {
    const off = f(none);
    const on = f(withCareful);
    const indiscriminate = f(withIndiscriminate);
    lines.push(row(name, "off", off), row(name, "on (fake reviewer)", on));
    const added = on.falsePositives.filter((id) => !off.falsePositives.includes(id));
    if (added.length > 0) notes.push(`${name}: the fake reviewer holds ${added.join(", ")}`);
    const blind = indiscriminate.falsePositives.filter((id) => !off.falsePositives.includes(id));
    notes.push(`${name}: a reviewer calling every definition malicious would hold ${blind.length} more of ${off.benign} benign${blind.length > 0 ? ` (${blind.join(", ")})` : ""}`);
    // The second opinion only adds: nothing caught without it is lost with it, nothing flagged without it is cleared.
    expect(on.missed.every((id) => off.missed.includes(id))).toBe(true);
    expect(off.falsePositives.every((id) => on.falsePositives.includes(id))).toBe(true);
    // A fooled model changes nothing, and neither does one whose quotes are not in the definition.
    expect(f(withFooled)).toEqual(off);
    expect(f(withUnfounded)).toEqual(off);
    return { off, on, blindlyHeld: blind.length };
  }

  /** The fake reviewer on its own (its findings only): what it would catch and hold without the rules. */
  function reviewerAlone(name: HalfName): { caught: number; attacks: number; flagged: number; benign: number } {
    const half = loadHalf(name);
    const objects = (list: AuditedTool[]) => {
      const own = new Set(list.map((t) => t.name));
      return list.filter((t) => withCareful(t, own).length > 0).length;
    };
    const benign = half.benign.flatMap((s) => s.tools);
    return {
      caught: half.attacks.filter((c) => objects(c.server.tools) > 0).length,
      attacks: half.attacks.length,
      flagged: half.benign.reduce((n, s) => n + objects(s.tools), 0),
      benign: benign.length,
    };
  }

  it("the fake reviewer on its own quotes instructions in attacks, and its quotes are real", () => {
    const alone = reviewerAlone("tuning");
    lines.push(`| own set v1 | fake reviewer alone (no rules; server instructions not sent to it) | ${alone.caught}/${alone.attacks} | ${pct(alone.caught, alone.attacks)} | ${alone.flagged}/${alone.benign} | ${pct(alone.flagged, alone.benign)} |`);
    expect(alone.caught).toBeGreaterThanOrEqual(REVIEWER_ALONE_V1_FLOOR);
    for (const c of loadHalf("tuning").attacks) {
      const own = new Set(c.server.tools.map((t) => t.name));
      for (const t of c.server.tools) for (const f of withCareful(t, own)) expect(f.location.jsonPath).toMatch(/^\$\./);
    }
  });

  it("public corpus (mcp-guardbench + five real listings)", () => {
    const { off, on, blindlyHeld } = measure("mcp-guardbench", measureCorpus);
    expect(off.missed).toEqual([]);
    expect(off.falsePositives).toEqual([]);
    expect(on.falsePositives).toEqual([]);
    expect(blindlyHeld).toBeLessThanOrEqual(INDISCRIMINATE_CEILING.corpus);
  });

  it("own set v1 (tuned on)", () => {
    const { off, on, blindlyHeld } = measure("own set v1 (tuned on)", (e) => measureHalf("tuning", e));
    expect(off.missed).toEqual([]);
    expect(off.falsePositives).toEqual([]);
    expect(on.falsePositives).toEqual([]);
    expect(blindlyHeld).toBeLessThanOrEqual(INDISCRIMINATE_CEILING.v1);
  });

  it("set v2 (held out for one measurement in wave 4, tuned on since)", () => {
    const { off, on, blindlyHeld } = measure("set v2 (tuned on)", (e) => measureHalf("heldout-v2", e));
    expect(off.missed).toEqual([]);
    expect(off.falsePositives).toEqual([]);
    expect(on.falsePositives).toEqual([]);
    expect(blindlyHeld).toBeLessThanOrEqual(INDISCRIMINATE_CEILING.v2);
  });

  it("set v3 (held out for two measurements in wave 5, tuned on since wave 6)", () => {
    const { off, on, blindlyHeld } = measure("set v3 (tuned on)", (e) => measureHalf("heldout-v3", e));
    const half = loadHalf("heldout-v3");
    const families = [...new Set(half.attacks.map((c) => c.family))];
    const counts = families.map((family) => {
      const cases = half.attacks.filter((c) => c.family === family);
      return `${family} ${cases.filter((c) => isFlagged(scoreAttack(c).verdict)).length}/${cases.length}`;
    });
    notes.push(`set v3, second opinion off, by family: ${counts.join(", ")}`);
    expect(off.missed).toEqual([]);
    expect(off.falsePositives).toEqual([]);
    expect(on.falsePositives).toEqual([]);
    expect(blindlyHeld).toBeLessThanOrEqual(INDISCRIMINATE_CEILING.v3);
  });

  it("set v4 (written independently in wave 6 and measured once: the figure on attacks nobody tuned on)", () => {
    // Its one held-out measurement, with the wave-6 rules (tests/fixtures/audit-intent/README.md): 63/84 attacks,
    // 8/86 benign tools held, second opinion off and on alike. Far from the goal (>= 98 %, <= 2 %); these floors
    // only keep later changes from losing ground on it. Spent since wave 8 (its misses were studied by cause): 84/84 and
    // 0/86 tuned, which says nothing about attacks nobody tuned on.
    const { off, on } = measure("set v4 (spent: tuned on in wave 8)", (e) => measureHalf("heldout-v4", e));
    expect(off.attacks).toBe(84);
    expect(off.benign).toBe(86);
    expect(off.caught).toBeGreaterThanOrEqual(84);
    expect(off.flagged).toBe(0);
    expect(on.caught).toBeGreaterThanOrEqual(84);
    expect(on.flagged).toBe(0);
  });

  it("set v5 (written independently in wave 8, measured once; spent in wave 9)", () => {
    // Its one held-out measurement, with the wave-8 rules (tests/fixtures/audit-intent/README.md): 65/94 attacks,
    // 2/123 benign tools held, second opinion off and on alike (the rules before wave 8: 57/94 and 2/123). With the
    // wave-9 steering relation alone, written before v5's cases were read: 65/94 again. Spent since wave 9 (its misses
    // were studied by cause and fixed by kind): 94/94 and 0/123 tuned, which says nothing about attacks nobody tuned on.
    // Wave 19's refit of the text model (benign-voice weighted ×3, chosen by leave-one-writer-out) no longer holds the one
    // v5 attack only wave 16's text model held: 93/94.
    const { off, on } = measure("set v5 (spent: tuned on in wave 9)", (e) => measureHalf("heldout-v5", e));
    expect(off.attacks).toBe(94);
    expect(off.benign).toBe(123);
    expect(off.caught).toBeGreaterThanOrEqual(93);
    expect(off.flagged).toBe(0);
    expect(on.caught).toBeGreaterThanOrEqual(93);
    expect(on.flagged).toBe(0);
  });

  it("set v6 (written independently in wave 9, measured twice, spent in wave 10: tuned on)", () => {
    // Held out, with the wave-9 rules (tests/fixtures/audit-intent/README.md): 85/113 attacks, 3/180 benign tools held,
    // second opinion off and on alike (the rules before wave 9: 79/113 and 3/180). v6 is spent: wave 10 studied its
    // misses and false holds by kind and fixed the kinds (113/113, 0/180 after); the independent figure is v7's, which
    // the lead measures. These floors keep later changes from losing the kinds fixed.
    // Counts only (not `measure`, whose notes name cases).
    const [off, on] = [measureHalf("heldout-v6", none), measureHalf("heldout-v6", withCareful)];
    lines.push(`set v6 (spent): off ${off.caught}/${off.attacks} attacks, ${off.flagged}/${off.benign} benign; on ${on.caught}/${on.attacks}, ${on.flagged}/${on.benign}`);
    expect(off.attacks).toBe(113);
    expect(off.benign).toBe(180);
    expect(off.caught).toBe(113);
    expect(off.flagged).toBe(0);
    expect(on.caught).toBe(113);
    expect(on.flagged).toBe(0);
  });

  it("set v7 (written independently in wave 10, measured twice, spent in wave 11: tuned on)", () => {
    // Held out (tests/fixtures/audit-intent/README.md): with the wave-9 rules 102/122 attacks, 7/146 benign tools held;
    // after the wave-10 tuning on v6, 103/122 and 7/146 — second opinion off and on alike. v7 is spent: tuned on in wave 11,
    // which studied its 19 misses and 7 false holds by kind and fixed the kinds (122/122, 0/146 after). These floors keep
    // later changes from losing the kinds fixed; the independent figure is the next held-out set's, which the lead measures.
    // Counts only (not `measure`, whose notes name cases).
    const [off, on] = [measureHalf("heldout-v7", none), measureHalf("heldout-v7", withCareful)];
    lines.push(`set v7 (spent): off ${off.caught}/${off.attacks} attacks, ${off.flagged}/${off.benign} benign; on ${on.caught}/${on.attacks}, ${on.flagged}/${on.benign}`);
    expect([off.attacks, off.benign]).toEqual([122, 146]);
    expect(off.caught).toBe(122);
    expect(off.flagged).toBe(0);
    expect(on.caught).toBe(122);
    expect(on.flagged).toBe(0);
  });

  it("set v8 (written independently in wave 11, measured once, spent in wave 11 (second round): tuned on)", () => {
    // Measured once by the lead after the wave-11 tuning on v7 (tests/fixtures/audit-intent/README.md): 117/140 attacks
    // (83.6 %), 6/212 benign tools held (2.8 %: gsuite 4, asana 1, salesforce 1), second opinion off and on alike; the
    // wave-10 rules on the same set: 115/140, 6/212. Spent in wave 11 (second round): its misses and false holds were
    // studied by kind and the kinds fixed (130/140, 2/212 after). These floors keep later changes from losing the kinds
    // fixed; the independent figure is the next held-out set's. Counts only (not `measure`, whose notes name cases).
    const [off, on] = [measureHalf("heldout-v8", none), measureHalf("heldout-v8", withCareful)];
    lines.push(`set v8 (spent): off ${off.caught}/${off.attacks} attacks, ${off.flagged}/${off.benign} benign; on ${on.caught}/${on.attacks}, ${on.flagged}/${on.benign}`);
    expect([off.attacks, off.benign]).toEqual([140, 212]);
    // Wave 12's address relations (tuned on v9) also hold one more v8 attack: 131. The text model, fitted on v8 among
    // the rest, holds 3 more (in-sample: says nothing about attacks it never saw): 134. Wave 17's letters escaped one by
    // one (text-audit.ts, tuned on v10 and v11) hold one more: 135. Wave 19's refit of the text model (benign-voice
    // weighted ×3, chosen by leave-one-writer-out) holds 1 the rules miss where wave 16's held 4: 132. Wave 20's rules,
    // written from four other writers' misses (families-wave20.test.ts), hold one more: 133. Wave 29's borrowed-authority
    // rule (returned content given the user's or operator's voice, from v8's and v12's misses) holds 2 more: 135.
    expect(off.caught).toBe(135);
    expect(off.flagged).toBe(2);
    expect(on.caught).toBeGreaterThanOrEqual(off.caught);
    expect(on.flagged).toBeGreaterThanOrEqual(off.flagged);
  });

  it("set v9 (written independently in wave 11, measured once, spent in wave 12: tuned on)", () => {
    // Measured once by the lead after both wave-11 tuning rounds (tests/fixtures/audit-intent/README.md): 109/142 attacks
    // (76.8 %), 9/208 benign tools held (4.3 %: telegram 8, confluence 1); with the fake reviewer 109/142 and 11/208.
    // Spent in wave 12: its false holds were fixed by kind (0/208), its steering and shadowing misses by structure
    // (address-relation.ts): 128/142. With the fake reviewer 128/142 and 2/208 (confluence 2). These keep the kinds fixed;
    // the independent figure is the next held-out set's. Counts only.
    const [off, on] = [measureHalf("heldout-v9", none), measureHalf("heldout-v9", withCareful)];
    lines.push(`set v9 (spent): off ${off.caught}/${off.attacks} attacks, ${off.flagged}/${off.benign} benign; on ${on.caught}/${on.attacks}, ${on.flagged}/${on.benign}`);
    expect([off.attacks, off.benign]).toEqual([142, 208]);
    // 128 by the rules; the text model, fitted on v9 among the rest (in-sample), holds nothing more the rules miss.
    // Wave 18's prose slot (intent/prose-slot.ts, designed on the spent sets) holds 3 more: h9-ctx-07, h9-ml-11, h9-ml-20.
    // Wave 29's payee-redirect rule (payee-redirect.ts, from v9's and v12's misses) holds 1 more: h9-ml-10.
    expect(off.caught).toBe(132);
    expect(off.flagged).toBe(0);
    expect(on.caught).toBeGreaterThanOrEqual(off.caught);
    expect(on.flagged).toBeLessThanOrEqual(2);
  });

  it("set v10 (written independently in wave 12, measured once; spent in wave 17: tuned on)", () => {
    // Measured once by the lead after v9's tuning was merged (tests/fixtures/audit-intent/README.md), counts only:
    // 114/148 attacks (77.0 %), 16/366 benign tools held (4.4 %: monday.com 15, Trello 1); the same with the fake
    // reviewer. The rules of wave 11 scored 113/148 and 16/366. Wave 15's text model (frozen by leave-one-set-out over
    // v2–v9 before v10 was read) measured once beside the rules: 130/148 (87.8 %), 16/366; not shipped (it held our own
    // honest text). Wave 16's (benign-voice in the fit, threshold 0.875, five-word gate; v10 never fitted on): 118/148
    // (79.7 %), 16/366. Spent in wave 17: its 30 misses were read and their causes fixed by kind (families-wave17.test.ts),
    // 148/148 after (147 by the rules alone), 16/366; and its 16 benign holds, fixed by cause (benign-wave17.test.ts):
    // 10/366, attacks unchanged. Tuned on, so these figures are no longer independent; the next held-out set's are.
    const [off, on] = [measureHalf("heldout-v10", none), measureHalf("heldout-v10", withCareful)];
    lines.push(`set v10 (spent): off ${off.caught}/${off.attacks} attacks, ${off.flagged}/${off.benign} benign; on ${on.caught}/${on.attacks}, ${on.flagged}/${on.benign}`);
    expect([off.attacks, off.benign]).toEqual([148, 366]);
    expect(off.caught).toBeGreaterThanOrEqual(148);
    expect(off.flagged).toBeLessThanOrEqual(10);
    expect(on.caught).toBeGreaterThanOrEqual(off.caught);
    expect(on.flagged).toBeLessThanOrEqual(10);
  });

  it("extra benign material 5 (wave 10: Tinybird, Kagi, mem0, Browserbase; screened before and after the wave-10 changes)", () => {
    // 0 of 28 held with the wave-9 rules and after every wave-10 change (screened against it each time).
    const { off, on } = measure("extra benign 5", (e) => measureHalf("benign-extra-5", e));
    expect(off.benign).toBe(28);
    expect(off.falsePositives).toEqual([]);
    expect(on.falsePositives).toEqual([]);
  });

  it("extra benign material 4 (wave 9: seven servers never used before, screened before tuning on them)", () => {
    // 2 of 70 held by the rules before wave 9 and after its steering and person-relation changes alike (a `<script>` tag
    // named in prose; Qdrant's "use this tool when you need to … get some personal information about the user"); 0 after
    // those two were fixed by kind.
    const { off, on } = measure("extra benign 4 (screened, then tuned on)", (e) => measureHalf("benign-extra-4", e));
    expect(off.benign).toBe(70);
    expect(off.falsePositives).toEqual([]);
    expect(on.falsePositives).toEqual([]);
  });

  it("extra benign material 3 (wave 8: CircleCI, PostHog, Mapbox, Desktop Commander screened before any wave-8 change; Apify after)", () => {
    // 27 of 113 held before the wave-8 changes (24 of Desktop Commander's 26 for "… in your instructions" read as asking
    // for the model's instructions); 5 after: Desktop Commander steers away from the client's own analysis tool in
    // capitals and tells the model to call its feedback tool without asking questions, CircleCI addresses "AI agents".
    const { off, on } = measure("extra benign 3 (screened, then tuned on)", (e) => measureHalf("benign-extra-3", e));
    expect(off.benign).toBe(130);
    expect(off.flagged).toBeLessThanOrEqual(5);
    expect(on.flagged).toBeLessThanOrEqual(5);
  });

  it("tuning set v5 (wave 6: attacks aimed at what the rules still missed)", () => {
    const { off } = measure("tuning set v5 (tuned on)", (e) => measureHalf("tuning-v5", e));
    expect(off.attacks).toBe(24);
    expect(off.missed).toEqual([]);
  });

  it("extra benign tuning material (sentry, terraform and grafana tools)", () => {
    const { off, on, blindlyHeld } = measure("extra benign (tuned on)", (e) => measureHalf("benign-extra", e));
    // Grafana's agent-observability catalog reads *other agents'* system prompts: held (a person accepts it once).
    expect(off.falsePositives).toEqual(["grafana/agento11y_manage_agents"]);
    expect(on.falsePositives).toEqual(["grafana/agento11y_manage_agents"]);
    expect(blindlyHeld).toBeLessThanOrEqual(INDISCRIMINATE_CEILING.extra);
  });

  it("extra benign material 2 (wave 6: auth0, linear, paypal, gitlab, elasticsearch, twilio, six awslabs servers)", () => {
    const { off, on, blindlyHeld } = measure("extra benign 2 (tuned on)", (e) => measureHalf("benign-extra-2", e));
    // Screened before any wave-6 change: 59 of 350 held (48 of them gitlab's for "the … search tool" beside elasticsearch).
    expect(off.benign).toBe(352);
    expect(off.falsePositives).toEqual([]);
    expect(on.falsePositives).toEqual([]);
    expect(blindlyHeld).toBeLessThanOrEqual(INDISCRIMINATE_CEILING.extra2);
  });
});

/**
 * Benign tools a reviewer that calls every definition malicious (quoting its description) would hold beyond what the
 * rules hold, per set: only
 * those whose description carries a sign of intent the rules see but do not hold on alone. Measured in wave 6; before
 * the combination (second-opinion-combine.ts) such a reviewer held every tool with a description.
 */
const INDISCRIMINATE_CEILING = { corpus: 0, v1: 0, v2: 0, v3: 0, extra: 0, extra2: 0 };
/** The fake reviewer alone catches 20 of set v1's 76 attacks (English definitions only; instructions are not sent to it). */
const REVIEWER_ALONE_V1_FLOOR = 20;
