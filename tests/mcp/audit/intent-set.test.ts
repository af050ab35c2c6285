import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLanguageModel } from "../../../src/agent/llm/provider.js";
import { resolveModel } from "../../../src/agent/llm/model-config.js";
import { verdictOf, type AuditedTool, type Finding } from "../../../src/mcp/audit/index.js";
import { createSecondOpinionReviewer } from "../../../src/mcp/service/second-opinion.js";
import { startScriptedLlmServer, type ChatRequest, type ScriptedLlmServer } from "../../fixtures/llm/openai-server.js";
import { auditCase, loadCases, loadListings } from "./guardbench-harness.js";
import { isFlagged, loadHalf, scoreAttack, scoreBenign, type HalfName } from "./intent-harness.js";

/**
 * Recall and benign-flag rate of the auditor on three sets: the public corpus (mcp-guardbench,
 * tool-definition and content cases), and the two halves of our own set written before tuning
 * (tests/fixtures/audit-intent: the rules were tuned on one half, the other was only measured).
 * "Flagged" means warn or block: either holds the tool until a person accepts it.
 *
 * With the optional LLM second opinion on, the definitions also go through the real reviewer
 * (src/mcp/service/second-opinion.ts → AI SDK → HTTP) to the local fake model in tests/fixtures/llm,
 * which answers like a weak reviewer: English keywords only. A second run with a reviewer that calls
 * everything safe (a fooled model) shows the second opinion can add findings but never remove one.
 */
type Extra = (tool: AuditedTool) => Finding[];
const none: Extra = () => [];

interface Figures {
  readonly caught: number;
  readonly attacks: number;
  readonly flagged: number;
  readonly benign: number;
  readonly missed: string[];
  readonly falsePositives: string[];
}

function measureHalf(name: HalfName, extra: Extra): Figures {
  const half = loadHalf(name);
  const attacks = half.attacks.map((c) => scoreAttack(c, extra));
  const benign = scoreBenign(half, extra);
  return {
    caught: attacks.filter((a) => isFlagged(a.verdict)).length,
    attacks: attacks.length,
    flagged: benign.filter((b) => isFlagged(b.verdict)).length,
    benign: benign.length,
    missed: attacks.filter((a) => !isFlagged(a.verdict)).map((a) => a.id),
    falsePositives: benign.filter((b) => isFlagged(b.verdict)).map((b) => b.id),
  };
}

/** The corpus: attacks (definition and content cases), benign tool definitions (corpus listings plus five real servers). */
function measureCorpus(extra: Extra): Figures {
  const rows = loadCases().map((c) => ({ c, outcome: auditCase(c) }));
  const verdict = (r: (typeof rows)[number]) => {
    if (r.outcome.kind !== "definition") return r.outcome.verdict;
    const tools = ((r.c.message.result as { tools?: AuditedTool[] }).tools ?? []) as AuditedTool[];
    return verdictOf([...r.outcome.findings, ...tools.flatMap(extra)]);
  };
  const attacks = rows.filter((r) => r.c.bucket !== "benign");
  const benignIds: string[] = [];
  const flaggedIds: string[] = [];
  for (const r of rows.filter((b) => b.c.bucket === "benign" && b.outcome.kind === "definition")) {
    const tools = ((r.c.message.result as { tools?: AuditedTool[] }).tools ?? []) as AuditedTool[];
    for (const t of r.outcome.tools) {
      const tool = tools.find((x) => x.name === t.name);
      const v = verdictOf([...r.outcome.findings.filter((f) => f.location.tool === t.name), ...(tool === undefined ? [] : extra(tool))]);
      benignIds.push(`${r.c.id}/${t.name}`);
      if (isFlagged(v)) flaggedIds.push(`${r.c.id}/${t.name}`);
    }
  }
  // The five real listings, each audited with the other four configured beside it (shadowing needs neighbours).
  const listings = { attacks: [], benign: Object.entries(loadListings()).map(([server, tools]) => ({ server, source: { repo: "", commit: "", path: "" }, tools })) };
  for (const s of scoreBenign(listings, extra)) {
    benignIds.push(`listing:${s.id}`);
    if (isFlagged(s.verdict)) flaggedIds.push(`listing:${s.id}`);
  }
  return {
    caught: attacks.filter((r) => isFlagged(verdict(r))).length,
    attacks: attacks.length,
    flagged: flaggedIds.length,
    benign: benignIds.length,
    missed: attacks.filter((r) => !isFlagged(verdict(r))).map((r) => r.c.id),
    falsePositives: flaggedIds,
  };
}

