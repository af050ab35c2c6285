import { describe, expect, it } from "vitest";
import { createHostPathStripper } from "../../src/logging/host-paths.js";

describe("createHostPathStripper", () => {
  const strip = createHostPathStripper({ "<cwd>": "/home/alice/project", "~": "/home/alice" });

  it("replaces known roots, most specific first", () => {
    expect(strip("cannot open /home/alice/project/src/a.ts")).toBe("cannot open <cwd>/src/a.ts");
    expect(strip("config at /home/alice/.mcpvm/config.json")).toBe("config at ~/.mcpvm/config.json");
  });

  it("replaces a root only where a path component ends, not inside a longer name", () => {
    // Seen in the field: cwd /tmp/ft made "/tmp/ft-fsroot/nope.txt" read "<cwd>-fsroot/nope.txt",
    // a folder that is not under the cwd at all.
    expect(strip("open '/home/alice/project-data/nope.txt'")).toBe("open '~/project-data/nope.txt'");
    expect(strip("open '/home/alice2/notes.txt'")).toBe("open '…/notes.txt'");
    expect(strip("cwd is /home/alice/project.")).toBe("cwd is <cwd>.");
    expect(strip("in /home/alice/project\\src\\a.ts")).toBe("in <cwd>\\src\\a.ts");
    expect(strip("copy of /srv/home/alice/project/x.txt")).toBe("copy of …/x.txt");
    expect(createHostPathStripper({ "<tmp>": "/var/tmp/" })("wrote /var/tmp/run-1/out.json")).toBe("wrote <tmp>/run-1/out.json");
  });

  it("keeps only the file name of other absolute paths", () => {
    expect(strip("ENOENT: no such file, open '/srv/data/secret/plan.txt'")).toBe("ENOENT: no such file, open '…/plan.txt'");
    expect(strip("at C:\\Users\\bob\\app\\index.js")).toBe("at …/index.js");
  });

  it("leaves URLs and relative paths alone", () => {
    expect(strip("see https://example.test/a/b/c and ./src/x.ts")).toBe("see https://example.test/a/b/c and ./src/x.ts");
  });
});
