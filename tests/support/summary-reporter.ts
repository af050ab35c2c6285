import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints one plain closing line, "tests: N passed, N failed, N skipped", after vitest's own
 * summary, so tools that read a run's last line (CI among them) see the counts without parsing
 * vitest's formatting.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped += 1;
      }
      // A file that fails outside its tests (an error in beforeAll, at import) counts as a failure too.
      const testsFailed = [...module.children.allTests()].some((test) => test.result().state === "failed");
      if (module.state() === "failed" && !testsFailed) failed += 1;
    }
    // vitest prints its own summary after this hook; the exit hook makes ours the closing line.
    const line = `\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`;
    process.once("exit", () => process.stdout.write(line));
  }
}
