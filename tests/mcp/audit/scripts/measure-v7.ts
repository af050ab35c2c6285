/**
 * Prints held-out set v7's figures, counts only (heldout-counts.ts says why).
 * Run: npx vite-node tests/mcp/audit/scripts/measure-v7.ts (v7 is spent since wave 11: measure-all.ts prints its ids too)
 */
import { printHeldoutCounts } from "./heldout-counts.js";

printHeldoutCounts("v7");
