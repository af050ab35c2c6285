/**
 * Prints held-out set v4's figures, counts only (heldout-counts.ts says why).
 * Measured once, in wave 6; v4 is spent (tuned on since wave 8): npx vite-node tests/mcp/audit/scripts/measure-v4.ts
 */
import { printHeldoutCounts } from "./heldout-counts.js";

printHeldoutCounts("v4");
