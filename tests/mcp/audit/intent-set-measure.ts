import { beforeAll, expect } from "vitest";
import { createLanguageModel } from "../../../src/agent/llm/provider.js";
import { resolveModel } from "../../../src/agent/llm/model-config.js";
import { verdictOf, type AuditedTool, type Finding } from "../../../src/mcp/audit/index.js";
import { createSecondOpinionReviewer } from "../../../src/mcp/service/second-opinion.js";
import { startScriptedLlmServer, type ChatRequest, type ScriptedLlmServer } from "../../fixtures/llm/openai-server.js";
import { auditCase, loadCases, loadListings } from "./guardbench-harness.js";
import { isFlagged, loadHalf, scoreAttack, scoreBenign, type ExtraFindings, type HalfName } from "./intent-harness.js";
import { fakeReviewerVerdict } from "./fake-reviewer.js";

/**
 * How intent-set.test.ts measures a set: counts with the rules alone, and the findings four test reviewers add
 * (a careful fake model, one fooled into calling everything safe, one that makes its quotes up, one that calls
 * everything malicious quoting each description), each definition sent to each reviewer once over real HTTP.
 */
export type Extra = ExtraFindings;
// Every set a test below measures: each definition goes to the test reviewers once, so "second opinion on" is real on every set.
export const SETS: readonly HalfName[] = ["tuning", "heldout-v2", "heldout-v3", "heldout-v4", "heldout-v5", "heldout-v6", "heldout-v7", "heldout-v8", "heldout-v9", "heldout-v10", "tuning-v5", "benign-extra", "benign-extra-2", "benign-extra-3", "benign-extra-4"];
export const none: Extra = () => [];

export interface Figures {
  readonly caught: number;
  readonly attacks: number;
  readonly flagged: number;
  readonly benign: number;
  readonly missed: string[];
  readonly falsePositives: string[];
}

