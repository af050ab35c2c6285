/**
 * Prints held-out set v23's figures, counts only (heldout-counts.ts says why).
 * Run once, by the lead, at the end: npx vite-node tests/mcp/audit/scripts/measure-v23.ts
 */
import { printHeldoutCounts } from "./heldout-counts.js";

printHeldoutCounts("v23");
