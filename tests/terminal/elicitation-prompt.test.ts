import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { askElicitationOnTerminal } from "../../src/terminal/elicitation-prompt.js";
import { auditedElicit } from "../../src/mcp/elicitation/audited.js";
import type { AuditEvent } from "../../src/audit-log/index.js";
import type { ServerRequestContext } from "../../src/mcp/client-manager/index.js";
import type { CommandContext } from "../../src/terminal/command.js";

/**
 * A terminal conversation: each time the program asks (its stderr ends with a question), the next
 * answer is typed. What the program wrote is kept for the assertions.
 */
function terminal(answers: string[], interactive = true): { context: CommandContext; screen: () => string } {
  const stdin = new PassThrough();
  const stderr = new PassThrough();
  let screen = "";
  stderr.on("data", (chunk: Buffer) => {
    screen += chunk.toString("utf8");
    if (/(: |\] )$/.test(screen) && answers.length > 0) setImmediate(() => stdin.write(`${answers.shift()}\n`));
  });
  const context = {
    io: { stdin, stdout: new PassThrough(), stderr, env: {}, cwd: process.cwd() },
    colours: { enabled: false },
    host: () => Promise.reject(new Error("no host in this test")),
    interactive,
    assumeYes: false,
    json: false,
  } as unknown as CommandContext;
  return { context, screen: () => screen };
}

const form = {
  message: "Book a table",
  requestedSchema: {
    type: "object",
    properties: {
      name: { type: "string", title: "Name" },
      guests: { type: "integer", minimum: 1, maximum: 8, default: 2 },
      seating: { type: "string", oneOf: [{ const: "in", title: "Inside" }, { const: "out", title: "Terrace" }] },
    },
    required: ["name", "seating"],
  },
};

describe("an MCP server's elicitation asked on the terminal", () => {
  it("asks each field, applies defaults, retries a bad answer, and sends what the person confirmed", async () => {
    const { context, screen } = terminal(["Ada", "", "3", "2", "y"]);
    const result = await askElicitationOnTerminal(context, "restaurant", form);
    expect(result).toEqual({ action: "accept", content: { name: "Ada", guests: 2, seating: "out" } });
    expect(screen()).toContain("MCP server restaurant asks: Book a table");
    expect(screen()).toContain("guests [2]: ");
    expect(screen()).toContain("seating: choose one of 1) Inside, 2) Terrace");
    expect(screen()).toContain("Send this to restaurant? [y/N] ");
  });

  it("declines when the person says no at the end, and cancels after three wrong answers", async () => {
    expect(await askElicitationOnTerminal(terminal(["Ada", "", "1", "n"]).context, "restaurant", form)).toEqual({ action: "decline" });
    const { context, screen } = terminal(["", "", ""]);
    expect(await askElicitationOnTerminal(context, "restaurant", form)).toEqual({ action: "cancel" });
    expect(screen()).toContain("No valid answer for Name after 3 tries: cancelled.");
  });

  it("declines with a reason when no person can answer, without reading stdin", async () => {
    const { context, screen } = terminal([], false);
    expect(await askElicitationOnTerminal(context, "restaurant", form)).toEqual({ action: "decline" });
    expect(screen()).toContain('asked for input ("Book a table") but there is no terminal to ask on: declined');
  });

  it("shows a URL-mode request's address escaped and refuses one that is not a web URL", async () => {
    const { context, screen } = terminal(["y"]);
    expect(await askElicitationOnTerminal(context, "bank", { mode: "url", message: "Link your account\u001b[2J", url: "https://bank.example/link?x=1" })).toEqual({ action: "accept" });
    expect(screen()).toContain("https://bank.example/link?x=1");
    expect(screen()).not.toContain("\u001b[2J");
    expect(await askElicitationOnTerminal(terminal(["y"]).context, "bank", { mode: "url", message: "x", url: "javascript:alert(1)" })).toEqual({ action: "decline" });
  });

  it("--yes does not send a form: the person is still asked whether it goes", async () => {
    const { context, screen } = terminal(["Ada", "", "1", ""]);
    const result = await askElicitationOnTerminal({ ...context, assumeYes: true }, "restaurant", form);
    expect(result).toEqual({ action: "decline" });
    expect(screen()).toContain("Send this to restaurant? [y/N] ");
    expect(screen()).toContain("Not sent: restaurant is told you declined.");
  });

  it("asks through the line asker a face passes (the REPL's reader); its rejection (Ctrl-C) cancels the form", async () => {
    const { context, screen } = terminal([]);
    const asked: string[] = [];
    const answers = ["Ada"];
    const asker = {
      ask: async (question: string) => {
        asked.push(question.split("\n").at(-1) ?? "");
        const next = answers.shift();
        if (next === undefined) throw new Error("cancelled");
        return next;
      },
    };
    expect(await askElicitationOnTerminal(context, "restaurant", form, asker)).toEqual({ action: "cancel" });
    expect(asked).toEqual(["  Name*: ", "  guests [2]: "]);
    expect(screen()).toContain("Cancelled: restaurant is told you cancelled the form.");
  });
});

describe("elicitation outcomes in the audit log", () => {
  it("records the server, the mode, the number of fields and the action, never the answers", async () => {
    const events: AuditEvent[] = [];
    const elicit = auditedElicit(async () => ({ action: "accept", content: { name: "secret-answer" } }), async (event) => {
      events.push(event);
    });
    const ctx = { server: "restaurant" } as ServerRequestContext;
    await elicit({ mode: "form", message: "Book", requestedSchema: form.requestedSchema as never }, ctx);
    await elicit({ mode: "url", message: "Link", url: "https://bank.example/", elicitationId: "e1" }, { ...ctx, server: "bank" });
    expect(events).toEqual([
      { event: "mcp.elicitation", subject: "restaurant", decision: "accept", details: { mode: "form", fields: 3 } },
      { event: "mcp.elicitation", subject: "bank", decision: "accept", details: { mode: "url" } },
    ]);
    expect(JSON.stringify(events)).not.toContain("secret-answer");
  });
});
