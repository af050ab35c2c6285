/**
 * Prints held-out set v14's figures, counts only (heldout-counts.ts says why).
 * Run once, by the lead, at the end: npx vite-node tests/mcp/audit/scripts/measure-v14.ts
 */
import { printHeldoutCounts } from "./heldout-counts.js";

printHeldoutCounts("v14");
