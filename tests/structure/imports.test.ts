import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = resolve(import.meta.dirname, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith(".ts") ? [join(dir, entry.name)] : [],
  );
}

/** Every relative import in src, as [importing folder, imported folder] under src. */
function importArrows(): { from: string; to: string; file: string }[] {
  const arrows: { from: string; to: string; file: string }[] = [];
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+)["']/g)) {
      const target = resolve(dirname(file), match[1] as string);
      if (!target.startsWith(SRC)) continue;
      arrows.push({ from: relative(SRC, file), to: relative(SRC, target), file: relative(SRC, file) });
    }
  }
  return arrows;
}

const top = (path: string) => path.split("/")[0];

describe("imports run one way", () => {
  it("nothing outside src/cli imports src/cli (the cli is the top of the house)", () => {
    const upward = importArrows().filter((a) => top(a.to) === "cli" && top(a.from) !== "cli");
    expect(upward.map((a) => `${a.file} -> ${a.to}`)).toEqual([]);
  });

  it("util, logging and terminal never import the config, mcp, agent or gateway layers", () => {
    const low = new Set(["util", "logging"]);
    const high = new Set(["config", "mcp", "agent", "gateway", "cli", "host", "plugin-system"]);
    const upward = importArrows().filter((a) => low.has(top(a.from) ?? "") && high.has(top(a.to) ?? ""));
    expect(upward.map((a) => `${a.file} -> ${a.to}`)).toEqual([]);
  });

  it("the check sees real arrows (it can fail)", () => {
    expect(importArrows().some((a) => top(a.from) === "cli" && top(a.to) === "terminal")).toBe(true);
  });
});
