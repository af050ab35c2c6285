import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayTarget, runSuite, totals, type Target } from "./gateway-under-test.js";

/**
 * Every server scenario of the official conformance suite, the pending ones included (`--suite
 * all`), through `mcpvm serve --http --expose full`, in one run of the suite (one Node 22 process:
 * faster than a process per scenario). The full comparison (fixture alone, then through the
 * gateway) is `npm run test:conformance:server`.
 */
const MUST_PASS = [
  "server-initialize",
  "ping",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-error",
  "tools-call-with-logging",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "json-schema-2020-12",
  "elicitation-sep1034-defaults",
  "elicitation-sep1330-enums",
  "server-sse-multiple-streams",
  "logging-set-level",
  "completion-complete",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
  // Pending in the suite: calls a `test_reconnection` tool no server here has. The gateway answers an
  // unknown tool with the spec's JSON-RPC error (-32602), which the scenario records as "no such tool"
  // (a warning), not as a failed call.
  "server-sse-polling",
];

describe("conformance server scenarios through the gateway", () => {
  let target: Target;

  beforeAll(async () => {
    target = await gatewayTarget();
  });

  afterAll(async () => {
    await target?.close();
  });

  it("passes every server scenario", async () => {
    const outcomes = await runSuite(target.url, [], "all");
    expect(outcomes.map((o) => o.scenario)).toEqual(expect.arrayContaining(MUST_PASS));
    const failures = outcomes.filter((o) => o.failed > 0).map((o) => `${o.scenario}: ${o.failures.join("; ")}`);
    expect(failures).toEqual([]);
    expect(totals(outcomes).passed).toBeGreaterThanOrEqual(44);
  }, 180_000);
});
