import { describe, expect, it } from "vitest";
import type { InputRequest, InputResponseView } from "@modelcontextprotocol/server";
import { answerProblem, InputRounds } from "../../src/gateway/passthrough/input-rounds.js";
import type { GatewayOrigin } from "../../src/gateway/passthrough/origin.js";

/** The rounds' own logic, without HTTP: the gateway tests (modern-rounds.test.ts) drive it with real clients. */
const origin = (): GatewayOrigin => ({ kind: "gateway-origin" }) as unknown as GatewayOrigin;
const elicit = (message: string): InputRequest => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } },
});
const live = () => new AbortController().signal;

describe("InputRounds", () => {
  it("answers a call with input_required while the upstream waits, and with the result once the retry answers", async () => {
    const rounds = new InputRounds();
    const who = origin();
    const asked: InputResponseView[] = [];
    const first = await rounds.start(who, "alice", "call-1", live(), async () => {
      asked.push(await rounds.ask(who, elicit("name?"), live())!);
      asked.push(await rounds.ask(who, elicit("again?"), live())!);
      return "done";
    });
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { "elicit-1": elicit("name?") } });
    const state = (first as { requestState: string }).requestState;
    expect(rounds.waiting).toBe(1);
    const second = await rounds.resume(state, "alice", "call-1", { "elicit-1": { action: "accept", content: { name: "Ada" } } }, live());
    expect(second).toMatchObject({ resultType: "input_required", inputRequests: { "elicit-2": elicit("again?") }, requestState: state });
    expect(await rounds.resume(state, "alice", "call-1", { "elicit-2": { action: "decline" } }, live())).toBe("done");
    expect(asked).toEqual([
      { kind: "elicit", action: "accept", content: { name: "Ada" } },
      { kind: "elicit", action: "decline" },
    ]);
    expect(rounds.waiting).toBe(0);
    // Answered: the state is gone.
    await expect(rounds.resume(state, "alice", "call-1", {}, live())).rejects.toThrow(/Unknown or expired requestState/);
  });

  it("a state is unknown to another client, and refused for another call", async () => {
    const rounds = new InputRounds();
    const who = origin();
    const first = await rounds.start(who, "alice", "call-1", live(), async () => (await rounds.ask(who, elicit("name?"), live()))?.kind);
    const state = (first as { requestState: string }).requestState;
    await expect(rounds.resume(state, "mallory", "call-1", {}, live())).rejects.toThrow(/Unknown or expired requestState/);
    await expect(rounds.resume(state, "alice", "call-2", {}, live())).rejects.toThrow(/another tool or with other arguments/);
    // An unanswered retry asks again.
    expect(await rounds.resume(state, "alice", "call-1", {}, live())).toMatchObject({ inputRequests: { "elicit-1": expect.anything() } });
    expect(await rounds.resume(state, "alice", "call-1", { "elicit-1": { action: "accept", content: { name: "x" } } }, live())).toBe("elicit");
  });

  it("an answer off the schema cancels the call with an error naming the key", async () => {
    const rounds = new InputRounds();
    const who = origin();
    let signal: AbortSignal | undefined;
    const first = await rounds.start(who, "alice", "c", live(), async (s) => {
      signal = s;
      return (await rounds.ask(who, elicit("name?"), live()))?.kind;
    });
    const state = (first as { requestState: string }).requestState;
    await expect(rounds.resume(state, "alice", "c", { "elicit-1": { action: "accept", content: { name: 42 } } }, live())).rejects.toThrow(
      /elicit-1: the content does not match the requested schema.*name/,
    );
    expect(signal?.aborted).toBe(true);
    expect(rounds.waiting).toBe(0);
  });

  it("a call whose client never comes back is cancelled after the wait: the question ends as cancel", async () => {
    const rounds = new InputRounds(50);
    const who = origin();
    let answer: InputResponseView | undefined;
    let signal: AbortSignal | undefined;
    const first = await rounds.start(who, "alice", "c", live(), async (s) => {
      signal = s;
      answer = await rounds.ask(who, elicit("name?"), live());
      return "late";
    });
    expect(first).toMatchObject({ resultType: "input_required" });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answer).toEqual({ kind: "elicit", action: "cancel" });
    expect(signal?.aborted).toBe(true);
    expect(rounds.waiting).toBe(0);
  });

  it("the client cancelling its request cancels the call", async () => {
    const rounds = new InputRounds();
    const who = origin();
    const request = new AbortController();
    let signal: AbortSignal | undefined;
    const answering = rounds.start(who, "alice", "c", request.signal, async (s) => {
      signal = s;
      await new Promise((resolve) => s.addEventListener("abort", resolve));
      throw new Error("cancelled upstream");
    });
    request.abort();
    await expect(answering).rejects.toThrow("cancelled upstream");
    expect(signal?.aborted).toBe(true);
  });

  it("asks nothing for an origin without a call in rounds", () => {
    expect(new InputRounds().ask(origin(), elicit("?"), live())).toBeUndefined();
  });
});

describe("answerProblem", () => {
  it("checks the kind of answer and an accepted form against its schema", () => {
    expect(answerProblem(elicit("?"), { kind: "elicit", action: "accept", content: { name: "a" } })).toBeUndefined();
    expect(answerProblem(elicit("?"), { kind: "elicit", action: "accept", content: {} })).toMatch(/name/);
    expect(answerProblem(elicit("?"), { kind: "elicit", action: "decline" })).toBeUndefined();
    expect(answerProblem(elicit("?"), { kind: "missing" })).toMatch(/expected an elicitation result/);
    const url: InputRequest = { method: "elicitation/create", params: { mode: "url", message: "open", url: "https://example.com", elicitationId: "e1" } };
    expect(answerProblem(url, { kind: "elicit", action: "accept" })).toBeUndefined();
    const sample: InputRequest = { method: "sampling/createMessage", params: { messages: [], maxTokens: 5 } };
    expect(answerProblem(sample, { kind: "elicit", action: "accept" })).toMatch(/expected a sampling result/);
  });
});
