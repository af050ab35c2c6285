import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { loadTokenizer, TOKEN_ENCODING } from "../../src/agent/llm/tokenizer.js";
import { ROOT } from "./repl-driver.js";
import { figuresTable, measureTokenFigures, type TokenFigures } from "./token-figures.js";

const START = "<!-- token-figures:start -->";
const END = "<!-- token-figures:end -->";

/** The rows of the documented table, as numbers: [tokens…] and [percent…] per row, in order. */
function documentedRows(usage: string): Array<{ label: string; tokens: number[]; percents: number[] }> {
  const from = usage.indexOf(START);
  const to = usage.indexOf(END);
  expect(from, `docs/USAGE.md has no ${START} … ${END} block`).toBeGreaterThan(-1);
  const rows = usage
    .slice(from + START.length, to)
    .split("\n")
    .filter((line) => line.startsWith("|") && !line.startsWith("|---"))
    .slice(1);
  return rows.map((row) => {
    const cells = row.split("|").slice(1, -1).map((c) => c.trim());
    const label = cells[0] ?? "";
    const values = cells.slice(1);
    return {
      label,
      tokens: values.filter((v) => /^[\d,]+$/.test(v)).map((v) => Number(v.replace(/,/g, ""))),
      percents: values.flatMap((v) => [...v.matchAll(/([\d.]+)%/g)].map((m) => Number(m[1]))),
    };
  });
}

function measuredRows(figures: TokenFigures): Array<{ tokens: number[]; percents: number[] }> {
  return figures.scenarios.map((s) => {
    const shares = Object.values(s.withOneModuleInfoShares);
    return {
      tokens: [s.systemTokens, s.toolDefinitionTokens, s.firstRequestTokens, ...(s.toolsListTokens === undefined ? [] : [s.toolsListTokens])],
      percents: [
        ...(s.firstRequestShare === undefined ? [] : [s.firstRequestShare * 100]),
        ...(shares.length === 0 ? [] : shares.length === 1 ? [(shares[0] as number) * 100] : [Math.min(...shares) * 100, Math.max(...shares) * 100]),
      ],
    };
  });
}

describe("the tokenizer /tokens counts with", () => {
  it("is o200k_base, loaded lazily, and counts exactly as the reference encoder does", async () => {
    const tokenizer = await loadTokenizer();
    expect(tokenizer.encoding).toBe(TOKEN_ENCODING);
    const reference = getEncoding("o200k_base");
    const samples = ['{"type":"function","function":{"name":"execute_javascript"}}', "Hello, world! Grüße, 日本語.", "x".repeat(1000)];
    for (const text of samples) expect(tokenizer.count(text)).toBe(reference.encode(text).length);
    // A real tokenizer, not characters / 4: "hello world" is two tokens.
    expect(tokenizer.count("hello world")).toBe(2);
    // Special-token text is counted as text, never thrown on.
    expect(tokenizer.count("<|endoftext|>")).toBeGreaterThan(1);
  });
});

describe("the token figures in docs/USAGE.md", () => {
  it("match what the model is sent, measured with o200k_base for 0, 1 and 5 servers (3 tool definitions included)", async () => {
    const figures = await measureTokenFigures();
    const usage = await readFile(join(ROOT, "docs/USAGE.md"), "utf8");
    const documented = documentedRows(usage);
    const measured = measuredRows(figures);
    const hint = `docs/USAGE.md is out of date; the measured table is:\n${figuresTable(figures)}`;
    expect(documented.map((r) => r.label), hint).toEqual(figuresTable(figures).split("\n").slice(2).map((row) => row.split("|")[1]?.trim()));
    expect(figures.scenarios.every((s) => s.toolDefinitionCount === 3)).toBe(true);
    measured.forEach((row, i) => {
      const doc = documented[i] as { tokens: number[]; percents: number[] };
      expect(doc.tokens.length, hint).toBe(row.tokens.length);
      expect(doc.percents.length, hint).toBe(row.percents.length);
      // Small edits to a tool description must not fail this; a change the reader would notice must.
      row.tokens.forEach((value, j) => expect(Math.abs((doc.tokens[j] as number) - value), `${hint}\n(row ${i + 1}, tokens column ${j + 1})`).toBeLessThanOrEqual(Math.max(15, value * 0.03)));
      row.percents.forEach((value, j) => expect(Math.abs((doc.percents[j] as number) - value), `${hint}\n(row ${i + 1}, percent ${j + 1})`).toBeLessThanOrEqual(1));
    });
  }, 60_000);
});

describe("issue 15's goal for the agent", () => {
  it("system message + tool definitions + one module_info stays within 8 % of the five servers' plain tools/list, for each server", async () => {
    const figures = await measureTokenFigures();
    const five = figures.scenarios.find((s) => s.servers.length === 5);
    expect(five).toBeDefined();
    const shares = (five as TokenFigures["scenarios"][number]).withOneModuleInfoShares;
    expect(Object.keys(shares)).toHaveLength(5);
    for (const [server, share] of Object.entries(shares)) expect(share, `${server}: ${(share * 100).toFixed(1)} %`).toBeLessThanOrEqual(0.08);
  }, 60_000);
});
