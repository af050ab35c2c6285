import { describe, expect, it } from "vitest";
import { closestMatches, didYouMean } from "../../src/util/suggest.js";

describe("did you mean", () => {
  it("offers the close name for a typo", () => {
    expect(didYouMean("read_grap", ["read_graph", "create_entities", "search_nodes"])).toBe('; did you mean "read_graph"?');
    expect(closestMatches("rn", ["run", "mcp", "serve"])).toEqual(["run"]);
    expect(closestMatches("comand", ["command", "args", "env", "url"])).toEqual(["command"]);
  });

  it("counts two neighbouring letters typed the wrong way round as one slip, even in a short name", () => {
    expect(closestMatches("/hepl", ["/help", "/exit", "/mcp"])).toEqual(["/help"]);
    expect(closestMatches("mpc", ["mcp", "run"])).toEqual(["mcp"]);
    expect(closestMatches("/mpc", ["/mcp", "/model"])).toEqual(["/mcp"]);
    // A swap of letters that are not neighbours is two slips: too far for a three-letter name.
    expect(closestMatches("pcm", ["mcp"])).toEqual([]);
  });

  it("offers nothing when nothing is close", () => {
    expect(didYouMean("weather", ["memory", "everything", "filesystem"])).toBe("");
  });

  it("ignores case and lists several close names", () => {
    expect(closestMatches("MEMORY", ["memory"])).toEqual(["memory"]);
    expect(didYouMean("lst", ["list", "last", "info"])).toBe('; did you mean "last" or "list"?');
  });
});
