import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The folder holding mcpvm's package.json. Code runs both from src/ (tests) and dist/src/ (the
 * built CLI), so paths to plugins/ and deps/ are found from here rather than by relative depth.
 */
export function packageRoot(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "package.json");
    if (existsSync(candidate)) {
      const pkg = JSON.parse(readFileSync(candidate, "utf8")) as { name?: unknown };
      if (pkg.name === "mcpvm") return (cached = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error("mcpvm: cannot find the package root (package.json named mcpvm)");
    dir = parent;
  }
}

/**
 * True when this code is the compiled build (dist/src from tsc, or the CLI bundle in dist/cli), false
 * under the TypeScript sources (vite-node, vitest), whose module URLs end in .ts.
 */
export function isCompiledBuild(): boolean {
  return !/\.[mc]?ts$/.test(fileURLToPath(import.meta.url));
}
