import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { LineReader } from "../../src/agent/repl/line-reader.js";
import { ReplPerson } from "../../src/agent/repl/person.js";
import { colours, type CliIo } from "../../src/terminal/io.js";
import { Spinner } from "../../src/terminal/spinner.js";
import type { CommandContext } from "../../src/terminal/command.js";
import type { CallConfirmationRequest } from "../../src/mcp/service/index.js";

function personAtKeyboard() {
  const input = new PassThrough();
  const stderr = new PassThrough();
  let said = "";
  stderr.on("data", (chunk: Buffer) => (said += chunk.toString()));
  const io: CliIo = { stdin: input, stdout: new PassThrough(), stderr, env: {}, cwd: process.cwd() };
  const context: CommandContext = { io, colours: colours({ isTTY: false }, {}), host: () => Promise.reject(new Error("no host in this test")), interactive: true, assumeYes: false, json: false, face: "repl" };
  const reader = new LineReader({ input, output: stderr });
  const step = new AbortController();
  const person = new ReplPerson(context, reader, new Spinner(stderr), () => step.abort(), () => step.signal);
  return { person, input, step, said: () => said };
}

const request = (n: number): CallConfirmationRequest => ({ server: "memory", tool: "create_entities", jsName: "create_entities", args: { n }, annotations: undefined, policy: "writes" });

describe("the REPL person's queue of call confirmations", () => {
  it("answers the question asked as the person typed it, and the ones queued behind a cancelled step as cancelled, without asking them", async () => {
    const { person, input, step, said } = personAtKeyboard();
    const first = person.confirmCall(request(1));
    const second = person.confirmCall(request(2));
    const third = person.confirmCall(request(3));
    await new Promise((resolve) => setImmediate(resolve));
    step.abort();
    input.write("n\n");
    expect(await first).toBe(false);
    expect(await second).toBe("cancelled");
    expect(await third).toBe("cancelled");
    expect(said().match(/Allow this call\?/g)).toHaveLength(1);
  });

  it("asks every queued question in turn while the step runs", async () => {
    const { person, input, said } = personAtKeyboard();
    const first = person.confirmCall(request(1));
    const second = person.confirmCall(request(2));
    input.write("y\n");
    expect(await first).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    input.write("n\n");
    expect(await second).toBe(false);
    expect(said().match(/Allow this call\?/g)).toHaveLength(2);
  });
});
