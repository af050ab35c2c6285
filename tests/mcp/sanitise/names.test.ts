import { describe, it, expect } from "vitest";
import {
  assignToolNames,
  formatPropertyAccess,
  formatPropertyKey,
  isSafeIdentifier,
  sanitizeToolName,
  serverToolsKey,
  RESERVED_JS_NAMES,
} from "../../../src/mcp/sanitise/index.js";

describe("sanitizeToolName: an MCP tool name becomes a valid, non-reserved JS identifier", () => {
  it("keeps names that already are identifiers", () => {
    expect(sanitizeToolName("list_issues")).toBe("list_issues");
    expect(sanitizeToolName("getWeather")).toBe("getWeather");
    expect(sanitizeToolName("_private")).toBe("_private");
  });

  it("maps dashes, dots, spaces, slashes and colons to one underscore per run", () => {
    expect(sanitizeToolName("get-weather")).toBe("get_weather");
    expect(sanitizeToolName("api.v2.search")).toBe("api_v2_search");
    expect(sanitizeToolName("my tool")).toBe("my_tool");
    expect(sanitizeToolName("repos/list")).toBe("repos_list");
    expect(sanitizeToolName("a - b")).toBe("a_b");
    expect(sanitizeToolName("ns:tool")).toBe("ns_tool");
  });

  it("never produces $, so module helpers such as $batch cannot be shadowed", () => {
    expect(sanitizeToolName("$batch")).toBe("_batch");
    expect(sanitizeToolName("price$")).toBe("price_");
  });

  it("prefixes a leading digit with an underscore", () => {
    expect(sanitizeToolName("3d-render")).toBe("_3d_render");
  });

  it("appends an underscore to keywords, strict-mode reserved words and Object.prototype names", () => {
    expect(sanitizeToolName("delete")).toBe("delete_");
    expect(sanitizeToolName("class")).toBe("class_");
    expect(sanitizeToolName("await")).toBe("await_");
    expect(sanitizeToolName("let")).toBe("let_");
    expect(sanitizeToolName("implements")).toBe("implements_");
    expect(sanitizeToolName("__proto__")).toBe("__proto___");
    expect(sanitizeToolName("constructor")).toBe("constructor_");
    expect(sanitizeToolName("prototype")).toBe("prototype_");
    expect(sanitizeToolName("then")).toBe("then_");
    expect(sanitizeToolName("toString")).toBe("toString_");
    expect(sanitizeToolName("hasOwnProperty")).toBe("hasOwnProperty_");
    expect(sanitizeToolName("toJSON")).toBe("toJSON_");
    expect(sanitizeToolName("eval")).toBe("eval_");
  });

  it("is case-sensitive about reserved names", () => {
    expect(sanitizeToolName("Delete")).toBe("Delete");
    expect(sanitizeToolName("Then")).toBe("Then");
  });

  it("drops accents and spells other non-ASCII characters as u<hex>, the same way every time", () => {
    expect(sanitizeToolName("résumé")).toBe("resume");
    expect(sanitizeToolName("检索")).toBe("u68c0_u7d22");
    expect(sanitizeToolName("get检索")).toBe("get_u68c0_u7d22");
    expect(sanitizeToolName("检索-all")).toBe("u68c0_u7d22_all");
    expect(sanitizeToolName("emoji😀")).toBe("emoji_u1f600");
    expect(sanitizeToolName("ﬁle")).toBe("file");
  });

  it("turns an empty or all-symbol name into a lone underscore", () => {
    expect(sanitizeToolName("")).toBe("_");
    expect(sanitizeToolName("@#!")).toBe("_");
  });

  it("always yields a safe identifier", () => {
    const awkward = ["", "1", "a-b", "then", "__proto__", "检", "x.y.z", " ", "$", "get weather!", "valueOf", "yield", "null"];
    for (const name of awkward) expect(isSafeIdentifier(sanitizeToolName(name)), name).toBe(true);
  });

  it("covers every keyword and strict-mode reserved word", () => {
    for (const word of ["if", "for", "while", "function", "return", "var", "const", "enum", "static", "private", "package", "interface", "yield", "arguments"]) {
      expect(RESERVED_JS_NAMES.has(word), word).toBe(true);
    }
  });
});

