import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * A few of the official conformance suite's client auth scenarios, in the normal suite: discovery
 * with DCR, pre-registered credentials over client_secret_basic, and the client credentials grant
 * (extension scenarios, SEP-1046) with client_secret_basic and private_key_jwt. All of them (14
 * active, plus back-compat and draft with --all) run with `npm run test:conformance:auth`.
 */
describe("MCP conformance suite, client auth (subset)", () => {
  it("passes auth/metadata-default, auth/pre-registration, auth/client-credentials-basic and auth/client-credentials-jwt", async () => {
    const summary = await new Promise<{ passed: number; total: number; results: { name: string; passed: boolean; failures: string[] }[] }>((done, fail) => {
      execFile(process.execPath, [join(ROOT, "tests/conformance/run-auth.mjs"), "--json", "--jobs", "2", "auth/metadata-default", "auth/pre-registration", "auth/client-credentials-basic", "auth/client-credentials-jwt"], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        try {
          done(JSON.parse(stdout) as never);
        } catch {
          fail(new Error(`run-auth.mjs gave no summary (${error?.message ?? ""}): ${stderr.slice(-2000)}`));
        }
      });
    });
    expect(summary.results.filter((r) => !r.passed).map((r) => `${r.name}: ${r.failures.join("; ")}`)).toEqual([]);
    expect(summary.passed).toBe(4);
  }, 600_000);
});
