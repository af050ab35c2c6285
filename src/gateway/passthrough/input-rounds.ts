import { randomBytes } from "node:crypto";
import { inputResponse, ProtocolError, ProtocolErrorCode, type InputRequest, type InputRequiredResult, type InputResponseView } from "@modelcontextprotocol/server";
import { ToolArgumentValidator } from "../../mcp/validate/arguments.js";
import { invalidParams } from "./errors.js";
import type { GatewayOrigin } from "./origin.js";

/**
 * Multi-round-trip input for 2026-07-28 clients (`input_required`). A 2026 client has no channel
 * for server→client requests: when an upstream asks for elicitation or sampling during such a
 * client's tools/call, the gateway answers the call with `input_required` (the questions, and an
 * opaque `requestState`) while the upstream call keeps waiting; the client asks its person or
 * model and calls again with `inputResponses` and the same `requestState`; the gateway hands the
 * answers to the waiting upstream requests and answers the retry with the call's result — or with
 * the next round's questions.
 *
 * The state lives in this process (a random 192-bit id names it, bound to the client that made the
 * call): a retry that reaches another replica, or comes after INPUT_WAIT_MS, is refused with an
 * error that says to call again from the start.
 */

/** How long a call waits for the client's retry after an `input_required` answer. */
export const INPUT_WAIT_MS = 5 * 60_000;

interface PendingInput {
  readonly request: InputRequest;
  resolve(view: InputResponseView): void;
  /** The call is over (cancelled, expired, bad answer): elicitation ends as "cancel", sampling fails. */
  cancel(reason: string): void;
}

type Outcome<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

class CallRounds<R> {
  readonly id = randomBytes(24).toString("base64url");
  readonly controller = new AbortController();
  readonly inputs = new Map<string, PendingInput>();
  outcome: Outcome<R> | undefined;
  /** A handler (the first call or a retry) is waiting for the outcome or for input to ask for. */
  waiting = false;
  done = false;
  expiry: NodeJS.Timeout | undefined;
  private wakeUp: (() => void) | undefined;
  private counter = 0;

  constructor(
    readonly client: string,
    /** The call as the client made it (tool name and arguments): a retry must repeat it. */
    readonly fingerprint: string,
  ) {}

  nextKey(method: InputRequest["method"]): string {
    this.counter += 1;
    return `${method === "elicitation/create" ? "elicit" : method === "sampling/createMessage" ? "sample" : "roots"}-${this.counter}`;
  }

  wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = undefined;
    wake?.();
  }

  sleep(): Promise<void> {
    return new Promise((resolve) => (this.wakeUp = resolve));
  }
}

export class InputRounds {
  private readonly byState = new Map<string, CallRounds<unknown>>();
  private readonly byOrigin = new WeakMap<GatewayOrigin, CallRounds<unknown>>();

  constructor(private readonly waitMs: number = INPUT_WAIT_MS) {}

  /** How many calls wait for a client's answers now (for tests and /health). */
  get waiting(): number {
    return this.byState.size;
  }

  /**
   * A 2026 client's new call: runs `work` (with a signal that outlives this request, since the call
   * may span several) and answers with its result, or with `input_required` as soon as an upstream
   * asks for input on its behalf (see ask).
   */
  async start<R>(origin: GatewayOrigin, client: string, fingerprint: string, signal: AbortSignal, work: (signal: AbortSignal) => Promise<R>): Promise<R | InputRequiredResult> {
    const rounds = new CallRounds<R>(client, fingerprint);
    this.byOrigin.set(origin, rounds as CallRounds<unknown>);
    void work(rounds.controller.signal).then(
      (value) => this.settle(rounds, { ok: true, value }),
      (error: unknown) => this.settle(rounds, { ok: false, error }),
    );
    return this.answer(rounds, signal);
  }

