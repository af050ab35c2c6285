import { setFlagsFromString } from "node:v8";

let tuned = false;

/**
 * Process-wide settings for a process that runs one guest script and exits (`mcpvm run` started by
 * bin/mcpvm.js), applied before the QuickJS wasm module is compiled.
 *
 * `--liftoff-only`: V8 compiles wasm with its baseline compiler (Liftoff) and does not tier hot
 * functions up to TurboFan. QuickJS's interpreter loop is one huge wasm function; tiering it up takes
 * hundreds of ms of CPU on background threads, which compete with the run on a small machine, and a
 * Node process that is ending waits for every background compile job before it exits. Measured on 2
 * cores (bench/RESULTS.md, "CLI"): `return 1` ran in ~20 ms instead of ~250 ms, the process exited
 * right after its result instead of ~300 ms later, and even a 3 s CPU-bound guest loop finished
 * sooner without the tier-up. Long-lived processes (the gateway, the REPL) keep V8's default: there
 * the tier-up is paid once and TurboFan code serves every later run.
 */
export function tuneForOneRun(): void {
  if (tuned) return;
  tuned = true;
  setFlagsFromString("--liftoff-only");
}
