import type { ToolSet } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TOOL_OUTPUT_CHARS, buildAgentTools } from "../../src/agent/tools/index.js";
import { McpvmHost } from "../../src/host/index.js";
import { tempHome } from "./repl-driver.js";

/** execute_javascript's answer to the model, through the real tool and the real sandbox. */
describe("execute_javascript output over the cap", () => {
  let host: McpvmHost;
  let tools: ToolSet;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    host = await McpvmHost.open({ env: { MCPVM_HOME: home.dir, PATH: process.env.PATH ?? "" }, engine: "quickjs" });
    tools = buildAgentTools({ host, person: { canAsk: false, confirm: async () => false }, runLimits: () => ({}) }).tools;
  });
  afterAll(async () => {
    await host.close();
    await cleanup();
  });

  async function run(code: string): Promise<Record<string, unknown>> {
    const execute = tools.execute_javascript?.execute;
    if (execute === undefined) throw new Error("no execute_javascript");
    return (await execute({ code }, { toolCallId: "t1", messages: [] })) as Record<string, unknown>;
  }

  it("keeps the error and stats of a run that logged past its output limit, with its first and last log lines", async () => {
    const answer = await run("for (let i = 0; i < 200000; i++) console.log('line ' + i); return 1");
    expect(answer.error).toMatchObject({ code: "OUTPUT_LIMIT" });
    expect(answer.stats).toMatchObject({ engine: "quickjs" });
    const logs = answer.logs as string[];
    expect(logs[0]).toBe("line 0");
    expect(logs.some((l) => /^… \d+ log lines left out …$/.test(l))).toBe(true);
    expect(String(answer.cut)).toMatch(/^Output cut to fit \d+ of \d+ characters\. \d+ of \d+ log lines left out/);
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
  });

  it("keeps a thrown error after much logging, and says a huge result is a prefix", async () => {
    const thrown = await run("for (let i = 0; i < 3000; i++) console.log('x'.repeat(50)); throw new RangeError('the real problem')");
    expect(thrown.error).toMatchObject({ code: "GUEST_ERROR", name: "RangeError", message: "the real problem" });
    const big = await run("return 'y'.repeat(100000)");
    expect(big.stats).toMatchObject({ engine: "quickjs" });
    expect(String(big.result).startsWith('"yyyy')).toBe(true);
    expect(String(big.cut)).toContain('The result was 100002 characters of JSON: "result" holds its first');
    expect(JSON.stringify(thrown).length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
    expect(JSON.stringify(big).length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT_CHARS);
  });

  it("leaves an answer under the cap as it was", async () => {
    expect(await run("console.log('a'); return [1, 2]")).toMatchObject({ result: [1, 2], logs: ["a"] });
  });
});
