/**
 * Prints the ids, families and descriptions of the attacks the whole audit (rules + shipped text model, no second
 * opinion) lets through, for the spent or training sets named on the command line, so misses can be grouped by kind
 * across writers. Refuses MEASURED sets (held-out sets whose misses must stay unknown to whoever tunes the rules).
 * Run: npx vite-node tests/mcp/audit/scripts/list-misses.ts heldout-v13 heldout-v14 … heldout-v22
 */
import { isFlagged, loadHalf, scoreAttack, type HalfName } from "../intent-harness.js";
import { MEASURED } from "../text-model/examples.js";

// Named explicitly as well as via MEASURED so a set leaving that list by mistake is still refused here. v13–v19 were
// released for tuning in wave 30, v20 in wave 31, v21 in wave 32 and v22 in wave 33, each after being measured once;
// heldout-v23 (being written blind in wave 33) is refused before it even exists.
const REFUSED = new Set<string>([...MEASURED, "benign-voice-heldout", "heldout-v23"]);
const names = process.argv.slice(2).filter((a) => !a.startsWith("-"));
for (const name of names) if (REFUSED.has(name)) throw new Error(`${name} is a MEASURED set: its misses must not be read`);
for (const name of names) {
  const half = loadHalf(name as HalfName);
  const missed = half.attacks.filter((c) => !isFlagged(scoreAttack(c).verdict));
  console.log(`## ${name}: ${missed.length} missed of ${half.attacks.length}`);
  for (const c of missed) console.log(`- ${c.id} [${c.family}/${c.language}] ${JSON.stringify({ instructions: c.server.instructions, tools: c.server.tools })}`.slice(0, 1200));
}
