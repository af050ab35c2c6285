/**
 * Fits the text model and writes src/mcp/audit/intent/text-model-weights.ts (see ../text-model/fitted.ts).
 * Run: npx vite-node tests/mcp/audit/scripts/fit-text-model.ts [--check] [<config> <threshold>]
 * (--check compares a fresh fit with the checked-in weights instead of writing them; a config and threshold write a
 * candidate's weights instead of the frozen design's, to count the family tests' look-alikes it holds; never commit those.)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeOrCheck } from "./write-or-check.js";
import { cachedExamples } from "../text-model/cache.js";
import { ALWAYS, FOLDS } from "../text-model/examples.js";
import { fittedText } from "../text-model/fitted.js";

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../src/mcp/audit/intent/text-model-weights.ts");
const [config, threshold] = process.argv.slice(2).filter((a) => !a.startsWith("-"));
// A candidate's fit reads the scripts' example cache (the same examples, without recomputing the rules' verdicts), and
// every fold: the material the selection rule (configs.ts) chooses for.
const { text, kept } = config === undefined ? fittedText() : fittedText(cachedExamples([...FOLDS, ...ALWAYS]), { config, threshold: Number(threshold) });
console.log(`${kept} non-zero weights, ${text.length} bytes`);
writeOrCheck(target, text);