describe("assignToolNames: a server's whole tool list, collisions resolved deterministically", () => {
  it("maps jsName -> original for routing and original -> jsName for display", () => {
    const map = assignToolNames(["get-issue", "list_issues"]);
    expect(map.toOriginal.get("get_issue")).toBe("get-issue");
    expect(map.toOriginal.get("list_issues")).toBe("list_issues");
    expect(map.toJs.get("get-issue")).toBe("get_issue");
    expect(map.renamed).toEqual([{ original: "get-issue", jsName: "get_issue" }]);
    expect(map.collisions).toEqual([]);
  });

  it("lets a name that is already the identifier keep it; the others get _2, _3 in sorted order", () => {
    const map = assignToolNames(["get.item", "get_item", "get-item"]);
    expect(Object.fromEntries(map.toJs)).toEqual({ "get-item": "get_item_2", "get.item": "get_item_3", get_item: "get_item" });
    expect(map.collisions).toEqual([
      {
        base: "get_item",
        assignments: [
          { original: "get-item", jsName: "get_item_2" },
          { original: "get.item", jsName: "get_item_3" },
          { original: "get_item", jsName: "get_item" },
        ],
      },
    ]);
  });

  it("gives the first sorted original the base name when none of the group is already valid", () => {
    const map = assignToolNames(["a.b", "a-b"]);
    expect(Object.fromEntries(map.toJs)).toEqual({ "a-b": "a_b", "a.b": "a_b_2" });
  });

  it("never hands out a suffixed name that another tool sanitises to", () => {
    const map = assignToolNames(["a-b", "a.b", "a_b_2"]);
    expect(Object.fromEntries(map.toJs)).toEqual({ "a-b": "a_b", "a.b": "a_b_3", a_b_2: "a_b_2" });
  });

  it("gives the same answer whatever order the server lists its tools in", () => {
    const names = ["x-y", "x.y", "x y", "x_y", "then", "then_", "检", "u68c0"];
    const forward = assignToolNames(names);
    const backward = assignToolNames([...names].reverse());
    expect(Object.fromEntries(backward.toJs)).toEqual(Object.fromEntries(forward.toJs));
    expect(backward.collisions).toEqual(forward.collisions);
    expect(forward.toOriginal.size).toBe(names.length);
  });

  it("reports names the server listed twice and keeps them once", () => {
    const map = assignToolNames(["echo", "add", "echo"]);
    expect(map.duplicates).toEqual(["echo"]);
    expect([...map.toOriginal.keys()]).toEqual(["add", "echo"]);
  });
});

describe("property keys for server names and tool names", () => {
  it("writes identifiers bare and everything else quoted", () => {
    expect(formatPropertyKey("github")).toBe("github");
    expect(formatPropertyKey("my-server")).toBe('"my-server"');
    expect(formatPropertyKey("delete")).toBe('"delete"');
    expect(formatPropertyAccess("tools", "github")).toBe("tools.github");
    expect(formatPropertyAccess("tools", "my-server")).toBe('tools["my-server"]');
  });

  it("uses the configured server name itself as the key of the tools global", () => {
    expect(serverToolsKey("github")).toBe("github");
    expect(serverToolsKey("my-server")).toBe("my-server");
  });

  it("refuses a server name that could not have come from a valid config", () => {
    for (const bad of ["then", "constructor", "My Server", "__proto__", ""]) {
      expect(() => serverToolsKey(bad), bad).toThrow(expect.objectContaining({ code: "MCP_INVALID_SERVER_NAME" }));
    }
  });
});
