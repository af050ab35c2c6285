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
];

/**
 * The one scenario left out, and why: server-sse-polling (pending in the suite) calls a
 * `test_reconnection` tool that must close its SSE stream mid-call and resume on a GET with
 * Last-Event-ID. The fixture has no such tool (alone it answers -32602 and the scenario records
 * nothing); the gateway answers an unknown tool as a tool error (`isError`, GATEWAY_TOOL_UNKNOWN,
 * so a model reads why), which the scenario counts as a failure. Resumable streams would need an
 * event store in the gateway's HTTP transport.
 */
const NOT_CLAIMED = { scenario: "server-sse-polling", failure: "incoming-sse-event: Tool call failed" };

describe("conformance server scenarios through the gateway", () => {
  let target: Target;

  beforeAll(async () => {
    target = await gatewayTarget();
  });

  afterAll(async () => {
    await target?.close();
  });

  it("passes every server scenario but the one it does not claim", async () => {
    const outcomes = await runSuite(target.url, [], "all");
    expect(outcomes.map((o) => o.scenario)).toEqual(expect.arrayContaining([...MUST_PASS, NOT_CLAIMED.scenario]));
    const failures = outcomes.filter((o) => o.failed > 0).map((o) => `${o.scenario}: ${o.failures.join("; ")}`);
    expect(failures).toEqual([`${NOT_CLAIMED.scenario}: ${NOT_CLAIMED.failure}`]);
    expect(totals(outcomes).passed).toBeGreaterThanOrEqual(44);
  }, 180_000);
});
