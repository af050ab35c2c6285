import { describe, expect, it } from "vitest";
import { createHostPathStripper } from "../../src/logging/host-paths.js";

describe("createHostPathStripper", () => {
  const strip = createHostPathStripper({ "<cwd>": "/home/alice/project", "~": "/home/alice" });

  it("replaces known roots, most specific first", () => {
    expect(strip("cannot open /home/alice/project/src/a.ts")).toBe("cannot open <cwd>/src/a.ts");
    expect(strip("config at /home/alice/.mcpvm/config.json")).toBe("config at ~/.mcpvm/config.json");
  });

  it("keeps only the file name of other absolute paths", () => {
    expect(strip("ENOENT: no such file, open '/srv/data/secret/plan.txt'")).toBe("ENOENT: no such file, open '…/plan.txt'");
    expect(strip("at C:\\Users\\bob\\app\\index.js")).toBe("at …/index.js");
  });

  it("leaves URLs and relative paths alone", () => {
    expect(strip("see https://example.test/a/b/c and ./src/x.ts")).toBe("see https://example.test/a/b/c and ./src/x.ts");
  });
});
