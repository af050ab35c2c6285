/**
 * Fits the text model and writes src/mcp/audit/intent/text-model-weights.ts (see ../text-model/fitted.ts).
 * Run: npx vite-node tests/mcp/audit/scripts/fit-text-model.ts [--check]
 * (--check compares a fresh fit with the checked-in weights instead of writing them.)
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writeOrCheck } from "./write-or-check.js";
import { fittedText } from "../text-model/fitted.js";

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../src/mcp/audit/intent/text-model-weights.ts");
const { text, kept } = fittedText();
console.log(`${kept} non-zero weights, ${text.length} bytes`);
writeOrCheck(target, text);
