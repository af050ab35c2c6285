import { join } from "node:path";
import type { Writable } from "node:stream";
import { resolveConfigPaths } from "../../config/paths.js";
import { packageRoot } from "../../util/package-root.js";
import { completionCandidates } from "./candidates.js";
import { configHomeNames } from "./names.js";

/**
 * `mcpvm __complete [--] <words…>`: one candidate per line for the last word. Called by the shell
 * scripts on every Tab, so it loads nothing but this folder (bin/mcpvm.js routes here before the
 * CLI is imported), starts no server, and never fails: a problem means no candidates.
 */
export function runComplete(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, stdout: Writable): number {
  const words = argv[0] === "--" ? argv.slice(1) : argv;
  let candidates: string[] = [];
  try {
    candidates = completionCandidates(words.length === 0 ? [""] : words, configHomeNames(resolveConfigPaths(env), () => join(packageRoot(), "plugins")));
  } catch {
    candidates = [];
  }
  if (candidates.length > 0) stdout.write(`${candidates.join("\n")}\n`);
  return 0;
}
