import { describe, expect, it } from "vitest";
import { queryTerms, rankTools, tokenise } from "../../src/mcp/search/index.js";

const tools = [
  { server: "github", name: "list_issues", description: "List issues in a GitHub repository." },
  { server: "github", name: "create_issue", description: "Create a new issue in a repository." },
  { server: "memory", name: "read_graph", description: "Read the entire knowledge graph." },
  { server: "memory", name: "create_entities", description: "Create multiple new entities in the knowledge graph." },
  { server: "fs", name: "readFile", description: "Read the complete contents of a file." },
];

describe("tool search ranking", () => {
  it("splits camelCase, snake_case and kebab-case names into words", () => {
    expect(tokenise("readFile")).toEqual(["read", "file"]);
    expect(tokenise("list_issues get-sum HTTPServer")).toEqual(["list", "issues", "get", "sum", "http", "server"]);
    // Stems: "files" and "file" meet (as do "approved" and "approve").
    expect(queryTerms("the files of a repository")).toEqual(queryTerms("file repositories"));
    expect(queryTerms("approved")).toEqual(queryTerms("approve"));
  });

  it("ranks name matches above description matches, and covers every query word", () => {
    const ranked = rankTools("create issue", tools);
    expect(ranked[0]?.tool.name).toBe("create_issue");
    expect(ranked.map((r) => `${r.tool.server}.${r.tool.name}`).sort()).toEqual(["github.create_issue", "github.list_issues", "memory.create_entities"]);
    expect(ranked[0]?.matched).toEqual(["create", "issue"]);
  });

  it("uses the server name as a strong hint and matches word prefixes", () => {
    expect(rankTools("memory", tools).map((r) => r.tool.name)).toEqual(["create_entities", "read_graph"]);
    expect(rankTools("know", tools).map((r) => r.tool.name).sort()).toEqual(["create_entities", "read_graph"]);
  });

  it("puts an exact name first, respects the limit, and leaves out tools matching nothing", () => {
    expect(rankTools("readFile", tools)[0]?.tool.name).toBe("readFile");
    expect(rankTools("graph", tools, { limit: 1 })).toHaveLength(1);
    expect(rankTools("weather forecast", tools)).toEqual([]);
    expect(rankTools("   ", tools)).toEqual([]);
  });
});