const pct = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)}%`;
const row = (set: string, llm: string, f: Figures): string =>
  `| ${set} | ${llm} | ${f.caught}/${f.attacks} | ${pct(f.caught, f.attacks)} | ${f.flagged}/${f.benign} | ${pct(f.flagged, f.benign)} |`;

/** The fake model's judgement: a weak reviewer that knows a few English phrases and nothing else. */
const WEAK_REVIEWER_SIGNS = /do not tell|don't tell|do not mention|without telling|system prompt|conversation history|ignore (?:all )?previous|\bbcc\b|send (?:it|them|this) to|api key|private key/i;

function reviewer(request: ChatRequest, judge: (definition: string) => "safe" | "malicious"): { text: string } {
  const system = String(request.messages.find((m) => m.role === "system")?.content ?? "");
  const user = String(request.messages.find((m) => m.role === "user")?.content ?? "");
  const nonce = /<untrusted-([0-9a-f]+)>/.exec(system)?.[1] ?? "none";
  const verdict = judge(user);
  return { text: JSON.stringify({ nonce, verdict, reasons: verdict === "safe" ? [] : ["instructions to the model"] }) };
}

async function secondOpinions(llm: ScriptedLlmServer, tools: AuditedTool[]): Promise<Map<string, Finding[]>> {
  const model = createLanguageModel(resolveModel(undefined, { MCPVM_MODEL: "openai-compatible:reviewer", MCPVM_BASE_URL: llm.url }));
  const review = createSecondOpinionReviewer(model, { timeoutMs: 60_000 });
  const out = new Map<string, Finding[]>();
  for (let i = 0; i < tools.length; i += 8) {
    const batch = tools.slice(i, i + 8);
    const found = await Promise.all(batch.map((t) => review(t)));
    batch.forEach((t, j) => out.set(JSON.stringify(t), found[j] === undefined ? [] : [found[j] as Finding]));
  }
  return out;
}

function allTools(): AuditedTool[] {
  const tools: AuditedTool[] = [];
  for (const name of ["tuning", "heldout"] as const) {
    const half = loadHalf(name);
    for (const c of half.attacks) tools.push(...c.server.tools);
    for (const s of half.benign) tools.push(...s.tools);
  }
  for (const c of loadCases()) {
    const result = c.message.result as { tools?: AuditedTool[] } | undefined;
    if (Array.isArray(result?.tools)) tools.push(...result.tools);
  }
  for (const list of Object.values(loadListings())) tools.push(...list);
  return [...new Map(tools.map((t) => [JSON.stringify(t), t])).values()];
}

describe("audit recall and benign-flag rate", () => {
  const lines = ["", "| set | LLM second opinion | attacks flagged | recall | benign flagged | benign rate |", "|---|---|---|---|---|---|"];
  let weak: Map<string, Finding[]> = new Map();
  let fooled: Map<string, Finding[]> = new Map();
  let llm: ScriptedLlmServer | undefined;

  beforeAll(async () => {
    const tools = allTools();
    llm = await startScriptedLlmServer(Array.from({ length: tools.length }, () => (r: ChatRequest) => reviewer(r, (d) => (WEAK_REVIEWER_SIGNS.test(d) ? "malicious" : "safe"))));
    weak = await secondOpinions(llm, tools);
    await llm.close();
    llm = await startScriptedLlmServer(Array.from({ length: tools.length }, () => (r: ChatRequest) => reviewer(r, () => "safe")));
    fooled = await secondOpinions(llm, tools);
    expect(llm.requests.length).toBe(tools.length);
  }, 300_000);

  afterAll(async () => {
    await llm?.close();
    console.log(lines.join("\n"));
  });

  const withWeak: Extra = (t) => weak.get(JSON.stringify(t)) ?? [];
  const withFooled: Extra = (t) => fooled.get(JSON.stringify(t)) ?? [];

  it("public corpus (mcp-guardbench + five real listings)", () => {
    const off = measureCorpus(none);
    const on = measureCorpus(withWeak);
    lines.push(row("mcp-guardbench", "off", off), row("mcp-guardbench", "on (fake, weak)", on));
    expect(off.missed).toEqual([]);
    expect(off.falsePositives).toEqual([]);
    expect(on.caught).toBeGreaterThanOrEqual(off.caught);
    // The weak fake reviewer calls 8 benign corpus definitions malicious (they discuss SSH keys and system prompts): its warn holds them.
    expect(on.flagged).toBeLessThanOrEqual(8);
    expect(measureCorpus(withFooled)).toEqual(off);
  });

  it("own set, tuning half", () => {
    const off = measureHalf("tuning", none);
    const on = measureHalf("tuning", withWeak);
    lines.push(row("own set, tuning half", "off", off), row("own set, tuning half", "on (fake, weak)", on));
    expect(off.missed).toEqual([]);
    expect(off.falsePositives).toEqual([]);
    expect(on.caught).toBeGreaterThanOrEqual(off.caught);
    expect(on.flagged).toBe(0);
    expect(measureHalf("tuning", withFooled)).toEqual(off);
  });

  it("own set, held-out half (never tuned on)", () => {
    const off = measureHalf("heldout", none);
    const on = measureHalf("heldout", withWeak);
    lines.push(row("own set, held-out half", "off", off), row("own set, held-out half", "on (fake, weak)", on));
    // Floors at the figures measured when the held-out half was first run (see docs/SECURITY.md).
    expect(off.caught).toBeGreaterThanOrEqual(HELDOUT_FLOOR.caught);
    expect(off.flagged).toBeLessThanOrEqual(HELDOUT_FLOOR.flagged);
    expect(on.caught).toBeGreaterThanOrEqual(off.caught);
    expect(on.flagged).toBe(0);
    expect(measureHalf("heldout", withFooled)).toEqual(off);
  });
});

/** First (and only) measurement of the held-out half, 2026-11-25: 36/38 attacks flagged, 0/56 benign flagged. */
const HELDOUT_FLOOR = { caught: 36, flagged: 0 };
