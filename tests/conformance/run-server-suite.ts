/**
 * `npm run test:conformance:server`: every active server scenario of the official conformance
 * suite against the full fixture alone, then through `mcpvm serve --http --expose full`. Fails
 * unless every check that passes against the fixture alone passes through the gateway too.
 */
import { fixtureTarget, gatewayTarget, runSuite, totals, type ScenarioOutcome } from "./gateway-under-test.js";

function report(label: string, outcomes: readonly ScenarioOutcome[]): void {
  const { passed, checks } = totals(outcomes);
  process.stdout.write(`${label}: ${passed}/${checks} checks passed (${outcomes.length} scenarios)\n`);
  for (const o of outcomes) if (o.failed > 0) process.stdout.write(`  ✗ ${o.scenario}: ${o.failures.join("; ")}\n`);
}

const alone = await fixtureTarget();
const baseline = await runSuite(alone.url).finally(() => alone.close());
report("fixture alone", baseline);
const gateway = await gatewayTarget();
const through = await runSuite(gateway.url).finally(() => gateway.close());
report("through mcpvm serve --expose full", through);

const passedAlone = new Set(baseline.filter((o) => o.failed === 0).map((o) => o.scenario));
const regressions = through.filter((o) => passedAlone.has(o.scenario) && o.failed > 0).map((o) => o.scenario);
const missing = [...passedAlone].filter((s) => !through.some((o) => o.scenario === s));
if (regressions.length > 0 || missing.length > 0) {
  process.stdout.write(`FAIL: ${[...regressions, ...missing.map((m) => `${m} (not run)`)].join(", ")} pass against the fixture alone but not through the gateway\n`);
  process.exit(1);
}
process.stdout.write("OK: every scenario that passes against the fixture alone passes through the gateway\n");
process.exit(0);