  /**
   * A retry carrying `requestState`: its `inputResponses` go to the upstream requests that wait for
   * them (checked first: an answer that does not fit its question ends the call with a clear error).
   */
  async resume<R>(state: string, client: string, fingerprint: string, responses: Record<string, unknown> | undefined, signal: AbortSignal): Promise<R | InputRequiredResult> {
    const rounds = this.byState.get(state) as CallRounds<R> | undefined;
    // Another client's state is treated as unknown: it must not learn that the id exists.
    if (rounds === undefined || rounds.client !== client) {
      throw invalidParams("Unknown or expired requestState: this call's input round is not held by this gateway (it expired, was answered already, or another replica holds it); call the tool again without requestState.");
    }
    if (rounds.fingerprint !== fingerprint) throw invalidParams("This requestState belongs to a call of another tool or with other arguments; a retry repeats the call it answers.");
    if (rounds.waiting) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, "This requestState is already being answered by another request; wait for it.");
    clearTimeout(rounds.expiry);
    rounds.expiry = undefined;
    const problems: string[] = [];
    const answered: [string, PendingInput, InputResponseView][] = [];
    for (const [key, input] of rounds.inputs) {
      if (responses === undefined || !Object.hasOwn(responses, key)) continue;
      const view = inputResponse(responses, key);
      const problem = answerProblem(input.request, view);
      if (problem !== undefined) problems.push(`${key}: ${problem}`);
      else answered.push([key, input, view]);
    }
    if (problems.length > 0) {
      this.cancel(rounds, "an answer did not fit its question");
      throw invalidParams(`The call was cancelled: ${problems.slice(0, 5).join("; ")}. Call the tool again to start over.`);
    }
    for (const [key, input, view] of answered) {
      rounds.inputs.delete(key);
      input.resolve(view);
    }
    return this.answer(rounds, signal);
  }

  /**
   * An upstream's elicitation or sampling request during a 2026 client's call: asked of that client
   * in the call's next `input_required` answer. Undefined when the origin has no such call (the
   * request came from something other than a tools/call, or the call is over): the caller declines.
   */
  ask(origin: GatewayOrigin, request: InputRequest, signal: AbortSignal): Promise<InputResponseView> | undefined {
    const rounds = this.byOrigin.get(origin);
    if (rounds === undefined || rounds.done) return undefined;
    return new Promise<InputResponseView>((resolve, reject) => {
      const key = rounds.nextKey(request.method);
      const onAbort = (): void => {
        rounds.inputs.delete(key);
        reject(new ProtocolError(ProtocolErrorCode.InternalError, "The upstream request for input was cancelled."));
      };
      signal.addEventListener("abort", onAbort, { once: true });
      rounds.inputs.set(key, {
        request,
        resolve: (view) => {
          signal.removeEventListener("abort", onAbort);
          resolve(view);
        },
        cancel: (reason) => {
          signal.removeEventListener("abort", onAbort);
          if (request.method === "elicitation/create") resolve({ kind: "elicit", action: "cancel" });
          else reject(new ProtocolError(ProtocolErrorCode.InternalError, `The client did not answer: ${reason}.`));
        },
      });
      rounds.wake();
    });
  }

  /** Ends every waiting call (gateway shutdown). */
  close(): void {
    for (const rounds of [...this.byState.values()]) this.cancel(rounds, "the gateway is shutting down");
  }

  /** Waits (as one request) for the call's outcome or for input to ask the client for. */
  private async answer<R>(rounds: CallRounds<R>, signal: AbortSignal): Promise<R | InputRequiredResult> {
    // The client cancelling this request cancels the call; once this request is answered, its signal no longer matters.
    const onAbort = (): void => this.cancel(rounds, "the client cancelled the request");
    signal.addEventListener("abort", onAbort, { once: true });
    rounds.waiting = true;
    try {
      for (;;) {
        const outcome = rounds.outcome;
        if (outcome !== undefined) {
          this.forget(rounds);
          if (outcome.ok) return outcome.value;
          throw outcome.error;
        }
        if (rounds.inputs.size > 0) {
          // Questions asked at about the same time (parallel calls of one script) go in one round.
          await new Promise((resolve) => setImmediate(resolve));
          if (rounds.outcome !== undefined) continue;
          return this.inputRequired(rounds);
        }
        await rounds.sleep();
      }
    } finally {
      rounds.waiting = false;
      signal.removeEventListener("abort", onAbort);
    }
  }

  private inputRequired<R>(rounds: CallRounds<R>): InputRequiredResult {
    this.byState.set(rounds.id, rounds as CallRounds<unknown>);
    rounds.expiry = setTimeout(() => this.cancel(rounds, "the client did not call again in time"), this.waitMs);
    rounds.expiry.unref();
    // Every question not answered yet, including any the client left out of its last retry.
    const inputRequests = Object.fromEntries([...rounds.inputs].map(([key, input]) => [key, input.request]));
    return { resultType: "input_required", inputRequests, requestState: rounds.id };
  }

  private settle<R>(rounds: CallRounds<R>, outcome: Outcome<R>): void {
    rounds.outcome = outcome;
    rounds.wake();
  }

  private cancel<R>(rounds: CallRounds<R>, reason: string): void {
    if (rounds.done) return;
    this.forget(rounds);
    const inputs = [...rounds.inputs.values()];
    rounds.inputs.clear();
    for (const input of inputs) input.cancel(reason);
    rounds.controller.abort(new ProtocolError(ProtocolErrorCode.InternalError, `The call was cancelled: ${reason}.`));
    rounds.wake();
  }

  private forget<R>(rounds: CallRounds<R>): void {
    rounds.done = true;
    clearTimeout(rounds.expiry);
    this.byState.delete(rounds.id);
  }
}

/** Why an answer cannot be handed to the upstream request that asked, or undefined when it can. */
export function answerProblem(request: InputRequest, view: InputResponseView): string | undefined {
  switch (request.method) {
    case "elicitation/create": {
      if (view.kind !== "elicit") return "expected an elicitation result ({ action, content? })";
      if (view.action !== "accept") return undefined;
      const params = request.params as { mode?: string; requestedSchema?: unknown };
      if (params.mode === "url" || params.requestedSchema === undefined) return undefined;
      const problems = new ToolArgumentValidator(params.requestedSchema).check(view.content ?? {});
      return problems.length === 0 ? undefined : `the content does not match the requested schema (${problems.slice(0, 3).map((p) => `${p.path}: ${p.message}`).join("; ")})`;
    }
    case "sampling/createMessage":
      return view.kind === "sampling" ? undefined : "expected a sampling result ({ role, content, model })";
    default:
      return view.kind === "roots" ? undefined : "expected a roots result ({ roots })";
  }
}
