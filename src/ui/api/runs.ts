import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { generateDeclarations, type ServerTools } from "../../mcp/type-generator/index.js";
import type { CallConfirmationRequest } from "../../mcp/service/index.js";
import type { RunLimits, RunResult } from "../../sandbox/types.js";
import { renderCallConfirmation } from "../../terminal/render/call-confirmation.js";
import { errorMessage } from "../../util/errors.js";
import { UiError } from "../errors.js";
import type { HostState } from "../host-state.js";
import { parseBody } from "./body.js";
import type { Router } from "./router.js";

const MAX_KEPT_RUNS = 20;

const runSchema = z
  .object({
    code: z.string().max(1_000_000),
    /** As `mcpvm run --timeout/--cpu/--memory/--output`, with units ("30s", "64MB"). */
    limits: z.object({ timeout: z.string().optional(), cpu: z.string().optional(), memory: z.string().optional(), output: z.string().optional() }).strict().optional(),
  })
  .strict();
const answerSchema = z.object({ allow: z.boolean() }).strict();

export type RunLimitParser = (values: Readonly<Record<string, string | undefined>>) => Partial<RunLimits>;

interface RunRecord {
  readonly id: string;
  readonly startedAt: string;
  readonly controller: AbortController;
  state: "running" | "done";
  result?: RunResult;
  failure?: string;
}

interface PendingConfirmation {
  readonly id: string;
  /** The run whose call asks; undefined if the engine lost track (then every run shows it, as a fallback). */
  readonly runId: string | undefined;
  readonly server: string;
  readonly tool: string;
  /** The question as the CLI words it: server, tool, why, the server's hints and the full arguments. */
  readonly text: string;
  readonly resolve: (allow: boolean) => void;
}

/**
 * Scripts run from the page: `host.run` with the limits of `mcpvm run` (config.json `limits`,
 * overridden by the same flags), and MCP calls that need confirmation asked in the page rather
 * than on a terminal. A question nobody answers stays open until the run's own wall limit ends it.
 */
export class RunRegistry {
  private readonly runs = new Map<string, RunRecord>();
  private readonly pending = new Map<string, PendingConfirmation>();
  /**
   * Which run a confirmation comes from: the host has one confirm hook for every run, and two tabs
   * (or a reloaded page whose earlier run still waits) must not see, and allow, each other's calls.
   */
  private readonly currentRun = new AsyncLocalStorage<string>();

  constructor(
    private readonly state: HostState,
    private readonly parseLimits: RunLimitParser,
  ) {
    state.host.setConfirmCall((request) => this.ask(request));
  }

  start(code: string, limits: Readonly<Record<string, string | undefined>>): RunRecord {
    const overrides = this.parseLimits(limits);
    const record: RunRecord = { id: randomUUID(), startedAt: new Date().toISOString(), controller: new AbortController(), state: "running" };
    this.runs.set(record.id, record);
    for (const id of [...this.runs.keys()].slice(0, Math.max(0, this.runs.size - MAX_KEPT_RUNS))) this.runs.delete(id);
    void this.currentRun
      .run(record.id, () => this.state.whileRunning((host) => host.run(code, { limits: overrides, signal: record.controller.signal, filename: "page.js" })))
      .then(
        (result) => (record.result = result),
        (error: unknown) => (record.failure = errorMessage(error)),
      )
      .finally(() => {
        record.state = "done";
        // A question still open when its run ended is declined; one of unknown origin once no run is left.
        const idle = ![...this.runs.values()].some((r) => r.state === "running");
        this.decline((p) => p.runId === record.id || (idle && p.runId === undefined));
      });
    return record;
  }

  view(id: string) {
    const record = this.runs.get(id);
    if (record === undefined) throw new UiError("UI_RUN_UNKNOWN", `No run ${id} (only the last ${MAX_KEPT_RUNS} are kept).`);
    return {
      id: record.id,
      startedAt: record.startedAt,
      state: record.state,
      ...(record.result === undefined ? {} : { result: record.result }),
      ...(record.failure === undefined ? {} : { failure: record.failure }),
      confirmations: [...this.pending.values()].filter((p) => p.runId === undefined || p.runId === record.id).map(({ id: cid, server, tool, text }) => ({ id: cid, server, tool, text })),
    };
  }

  cancel(id: string): void {
    this.runs.get(id)?.controller.abort();
  }

  answer(id: string, allow: boolean): void {
    const pending = this.pending.get(id);
    if (pending === undefined) throw new UiError("UI_BAD_REQUEST", "That question is no longer open (the run ended or it was answered).");
    this.pending.delete(id);
    pending.resolve(allow);
  }

  cancelAll(): void {
    for (const record of this.runs.values()) record.controller.abort();
    this.decline(() => true);
  }

  private ask(request: CallConfirmationRequest): Promise<boolean> {
    return new Promise((resolve) => {
      const id = randomUUID();
      const text = this.state.host.redactor.redact(renderCallConfirmation({ ...request, args: this.state.host.redactor.redactValue(request.args) }));
      this.pending.set(id, { id, runId: this.currentRun.getStore(), server: request.server, tool: request.tool, text, resolve });
    });
  }

  private decline(which: (pending: PendingConfirmation) => boolean): void {
    for (const pending of [...this.pending.values()].filter(which)) {
      this.pending.delete(pending.id);
      pending.resolve(false);
    }
  }
}

export function runRoutes(router: Router, runs: RunRegistry, state: HostState): void {
  router.post("/api/runs", async ({ body }) => {
    const request = parseBody(runSchema, body, "the run");
    return { id: runs.start(request.code, request.limits ?? {}).id };
  });
  router.get("/api/runs/:id", async ({ params }) => runs.view(params.id as string));
  router.post("/api/runs/:id/cancel", async ({ params }) => {
    runs.cancel(params.id as string);
    return { cancelled: params.id };
  });
  router.post("/api/confirmations/:id", async ({ params, body }) => {
    runs.answer(params.id as string, parseBody(answerSchema, body, "the answer").allow);
    return { answered: params.id };
  });

  /** The generated declarations of every enabled, approved server (starts them), and the names the editor completes. */
  router.get("/api/types", async () => {
    const service = await state.service();
    const servers: Array<{ server: string; module: string; tools: Array<{ jsName: string; signature: string; description: string }> }> = [];
    const forTypes: ServerTools[] = [];
    const problems: Array<{ server: string; message: string }> = [];
    const ready = (await service.summaries()).filter((summary) => summary.enabled && summary.approval === "approved");
    // Side by side: a server that hangs at start costs its connect timeout once, not once per server before it.
    const listed = await Promise.allSettled(ready.map((summary) => service.catalog(summary.name)));
    listed.forEach((outcome, i) => {
      if (outcome.status === "rejected") {
        problems.push({ server: (ready[i] as { name: string }).name, message: errorMessage(outcome.reason) });
        return;
      }
      const catalog = outcome.value;
      servers.push({ server: catalog.server, module: `host:${catalog.module}`, tools: catalog.tools.map((t) => ({ jsName: t.jsName, signature: catalog.signature(t), description: t.description })) });
      forTypes.push({ serverName: catalog.server, tools: catalog.forTypes() });
    });
    return { servers, problems, declarations: await generateDeclarations(forTypes) };
  });
}
