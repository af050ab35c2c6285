import { createRunScope, DEFAULT_TOOL_CALLS, isLazyHostModule, type HostModule, type HostModules, type RunScope } from "../types.js";
import { describeHostError, dispatchHostCall, type HostCallEvents, type HostCallRequest } from "./host-call.js";
import { RunCallBudget } from "./call-budget.js";
import { HostReplyBudget } from "./reply-budget.js";

export interface RunCallContext {
  /** Aborted when the run ends. */
  readonly signal: AbortSignal;
  /** Epoch ms of the run's wall deadline. */
  readonly deadline: number;
}

/**
 * The host modules of one run. Lazy modules are loaded the first time the guest asks for them
 * (once per run, shared by concurrent calls) and then served like static ones. A failed load is
 * not remembered, so a later require in the same run tries again.
 */
export class RunModules {
  private readonly loaded = new Map<string, Promise<HostModule>>();
  private readonly replies: HostReplyBudget | undefined;
  private readonly toolCalls: RunCallBudget;
  private readonly scope: RunScope;

  /**
   * `memoryBytes`: the run's memory budget, which also bounds the host reply bytes its calls hold at once.
   * `toolCalls`: the run's MCP tool-call budget (default DEFAULT_TOOL_CALLS).
   * `code`: the guest's source, which host functions see through HostCallContext.scope.
   */
  constructor(
    private readonly modules: HostModules,
    limits: { readonly memoryBytes?: number; readonly toolCalls?: number; readonly code?: string } = {},
  ) {
    this.replies = limits.memoryBytes === undefined ? undefined : new HostReplyBudget(limits.memoryBytes);
    this.toolCalls = new RunCallBudget(limits.toolCalls ?? DEFAULT_TOOL_CALLS);
    this.scope = createRunScope(limits.code ?? "");
  }

  /** Serves one guest host call (including the reserved load call); never rejects. `events`: see dispatchHostCall. */
  async call(request: HostCallRequest, context: RunCallContext, events: HostCallEvents = {}): Promise<string> {
    let module: HostModule | undefined;
    try {
      module = await this.resolve(request.module, context);
    } catch (error) {
      return JSON.stringify({ ok: false, error: describeHostError(error) });
    }
    const modules: HostModules = module === undefined ? {} : { [request.module]: module };
    return dispatchHostCall(modules, request, {
      ...context,
      module: request.module,
      fn: request.fn,
      scope: this.scope,
      ...(this.replies === undefined ? {} : { replies: this.replies }),
      toolCalls: this.toolCalls,
    }, events);
  }

  private resolve(name: string, context: RunCallContext): Promise<HostModule | undefined> {
    const entry = Object.hasOwn(this.modules, name) ? this.modules[name] : undefined;
    if (entry === undefined || !isLazyHostModule(entry)) return Promise.resolve(entry);
    let loading = this.loaded.get(name);
    if (loading === undefined) {
      loading = entry.load({ signal: context.signal, deadline: context.deadline });
      this.loaded.set(name, loading);
      loading.catch(() => this.loaded.delete(name));
    }
    return loading;
  }
}
