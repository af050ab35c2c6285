/**
 * Prints held-out set v21's figures, counts only (heldout-counts.ts says why).
 * Run once, by the lead, at the end: npx vite-node tests/mcp/audit/scripts/measure-v21.ts
 */
import { printHeldoutCounts } from "./heldout-counts.js";

printHeldoutCounts("v21");
