import { tool } from "ai";
import { z } from "zod";
import { screenModelOutput } from "../../mcp/service/index.js";
import type { RunResult } from "../../sandbox/types.js";
import { modelSchema } from "./model-schema.js";
import { fitRunOutput } from "./fit-run-output.js";
import { MAX_TOOL_OUTPUT_CHARS, guardedTool } from "./output.js";
import type { AgentToolContext } from "./types.js";

export const executeJavascriptInput = z
  .object({
    code: z.string().min(1),
    timeoutMs: z.number().int().min(100).max(600_000).optional().describe("At most the session's"),
  })
  .strict();

/** The model-facing shape of a run: result or error, the console output, and what it cost. */
export function runOutput(result: RunResult): Record<string, unknown> {
  const logs = result.logs.map((l) => (l.level === "log" ? l.message : `${l.level}: ${l.message}`));
  const stats = { engine: result.stats.engine, wallMs: Math.round(result.stats.wallMs), cpuMs: Math.round(result.stats.cpuMs), hostCalls: result.stats.hostCalls };
  // Tool results can carry planted instructions; the model gets them as data, with a notice.
  const screening = screenModelOutput({ result: result.ok ? result.value : null, logs });
  const warnings = screening.notice === undefined ? {} : { warnings: [screening.notice] };
  // Notes say what the sandbox converted or left out of the result (a Map returned as an object, …).
  if (result.ok) return { result: result.value ?? null, logs, stats, ...(result.notes === undefined ? {} : { notes: result.notes }), ...warnings };
  const { code, name, message, line, errorCode } = result.error;
  return { result: null, logs, error: { code, ...(name === undefined ? {} : { name }), message, ...(line === undefined ? {} : { line }), ...(errorCode === undefined ? {} : { errorCode }) }, stats, ...warnings };
}

export function executeJavascriptTool(context: AgentToolContext) {
  return tool({
    description: "Run a script body in the sandbox (no Node APIs): `return` gives the result, top-level await works.",
    inputSchema: modelSchema("execute_javascript", executeJavascriptInput),
    execute: async ({ code, timeoutMs }, { abortSignal }) =>
      guardedTool(context.host, async () => {
        // The model may ask for less time than the session's budget, never more.
        const session = context.host.limits(context.runLimits());
        const limits = { ...context.runLimits(), ...(timeoutMs === undefined ? {} : { wallMs: Math.min(timeoutMs, session.wallMs) }) };
        const result = await context.host.run(code, { limits, ...(abortSignal === undefined ? {} : { signal: abortSignal }), filename: "agent.js" });
        // Fitted here, where the parts are known, so the error and stats survive a cap; the margin is
        // for redaction, which can lengthen text, before forModel's own cap.
        return fitRunOutput(runOutput(result), MAX_TOOL_OUTPUT_CHARS - 500);
      }),
  });
}
