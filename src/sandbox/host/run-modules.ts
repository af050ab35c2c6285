import { setMaxListeners } from "node:events";
import { createRunScope, DEFAULT_TOOL_CALLS, isLazyHostModule, type HostCallContext, type HostModule, type HostModules, type LazyHostModule, type RunScope } from "../types.js";
import { describeHostError, dispatchToModule, type HostCallEvents, type HostCallRequest } from "./host-call.js";
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
  /** Modules this run has finished loading, served without waiting on their load promise again. */
  private readonly ready = new Map<string, HostModule>();
  private readonly replies: HostReplyBudget | undefined;
  private readonly toolCalls: RunCallBudget;
  private readonly scope: RunScope;
  /** The run's signal once its listener limit is lifted (see call). */
  private unlimited: AbortSignal | undefined;

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

  /**
   * Serves one guest host call (including the reserved load call); never rejects. `events`: see dispatchHostCall (host-call.ts).
   * A module already at hand (static, or lazy and loaded earlier in the run) is called in the same
   * tick, so a call reaches its host function without an extra turn of the microtask queue.
   */
  call(request: HostCallRequest, context: RunCallContext, events: HostCallEvents = {}): Promise<string> {
    if (context.signal !== this.unlimited) {
      // Every call the run has in flight listens on its signal (the MCP request, the rate limiter,
      // the deadline) until it ends: a Promise.all of a dozen tool calls is not a leak, yet Node 20
      // printed "MaxListenersExceededWarning: Possible EventTarget memory leak" on the user's terminal.
      setMaxListeners(0, context.signal);
      this.unlimited = context.signal;
    }
    const name = request.module;
    const entry = Object.hasOwn(this.modules, name) ? this.modules[name] : undefined;
    if (entry === undefined || !isLazyHostModule(entry)) return this.dispatch(entry, request, context, events);
    const ready = this.ready.get(name);
    if (ready !== undefined) return this.dispatch(ready, request, context, events);
    return this.load(name, entry, context).then(
      (loaded) => this.dispatch(loaded, request, context, events),
      (error: unknown) => JSON.stringify({ ok: false, error: describeHostError(error) }),
    );
  }

  private dispatch(module: HostModule | undefined, request: HostCallRequest, context: RunCallContext, events: HostCallEvents): Promise<string> {
    // Every field written out: spreading `context` first and adding fields after is a slow path in
    // Node 20's V8 (each added field builds a new hidden class), several µs on every call.
    const callContext: HostCallContext =
      this.replies === undefined
        ? { module: request.module, fn: request.fn, signal: context.signal, deadline: context.deadline, scope: this.scope, toolCalls: this.toolCalls }
        : { module: request.module, fn: request.fn, signal: context.signal, deadline: context.deadline, scope: this.scope, toolCalls: this.toolCalls, replies: this.replies };
    return dispatchToModule(module, request, callContext, events);
  }

  /** Loads a lazy module once per run (shared by concurrent calls); a failed load is forgotten so a later call tries again. */
  private load(name: string, entry: LazyHostModule, context: RunCallContext): Promise<HostModule> {
    let loading = this.loaded.get(name);
    if (loading === undefined) {
      loading = entry.load({ signal: context.signal, deadline: context.deadline });
      this.loaded.set(name, loading);
      loading.then(
        (module) => this.ready.set(name, module),
        () => this.loaded.delete(name),
      );
    }
    return loading;
  }
}
