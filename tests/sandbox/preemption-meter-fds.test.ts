import { existsSync, readdirSync, readlinkSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createQuickJsEngine } from "../../src/sandbox/engines/quickjs.js";
import type { HostModules, SandboxEngine } from "../../src/sandbox/types.js";
import { errorOf, run } from "./conformance/helpers.js";

/**
 * The preemption meter (preemption-meter.ts) holds its thread's /proc schedstat file open while a run
 * computes, and closes it when the run ends. A worker terminated mid-run (its guest never reached an
 * interrupt check) runs no more JavaScript, so the meter cannot close it: Node does, as it closes every
 * raw descriptor a Worker opened when that Worker exits (`trackUnmanagedFds`, which the engines' workers
 * set). Without it each such run left one descriptor behind for the life of the process (a gateway serves
 * for weeks). Linux only.
 */
const linux = existsSync("/proc/thread-self/schedstat");

/** The threads (ids) whose schedstat file this process holds open, one entry per descriptor. */
function schedstatDescriptors(): string[] {
  const threads: string[] = [];
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const thread = /\/task\/(\d+)\/schedstat$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1];
      if (thread !== undefined) threads.push(thread);
    } catch {
      // Closed between the listing and the look (readdir's own descriptor among them).
    }
  }
  return threads;
}

/** Resolves once the thread is gone: a run's result can come before its terminated worker has finished exiting. */
async function threadEnded(thread: string): Promise<void> {
  while (existsSync(`/proc/self/task/${thread}`)) await new Promise((resolve) => setTimeout(resolve, 10));
}

const ROUNDS = 3;

describe.skipIf(!linux)("a worker terminated in the middle of a metered run leaves no schedstat descriptor open", () => {
  const engines: Array<readonly [string, () => Promise<SandboxEngine>]> = [
    ["quickjs (a thread per run)", () => createQuickJsEngine({ warmWorkers: 0, maxWorkers: 1, killGraceMs: 100 })],
    // A memory cap of its own: a thread no other suite's run shares (placements are keyed by worker options).
    ["quickjs (shared workers)", () => createQuickJsEngine({ workerMode: "shared", warmWorkers: 0, maxWorkers: 1, killGraceMs: 100, maxWasmMemoryBytes: 96 * 1024 * 1024 })],
  ];
  for (const [name, create] of engines) {
    it(`${name}: ${ROUNDS} guests stuck in native code past their wall limit`, { timeout: 120_000 }, async () => {
      const engine = await create();
      try {
        const before = schedstatDescriptors();
        /** The guest threads seen with the file open, one a round (each round's worker is a new one). */
        const metered = new Set<string>();
        const modules: HostModules = {
          probe: {
            metered: () => {
              const opened = schedstatDescriptors().filter((thread) => !before.includes(thread) && !metered.has(thread));
              for (const thread of opened) metered.add(thread);
              return opened.length > 0;
            },
          },
        };
        // The meter opens the file at the first interrupt check after 20 ms of compute: the guest computes until the
        // host sees it open, then enters native code that never reaches an interrupt check (a join over a huge sparse
        // array), so the wall limit's stop goes unheard and the worker is terminated with the file open.
        const code = 'const probe = require("host:probe"); while (!(await probe.metered())) { for (let i = 0; i < 1e5; i++); } return Array(2 ** 27).join("").length;';
        for (let round = 0; round < ROUNDS; round++) {
          const error = errorOf(await run(engine, code, { modules, limits: { cpuMs: 60_000, wallMs: 1_500 } }), "WALL_LIMIT");
          expect(error.message).toContain("terminated");
        }
        expect(metered.size).toBe(ROUNDS);
        for (const thread of metered) await threadEnded(thread);
        expect(schedstatDescriptors()).toEqual(before);
      } finally {
        await engine.dispose();
      }
    });
  }
});
