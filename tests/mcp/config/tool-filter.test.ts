import { describe, it, expect } from "vitest";
import { filterTools } from "../../../src/mcp/config/index.js";

const tools = ["read_file", "write_file", "delete_file", "list_directory"].map((name) => ({ name }));
const names = (list: readonly { name: string }[]) => list.map((tool) => tool.name);

describe("allowTools / denyTools", () => {
  it("shows every tool when neither is set", () => {
    const result = filterTools(tools, {});
    expect(names(result.tools)).toEqual(["read_file", "write_file", "delete_file", "list_directory"]);
    expect(result.hidden).toEqual([]);
  });

  it("allow set -> only those, in the server's order", () => {
    const result = filterTools(tools, { allowTools: ["list_directory", "read_file"] });
    expect(names(result.tools)).toEqual(["read_file", "list_directory"]);
    expect(result.hidden).toEqual(["write_file", "delete_file"]);
  });

  it("deny only -> all but those", () => {
    expect(names(filterTools(tools, { denyTools: ["delete_file"] }).tools)).toEqual(["read_file", "write_file", "list_directory"]);
  });

  it("both -> allow first, then deny removes", () => {
    expect(names(filterTools(tools, { allowTools: ["read_file", "delete_file"], denyTools: ["delete_file"] }).tools)).toEqual(["read_file"]);
  });

  it("an empty allow list shows nothing (an explicit allow set of none)", () => {
    expect(names(filterTools(tools, { allowTools: [] }).tools)).toEqual([]);
  });

  it("matches original MCP names exactly, not sanitised ones", () => {
    expect(names(filterTools([{ name: "get-issue" }], { allowTools: ["get_issue"] }).tools)).toEqual([]);
  });

  it("reports configured names that match no tool, for `info`", () => {
    const result = filterTools(tools, { allowTools: ["read_file", "read_fiel"], denyTools: ["rm_rf"] });
    expect(result.unmatchedAllow).toEqual(["read_fiel"]);
    expect(result.unmatchedDeny).toEqual(["rm_rf"]);
  });

  it("keeps the tool objects it is given", () => {
    const rich = [{ name: "a", description: "first" }];
    expect(filterTools(rich, {}).tools[0]).toBe(rich[0]);
  });
});
