import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    reporters: ["default", "./tests/support/summary-reporter.ts"],
    setupFiles: ["./tests/support/yield-between-tests.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI; real child processes and wasm engines are heavy, so keep the pool small.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
