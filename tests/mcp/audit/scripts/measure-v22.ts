/**
 * Prints held-out set v22's figures, counts only (heldout-counts.ts says why).
 * Run once, by the lead, at the end: npx vite-node tests/mcp/audit/scripts/measure-v22.ts
 */
import { printHeldoutCounts } from "./heldout-counts.js";

printHeldoutCounts("v22");
