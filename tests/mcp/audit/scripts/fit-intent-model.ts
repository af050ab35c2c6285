/**
 * Fits the intent scoring model and writes src/mcp/audit/intent/model-weights.ts (see ../intent-model-fit.ts).
 * Run: npx vite-node tests/mcp/audit/scripts/fit-intent-model.ts [--check]
 * (--check compares a fresh fit with the checked-in weights instead of writing them.)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeOrCheck } from "./write-or-check.js";
import { probabilityOf } from "../../../../src/mcp/audit/intent/model.js";
import { fitted } from "../intent-model-fit.js";

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../src/mcp/audit/intent/model-weights.ts");
const { text, threshold, rows, model } = fitted();
const flagged = (y: 0 | 1) => rows.filter((r) => r.y === y && probabilityOf(r.x, model.weights, model.bias) >= threshold).length;
console.log(`examples: ${rows.length} (${rows.filter((r) => r.y === 1).length} attacks); in-sample, the model alone: ${flagged(1)} attacks, ${flagged(0)} benign at p >= ${threshold}`);
// Read by tests/mcp/audit/intent-model.test.ts: the threshold sits above every benign training tool the rules let through.
const benignLetThrough = rows.filter((r) => r.y === 0 && r.held !== true);
const facts = { threshold, attacks: rows.filter((r) => r.y === 1).length, benignBelowThreshold: benignLetThrough.every((r) => probabilityOf(r.x, model.weights, model.bias) < threshold) };
console.log(`facts ${JSON.stringify(facts)}`);
writeOrCheck(target, text);
