import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayTarget, runSuite, totals, type Target } from "./gateway-under-test.js";

/**
 * The official conformance suite's active server scenarios through `mcpvm serve --http --expose full`,
 * in one run of the suite (one Node 22 process: faster than a process per scenario). The full
 * comparison (fixture alone, then through the gateway) is `npm run test:conformance:server`.
 * These scenarios are the ones issue 12 names; all of them must pass.
 */
const MUST_PASS = [
  "resources-read-binary",
  "resources-subscribe",
  "resources-unsubscribe",
  "resources-templates-read",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "tools-call-elicitation",
  "tools-call-sampling",
  "tools-call-with-progress",
  "tools-call-with-logging",
  "logging-set-level",
  "completion-complete",
];

describe("conformance server scenarios through the gateway (subset)", () => {
  let target: Target;

  beforeAll(async () => {
    target = await gatewayTarget();
  });

  afterAll(async () => {
    await target?.close();
  });

  it("passes every active server scenario", async () => {
    const outcomes = await runSuite(target.url);
    expect(outcomes.map((o) => o.scenario)).toEqual(expect.arrayContaining(MUST_PASS));
    const failures = outcomes.filter((o) => o.failed > 0).map((o) => `${o.scenario}: ${o.failures.join("; ")}`);
    expect(failures).toEqual([]);
    expect(totals(outcomes).passed).toBeGreaterThanOrEqual(40);
  }, 180_000);
});