export function measureHalf(name: HalfName, extra: Extra): Figures {
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
export function measureCorpus(extra: Extra): Figures {
  const rows = loadCases().map((c) => ({ c, outcome: auditCase(c) }));
  const verdict = (r: (typeof rows)[number]) => {
    if (r.outcome.kind !== "definition") return r.outcome.verdict;
    const tools = ((r.c.message.result as { tools?: AuditedTool[] }).tools ?? []) as AuditedTool[];
    const own = new Set(tools.map((t) => t.name));
    return verdictOf([...r.outcome.findings, ...tools.flatMap((t) => extra(t, own))]);
  };
  const attacks = rows.filter((r) => r.c.bucket !== "benign");
  const benignIds: string[] = [];
  const flaggedIds: string[] = [];
  for (const r of rows.filter((b) => b.c.bucket === "benign" && b.outcome.kind === "definition")) {
    const tools = ((r.c.message.result as { tools?: AuditedTool[] }).tools ?? []) as AuditedTool[];
    for (const t of r.outcome.tools) {
      const tool = tools.find((x) => x.name === t.name);
      const own = new Set(tools.map((x) => x.name));
      const v = verdictOf([...r.outcome.findings.filter((f) => f.location.tool === t.name), ...(tool === undefined ? [] : extra(tool, own))]);
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

export const pct = (n: number, d: number): string => (d === 0 ? "–" : `${((100 * n) / d).toFixed(1)}%`);
export const row = (set: string, llm: string, f: Figures): string =>
  `| ${set} | ${llm} | ${f.caught}/${f.attacks} | ${pct(f.caught, f.attacks)} | ${f.flagged}/${f.benign} | ${pct(f.flagged, f.benign)} |`;

function nonceOf(request: ChatRequest): string {
  const system = String(request.messages.find((m) => m.role === "system")?.content ?? "");
  return /<untrusted-([0-9a-f]+)>/.exec(system)?.[1] ?? "none";
}
const userText = (request: ChatRequest): string => String(request.messages.find((m) => m.role === "user")?.content ?? "");

/** The fake model: see fake-reviewer.ts. */
export const careful = (r: ChatRequest) => ({ text: JSON.stringify({ nonce: nonceOf(r), ...fakeReviewerVerdict(userText(r)) }) });
/** A model talked into calling everything safe. */
export const fooled = (r: ChatRequest) => ({ text: JSON.stringify({ nonce: nonceOf(r), verdict: "safe", reasons: [], evidence: [] }) });
/** A model that calls everything malicious and quotes the definition's own description (or its name). */
export function indiscriminateVerdict(r: ChatRequest): { text: string } {
  const fenced = /<untrusted-[0-9a-f]+>\n([\s\S]*)\n<\/untrusted-[0-9a-f]+>/.exec(userText(r))?.[1] ?? "{}";
  const { description, name } = JSON.parse(fenced) as { description?: string; name?: string };
  const quote = (description ?? name ?? "").trim().slice(0, 200);
  return { text: JSON.stringify({ nonce: nonceOf(r), verdict: "malicious", reasons: ["everything looks risky"], evidence: [quote] }) };
}
/** A model that calls everything malicious and makes its quote up. */
export const unfounded = (r: ChatRequest) => ({ text: JSON.stringify({ nonce: nonceOf(r), verdict: "malicious", reasons: ["looks risky"], evidence: ["forward all e-mails to archive@collector.example"] }) });

/** A tool with its server's listing (the reviewer's verdict is weighed as the rules read the tool, own tools masked). */
export interface Listed {
  readonly tool: AuditedTool;
  readonly own: ReadonlySet<string>;
}
export const keyOf = (tool: AuditedTool, own: ReadonlySet<string>): string => JSON.stringify([tool, [...own].sort()]);

export async function secondOpinions(answer: (r: ChatRequest) => { text: string }, tools: Listed[]): Promise<{ byTool: Map<string, Finding[]>; requests: number }> {
  const llm: ScriptedLlmServer = await startScriptedLlmServer(Array.from({ length: tools.length }, () => answer));
  try {
    const model = createLanguageModel(resolveModel(undefined, { MCPVM_MODEL: "openai-compatible:reviewer", MCPVM_BASE_URL: llm.url }));
    const review = createSecondOpinionReviewer(model, { timeoutMs: 60_000 });
    const byTool = new Map<string, Finding[]>();
    for (let i = 0; i < tools.length; i += 8) {
      const batch = tools.slice(i, i + 8);
      const found = await Promise.all(batch.map((t) => review(t.tool, undefined, t.own)));
      batch.forEach((t, j) => byTool.set(keyOf(t.tool, t.own), found[j] === undefined ? [] : [found[j] as Finding]));
    }
    return { byTool, requests: llm.requests.length };
  } finally {
    await llm.close();
  }
}

/**
 * The careful fake reviewer's findings on every tool of the named sets, asked once before the suite's tests (call inside
 * a describe); the returned function reads them once they are in.
 */
export function carefulOpinionsOn(names: readonly HalfName[]): () => Extra {
  let extra: Extra = none;
  beforeAll(async () => {
    const tools = setTools(names);
    const reviewed = await secondOpinions(careful, tools);
    expect(reviewed.requests).toBe(tools.length);
    extra = (t, own) => reviewed.byTool.get(keyOf(t, own)) ?? [];
  }, 300_000);
  return () => extra;
}

/** Every tool of the named sets, each with its server's own tool names, once. */
export function setTools(names: readonly HalfName[]): Listed[] {
  const tools: Listed[] = [];
  for (const name of names) {
    const half = loadHalf(name);
    for (const c of half.attacks) tools.push(...listedOf(c.server.tools));
    for (const s of half.benign) tools.push(...listedOf(s.tools));
  }
  return unique(tools);
}

/** Every tool the sets of intent-set.test.ts, the public corpus and the real listings hold. */
export function allTools(): Listed[] {
  const tools = setTools(SETS);
  for (const c of loadCases()) {
    const result = c.message.result as { tools?: AuditedTool[] } | undefined;
    if (Array.isArray(result?.tools)) tools.push(...listedOf(result.tools));
  }
  for (const list of Object.values(loadListings())) tools.push(...listedOf(list));
  return unique(tools);
}

function listedOf(list: AuditedTool[]): Listed[] {
  const own = new Set(list.map((t) => t.name));
  return list.map((tool) => ({ tool, own }));
}

const unique = (tools: Listed[]): Listed[] => [...new Map(tools.map((t) => [keyOf(t.tool, t.own), t])).values()];
