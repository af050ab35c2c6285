import { textViews } from "../../../../src/mcp/audit/normalise.js";
import { LEXICON } from "../../../../src/mcp/audit/intent/lexicon.js";
const t = process.argv[2] ?? "";
const v = textViews(t).folded; console.log(JSON.stringify(v.slice(0, 300)));
for (const src of LEXICON[(process.argv[3] ?? "supply") as keyof typeof LEXICON]) { const m = new RegExp(src, "u").exec(v); if (m) console.log(src.slice(0, 60), "=>", JSON.stringify(m[0])); }
