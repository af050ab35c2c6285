import { describe, expect, it } from "vitest";
import { assignFlatNames, flattenToolName, MAX_FLAT_NAME_LENGTH, parseToolRef } from "../../src/gateway/index.js";

describe("flattened tool names", () => {
  it("maps server.tool to server_tool, dots, hyphens and other ASCII to _", () => {
    expect(flattenToolName({ server: "git", tool: "status" })).toBe("git_status");
    expect(flattenToolName({ server: "my-server", tool: "get-sum" })).toBe("my_server_get_sum");
    expect(flattenToolName({ server: "s", tool: "a.b/c d" })).toBe("s_a_b_c_d");
  });

  it("spells non-ASCII characters by code point, so different names stay different", () => {
    expect(flattenToolName({ server: "s", tool: "ünï" })).toBe("s_ufcnuef");
    expect(flattenToolName({ server: "s", tool: "日本" })).toBe("s_u65e5u672c");
  });

  it("shortens long names to the limit with a hash of the whole reference", () => {
    const a = flattenToolName({ server: "s", tool: "x".repeat(100) });
    const b = flattenToolName({ server: "s", tool: `${"x".repeat(99)}y` });
    expect(a).toHaveLength(MAX_FLAT_NAME_LENGTH);
    expect(a).not.toBe(b);
    expect(a).toBe(flattenToolName({ server: "s", tool: "x".repeat(100) }));
  });

  it("resolves collisions deterministically, whatever the input order, and reports them", () => {
    const refs = [
      { server: "s", tool: "my_tool" },
      { server: "s", tool: "my-tool" },
      { server: "s", tool: "my.tool" },
      { server: "git", tool: "status" },
    ];
    const forward = assignFlatNames(refs);
    const backward = assignFlatNames([...refs].reverse());
    expect([...forward.byRef]).toEqual([...backward.byRef].sort((a, b) => [...forward.byRef.keys()].indexOf(a[0]) - [...forward.byRef.keys()].indexOf(b[0])));
    expect(forward.byRef.get("s.my-tool")).toBe("s_my_tool");
    expect(forward.byRef.get("s.my.tool")).toBe("s_my_tool_2");
    expect(forward.byRef.get("s.my_tool")).toBe("s_my_tool_3");
    expect(forward.byRef.get("git.status")).toBe("git_status");
    expect(forward.collisions).toEqual([{ name: "s_my_tool", refs: ["s.my-tool", "s.my.tool", "s.my_tool"], assigned: ["s_my_tool", "s_my_tool_2", "s_my_tool_3"] }]);
    expect(forward.byName.get("s_my_tool_2")).toEqual({ server: "s", tool: "my.tool" });
  });

  it("never takes a reserved name (the gateway's own tools)", () => {
    const { byRef, collisions } = assignFlatNames([{ server: "run", tool: "mcp_script" }], ["run_mcp_script"]);
    expect(byRef.get("run.mcp_script")).toBe("run_mcp_script_2");
    expect(collisions).toHaveLength(1);
  });

  it("a suffixed name never steals another tool's plain name", () => {
    const { byRef } = assignFlatNames([
      { server: "a", tool: "b" },
      { server: "a", tool: "b-" },
      { server: "a", tool: "b_2" },
    ]);
    expect(byRef.get("a.b_2")).toBe("a_b_2");
    expect(new Set(byRef.values()).size).toBe(3);
  });

  it("parses server.tool references; tool names may contain dots", () => {
    expect(parseToolRef("git.status")).toEqual({ server: "git", tool: "status" });
    expect(parseToolRef("s.my.tool")).toEqual({ server: "s", tool: "my.tool" });
    expect(parseToolRef("nodot")).toBeUndefined();
    expect(parseToolRef(".x")).toBeUndefined();
    expect(parseToolRef("x.")).toBeUndefined();
  });
});
