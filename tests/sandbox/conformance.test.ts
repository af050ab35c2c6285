import { afterAll, beforeAll, describe, it } from "vitest";
import type { SandboxEngine } from "../../src/sandbox/types.js";
import { contractTests } from "./conformance/contract.js";
import { escapeTests } from "./conformance/escapes.js";
import { guestErrorTests } from "./conformance/guest-errors.js";
import { isolationTests } from "./conformance/isolation.js";
import { limitTests } from "./conformance/limits.js";
import { progressTests } from "./conformance/progress.js";
import { resultTests } from "./conformance/results.js";
import { toolsGlobalTests } from "./conformance/tools-global.js";
import { conformanceEngines } from "./engines.js";

/**
 * One guest contract, every engine: each engine that can boot here runs the whole suite; an engine
 * that cannot is reported as skipped with its probe's reason.
 */
for (const entry of await conformanceEngines()) {
  const create = entry.create;
  if (create === undefined) {
    describe.skip(`${entry.kind} engine — unavailable: ${entry.unavailableReason ?? "no reason given"}`, () => {
      it("runs the conformance suite", () => undefined);
    });
    continue;
  }

  describe(`${entry.label ?? entry.kind} engine`, () => {
    let engine: SandboxEngine | undefined;
    const current = (): SandboxEngine => {
      if (engine === undefined) throw new Error(`the ${entry.label ?? entry.kind} engine did not start`);
      return engine;
    };

    beforeAll(async () => {
      engine = await create();
    });
    afterAll(async () => {
      await engine?.dispose();
    });

    contractTests(current);
    isolationTests(current);
    limitTests(current);
    escapeTests(current);
    guestErrorTests(current);
    resultTests(current);
    progressTests(current);
    toolsGlobalTests(current);

    it("refuses runs once disposed", async () => {
      const disposable = await create();
      await disposable.dispose();
      const result = await disposable.run({ code: "return 1" });
      if (result.ok) throw new Error("a disposed engine ran a script");
      if (result.error.code !== "ENGINE_UNAVAILABLE") throw new Error(`expected ENGINE_UNAVAILABLE, got ${result.error.code}`);
    });
  });
}
