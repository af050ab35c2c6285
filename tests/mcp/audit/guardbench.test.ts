import { describe, expect, it } from "vitest";
import { auditServer, type AuditedTool } from "../../../src/mcp/audit/index.js";
import { auditCase, loadCases, loadListings, type CaseKind, type CaseOutcome, type CorpusCase } from "./guardbench-harness.js";

interface Row {
  readonly c: CorpusCase;
  readonly outcome: CaseOutcome;
}

function pct(n: number, d: number): string {
  return d === 0 ? "—" : `${((100 * n) / d).toFixed(1)}%`;
}

function flagged(row: Row): boolean {
  return row.outcome.verdict === "warn" || row.outcome.verdict === "block";
}

describe("auditor measured on mcp-guardbench and real server listings", () => {
  it("flags every attack at warn or block, blocks no benign definition and warns on at most 5% of them", () => {
    const rows: Row[] = loadCases().map((c) => ({ c, outcome: auditCase(c) }));
    const attacks = rows.filter((r) => r.c.bucket !== "benign");
    const benign = rows.filter((r) => r.c.bucket === "benign");

    // Recall per attack family, tool-definition cases and content cases reported apart.
    const lines: string[] = ["", "| kind | family (category) | cases | flagged (warn/block) | blocked | recall |", "|---|---|---|---|---|---|"];
    const byKey = new Map<string, Row[]>();
    for (const r of attacks) {
      const family = r.c.bucket === "warn" ? `${r.c.category ?? "?"} (retrieved data)` : (r.c.category ?? "?");
      const key = `${r.outcome.kind}\u0000${family}`;
      byKey.set(key, [...(byKey.get(key) ?? []), r]);
    }
    for (const [key, group] of [...byKey.entries()].sort()) {
      const [kind, family] = key.split("\u0000");
      const hit = group.filter(flagged).length;
      const blocked = group.filter((r) => r.outcome.verdict === "block").length;
      lines.push(`| ${kind} | ${family} | ${group.length} | ${hit} | ${blocked} | ${pct(hit, group.length)} |`);
    }
    for (const kind of ["definition", "content"] as const satisfies readonly CaseKind[]) {
      const group = attacks.filter((r) => r.outcome.kind === kind);
      lines.push(`| ${kind} | **all** | ${group.length} | ${group.filter(flagged).length} | ${group.filter((r) => r.outcome.verdict === "block").length} | ${pct(group.filter(flagged).length, group.length)} |`);
    }
    lines.push(`| both | **overall** | ${attacks.length} | ${attacks.filter(flagged).length} | ${attacks.filter((r) => r.outcome.verdict === "block").length} | ${pct(attacks.filter(flagged).length, attacks.length)} |`);
    const exact = attacks.filter((r) => r.outcome.verdict === r.c.expected.action).length;
    const over = attacks.filter((r) => r.c.expected.action === "warn" && r.outcome.verdict === "block").length;
    const under = attacks.filter((r) => r.c.expected.action === "block" && r.outcome.verdict === "warn").length;
    lines.push("", `Corpus severity matched exactly on ${exact}/${attacks.length} attack cases; blocked where it expects warn: ${over}; warned where it expects block: ${under}.`);

    // Benign tool definitions: the real servers' listings (with each other as configured neighbours) plus the corpus's benign listings.
    const listings = loadListings();
    const neighbours = Object.entries(listings).map(([name, tools]) => ({ name, toolNames: tools.map((t: AuditedTool) => t.name) }));
    const benignTools: Array<{ source: string; tool: string; verdict: string }> = [];
    for (const [server, tools] of Object.entries(listings)) {
      const report = auditServer({ serverName: server, tools }, { otherServers: neighbours.filter((n) => n.name !== server) });
      for (const tool of tools) {
        const own = report.findings.filter((f) => f.location.tool === tool.name);
        const verdict = own.some((f) => f.severity === "block") ? "block" : own.some((f) => f.severity === "warn") ? "warn" : "pass";
        benignTools.push({ source: `listing:${server}`, tool: tool.name, verdict });
      }
    }
    for (const r of benign.filter((b) => b.outcome.kind === "definition")) {
      for (const t of r.outcome.tools) benignTools.push({ source: `corpus:${r.c.id}`, tool: t.name, verdict: t.verdict });
    }
    const benignContent = benign.filter((b) => b.outcome.kind === "content");
    const defBlocked = benignTools.filter((t) => t.verdict === "block");
    const defWarned = benignTools.filter((t) => t.verdict === "warn");
    const contentBlocked = benignContent.filter((r) => r.outcome.verdict === "block");
    const contentWarned = benignContent.filter((r) => r.outcome.verdict === "warn");
    lines.push(
      "",
      "| benign set | items | blocked | warned | blocked rate | warned rate |",
      "|---|---|---|---|---|---|",
      `| tool definitions (5 real servers + corpus listings) | ${benignTools.length} | ${defBlocked.length} | ${defWarned.length} | ${pct(defBlocked.length, benignTools.length)} | ${pct(defWarned.length, benignTools.length)} |`,
      `| content cases (results, resources, arguments) | ${benignContent.length} | ${contentBlocked.length} | ${contentWarned.length} | ${pct(contentBlocked.length, benignContent.length)} | ${pct(contentWarned.length, benignContent.length)} |`,
    );
    console.log(lines.join("\n"));

    const missed = attacks.filter((r) => !flagged(r)).map((r) => r.c.id);
    expect(missed, "attack cases below warn").toEqual([]);
    expect(defBlocked, "benign tool definitions blocked").toEqual([]);
    expect(contentBlocked.map((r) => r.c.id), "benign content blocked").toEqual([]);
    expect(defWarned.length / benignTools.length).toBeLessThanOrEqual(0.05);
    // The corpus is what it says it is: if this count changes, the table above describes a different corpus.
    expect(attacks.length).toBe(37);
    expect(benignTools.length).toBeGreaterThanOrEqual(63);
  });
});
