/**
 * Fits the text model and writes tests/mcp/audit/text-model/weights.ts (see ../text-model/fitted.ts).
 * Run: npx vite-node tests/mcp/audit/scripts/fit-text-model.ts [--check]
 * (--check compares a fresh fit with the checked-in weights instead of writing them.)
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fittedText } from "../text-model/fitted.js";

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../text-model/weights.ts");
const { text, kept } = fittedText();
console.log(`${kept} non-zero weights, ${text.length} bytes`);
if (process.argv.includes("--check")) {
  const same = readFileSync(target, "utf8") === text;
  console.log(same ? "checked-in weights match a fresh fit" : "checked-in weights differ from a fresh fit");
  process.exitCode = same ? 0 : 1;
} else {
  writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
