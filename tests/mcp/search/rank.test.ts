import { getEncoding } from "js-tiktoken";
import { describe, expect, it } from "vitest";
import { describeLiterals, estimateTokens, fitToBudget, rankTools, stem, synonymsOf } from "../../../src/mcp/search/index.js";

const tools = [
  { server: "github", name: "create_issue", description: "Create a new issue in a GitHub repository.", parameters: ["owner", "repo", "title", "body"] },
  { server: "github", name: "list_issues", description: "List issues in a GitHub repository with filtering options.", parameters: ["owner", "repo", "state"] },
  { server: "fs", name: "delete_file", description: "Delete a file.", parameters: ["path"] },
  { server: "fs", name: "create_directory", description: "Create a new directory or ensure a directory exists.", parameters: ["path"] },
  { server: "web", name: "fetch", description: "Fetches a URL from the internet and extracts its contents as markdown.", parameters: ["url", "max_length"] },
  { server: "tz", name: "convert_time", description: "Convert time between zones.", parameters: ["source_timezone", "target_timezone"], parameterText: "Source IANA timezone name" },
];
const names = (query: string, limit = 3) => rankTools(query, tools, { limit }).map((r) => `${r.tool.server}.${r.tool.name}`);

describe("BM25F tool ranking", () => {
  it("stems plurals, -ed, -ing and a final e so forms of a word meet", () => {
    expect(stem("files")).toBe(stem("file"));
    expect(stem("approved")).toBe(stem("approve"));
    expect(stem("entities")).toBe(stem("entity"));
    expect(stem("staging")).toBe(stem("stage"));
    expect(stem("status")).toBe("status");
  });

  it("finds a tool by a synonym of its words, below the word itself", () => {
    expect(names("remove a file")[0]).toBe("fs.delete_file");
    expect(names("make a folder")[0]).toBe("fs.create_directory");
    expect(synonymsOf("repo")).toContainEqual(["repository"]);
    // A synonym phrase never brings a stop word ("go to" → "go", not "to").
    expect(synonymsOf("navigat").flat()).not.toContain("to");
  });

  it("reads a URL or a path in a query as the kind of argument, not as words", () => {
    expect(describeLiterals("get https://example.com/a?b=1 now")).toBe("get  url  now");
    expect(describeLiterals("rename old.txt to ./docs/new.txt")).toContain("file path");
    expect(names("get https://example.com", 1)).toEqual(["web.fetch"]);
  });

  it("uses parameter names and their descriptions", () => {
    expect(names("which IANA timezone", 1)).toEqual(["tz.convert_time"]);
    expect(names("issues by owner and state", 1)).toEqual(["github.list_issues"]);
  });

  it("puts a whole tool name first and says which query words matched, as typed", () => {
    expect(names("github.list_issues", 1)).toEqual(["github.list_issues"]);
    expect(names("create_directory", 1)).toEqual(["fs.create_directory"]);
    expect(rankTools("Creating issues", tools, { limit: 1 })[0]?.matched).toEqual(["creating", "issues"]);
  });

  it("orders ties the same way every time and leaves out what matches nothing", () => {
    const twins = [
      { server: "b", name: "search", description: "Search items." },
      { server: "a", name: "search", description: "Search items." },
    ];
    expect(rankTools("search", twins).map((r) => r.tool.server)).toEqual(["a", "b"]);
    expect(rankTools("weather forecast", tools)).toEqual([]);
    expect(rankTools("", tools)).toEqual([]);
  });
});

describe("answer budget", () => {
  it("estimates at least the real o200k_base count for JSON, code and other scripts", () => {
    const encoder = getEncoding("o200k_base");
    const samples = [
      JSON.stringify({ tool: "github.create_issue", signature: "create_issue(input: { owner: string; repo: string; title: string }): unknown", description: "Create a new issue." }),
      "日本語のツールの説明です。ファイルを読み込みます。",
      "Ünïcödé façade — naïve café",
    ];
    for (const text of samples) expect(estimateTokens(text)).toBeGreaterThanOrEqual(encoder.encode(text).length);
  });

  it("keeps the longest head that fits and counts the rest", () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ i, text: "x".repeat(300) }));
    const { kept, dropped } = fitToBudget(items, 600);
    expect(kept.map((k) => k.i)).toEqual([0, 1, 2, 3, 4]);
    expect(dropped).toBe(15);
    expect(fitToBudget(items, 100_000).dropped).toBe(0);
  });
});
