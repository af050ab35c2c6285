/**
 * The scripts' example cache: each set's examples (with the rules' verdicts, which take most of the time to compute)
 * kept in a file of its own under the system's temp directory, so adding a set to the material costs only that set.
 * Delete the directory when the rules change.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setExamples, type TextExample, type TextSetName } from "./examples.js";

export const EXAMPLE_CACHE = path.join(tmpdir(), "mcpvm-text-model-examples");

export function cachedExamples(names: readonly TextSetName[]): TextExample[] {
  mkdirSync(EXAMPLE_CACHE, { recursive: true });
  return names.flatMap((name) => {
    const file = path.join(EXAMPLE_CACHE, `${name}.json`);
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as TextExample[];
    const set = setExamples(name);
    writeFileSync(file, JSON.stringify(set));
    return set;
  });
}
