import { readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startGateway } from "../../src/gateway/index.js";
import { ToolsetStore } from "../../src/gateway/toolsets/store.js";
import { mcpServerEntrySchema, resolveLaunch } from "../../src/mcp/config/index.js";
import { ReplDriver } from "../agent/repl-driver.js";
import { startScriptedLlmServer, type ChatRequest } from "../fixtures/llm/openai-server.js";
import { cli, cliProcess, makeHome, openHost, scriptedServer, writeScript, type TrustHome } from "./helpers.js";

/**
 * Issue 17 items 3 and 10. Secrets that look like nothing in particular — a password, a passphrase
 * with spaces, a variable filled in from the host, a Slack webhook URL, a 6-digit PIN, a value under a
 * name that says nothing — configured for a server that echoes its env in results, errors and
 * stderr. None may reach any face. And guest code must not be able to use the masking itself to
 * find the PIN.
 */
const PIN = "482915";
const CANARIES: Record<string, string> = {
  DB_PASS: "hunter2hunter",
  PASSPHRASE: "correct horse battery staple",
  /** Configured as `${SMTP_PASS}`, filled in from the host environment. */
  SMTP_PASS: "Tr0ub4dor&3",
  NOTIFY_URL: "https://hooks.slack.com/services/T0ABCDEF1/B0ABCDEF2/q8XyZ3kLmN4pQrStUvWxYz12",
  PIN,
  /** A name that says nothing, a value that looks like nothing. */
  ACCOUNT: "blue whale 42",
};
const NAMES = Object.keys(CANARIES);

function forms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(secret).toString("base64").replace(/=+$/, ""), JSON.stringify(secret).slice(1, -1)];
}

function expectNoCanary(where: string, text: string): void {
  for (const [name, secret] of Object.entries(CANARIES)) {
    for (const form of forms(secret)) {
      if (text.includes(form)) {
        const at = text.indexOf(form);
        throw new Error(`canary ${name} (form ${JSON.stringify(form)}) leaked into ${where}:\n${text.slice(Math.max(0, at - 300), at + form.length + 100)}`);
      }
    }
  }
}

const env = (name: string) => `$ENV{${name}}`;

const RELAY_SPEC = {
  stderrAtStart: `relay: starting with ${NAMES.map((n) => `${n}=${env(n)}`).join(" ")}`,
  tools: [
    { name: "leak", description: "Returns an env value in several encodings.", inputSchema: { type: "object", properties: { name: { type: "string" } } } },
    {
      name: "settings",
      description: "Reports the relay settings.",
      result: `${NAMES.map((n) => `${n}=${env(n)}`).join("; ")}; format=${env("LOG_FORMAT")}; mode=${env("MODE")}`,
    },
    { name: "login", description: "Signs in to the relay.", result: `login refused for password ${env("DB_PASS")} and pin ${env("PIN")}`, isError: true },
    // A short public value configured as LOG_FORMAT=text must not turn this schema or its results into "****".
    { name: "render", description: "Renders in a format.", inputSchema: { type: "object", properties: { format: { type: "string", enum: ["text", "json"], default: "text" } } } },
    {
      name: "check",
      description: "Checks a code.",
      inputSchema: { type: "object", properties: { n: { type: "number", maximum: 10 }, code: { type: "string", maxLength: 3 } }, additionalProperties: false },
    },
    { name: "die", description: "Exits.", inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  ],
};

/** Every way the relay can show its env: results in four encodings, a summary, an error result, stderr, a crash. */
const SCENARIO = `
const relay = require("host:mcp-relay");
const out = {};
const attempt = (label, fn) => { try { out[label] = fn(); } catch (e) { out[label] = { error: e.name + ": " + e.message }; } };
for (const name of ${JSON.stringify(NAMES)}) attempt("leak_" + name, () => relay.leak({ name }));
attempt("settings", () => relay.settings({}));
attempt("login", () => relay.login({}));
attempt("render", () => relay.render({ format: "text" }));
console.log("settings seen:", out.settings);
attempt("die", () => relay.die({ text: "fatal: relay lost pin $ENV{PIN} and password $ENV{DB_PASS}" }));
return out;
`;

let home: TrustHome;

beforeAll(async () => {
  home = await makeHome({
    env: { SMTP_PASS: CANARIES.SMTP_PASS as string, VAULT_PIN: "730614" },
    servers: (starts, dir) => ({
      relay: scriptedServer(starts, join(dir, "relay.json"), {
        DB_PASS: CANARIES.DB_PASS as string,
        PASSPHRASE: CANARIES.PASSPHRASE as string,
        SMTP_PASS: "${SMTP_PASS}",
        NOTIFY_URL: CANARIES.NOTIFY_URL as string,
        PIN,
        ACCOUNT: CANARIES.ACCOUNT as string,
        LOG_FORMAT: "text",
        MODE: "production",
      }),
      // Never approved: its approval prompt is what the person would read.
      vault: scriptedServer(starts, join(dir, "relay.json"), { PIN: "${VAULT_PIN}", DB_PASS: "hunter2hunter" }),
    }),
    approve: ["relay"],
  });
  await writeFile(join(home.dir, "relay.json"), JSON.stringify(RELAY_SPEC));
  await writeScript(home, "scenario.js", SCENARIO);
  const accepted = await cli(home, ["--yes", "mcp", "approve", "relay", "--tools"]);
  if (accepted.code !== 0) throw new Error(`approving relay's tools: ${accepted.stderr}`);
}, 60_000);

afterAll(async () => {
  await home?.cleanup();
});

type Outcome = Record<string, { error?: string; raw?: string; url?: string; base64?: string; value?: unknown } | string | undefined>;

/** What the scenario's result must show: values masked, public ones intact, every path taken. */
function expectScenarioMasked(out: Outcome): void {
  for (const name of NAMES) expect(out[`leak_${name}`], name).toEqual({ raw: "****", url: "****", base64: "****" });
  expect(out.settings).toBe(`${NAMES.map((n) => `${n}=****`).join("; ")}; format=text; mode=production`);
  expect((out.login as { error: string }).error).toContain("login refused for password **** and pin ****");
  expect(out.render).toEqual({ tool: "render", args: { format: "text" } });
  expect((out.die as { error: string }).error).toMatch(/^McpTransportError: MCP tool relay\.die failed/);
}

describe("item 3: every configured env value is masked by value, whatever it looks like", () => {
  it("the launch lists each canary (literal and from ${VAR}) as a secret, and the public values not", async () => {
    const launch = await resolveLaunch(
      "relay",
      mcpServerEntrySchema.parse({ command: "node", args: ["/srv/relay.js"], env: { ...CANARIES, SMTP_PASS: "${SMTP_PASS}", LOG_FORMAT: "text", HOME: "/home/u" } }),
      { env: { SMTP_PASS: CANARIES.SMTP_PASS } },
    );
    expect([...launch.secrets].sort()).toEqual(Object.values(CANARIES).sort());
    const remote = await resolveLaunch("r", mcpServerEntrySchema.parse({ url: "https://relay.example/mcp", headers: { "X-Account": "${ACCOUNT}", Accept: "application/json" } }), {
      env: { ACCOUNT: CANARIES.ACCOUNT },
    });
    expect(remote.secrets).toEqual([CANARIES.ACCOUNT]);
  });

  it("guest results (host.run): value and logs", async () => {
    const host = await openHost(home);
    try {
      const result = await host.run(SCENARIO);
      expectNoCanary("the run result", JSON.stringify(result));
      expect(result.ok).toBe(true);
      expectScenarioMasked((result.ok ? result.value : {}) as Outcome);
      expect(result.logs.map((l) => l.message).join("\n")).toContain("settings seen: DB_PASS=****");
    } finally {
      await host.close();
    }
  }, 60_000);

  it("a short public value (LOG_FORMAT=text) leaves tool schemas alone", async () => {
    const types = await cli(home, ["mcp", "types", "relay"]);
    expect(types.code, types.stderr).toBe(0);
    expect(types.stdout).toContain('"text"');
    expect(types.stdout).toContain('"json"');
    expect(types.stdout).not.toContain("****");
  }, 60_000);

  it("mcpvm run: text and --json output", async () => {
    for (const argv of [["run", "scenario.js", "--timeout", "20s"], ["--json", "run", "scenario.js", "--timeout", "20s"]]) {
      const run = await cli(home, argv);
      expect(run.code, run.stderr).toBe(0);
      expectNoCanary(`stdout of ${argv.join(" ")}`, run.stdout);
      expectNoCanary(`stderr of ${argv.join(" ")}`, run.stderr);
      expect(run.stdout).toContain("format=text; mode=production");
    }
  }, 60_000);

  it("the debug log: the server's stderr lines, its crash and every log line, on the console and in the log file", async () => {
    const run = await cliProcess(home, ["--log-level", "debug", "run", "scenario.js", "--timeout", "20s"]);
    expect(run.code, run.stderr).toBe(0);
    expectNoCanary("process stdout", run.stdout);
    expectNoCanary("process stderr", run.stderr);
    const dir = join(home.dir, "logs");
    const logs = readdirSync(dir)
      .map((file) => readFileSync(join(dir, file), "utf8"))
      .join("\n");
    expectNoCanary("the log files", logs);
    for (const text of [run.stderr, logs]) {
      expect(text).toContain(`relay: starting with ${NAMES.map((n) => `${n}=****`).join(" ")}`);
      expect(text).toContain("fatal: relay lost pin **** and password ****");
    }
  }, 60_000);

  it("the REPL: nothing the model is sent holds a canary", async () => {
    const llm = await startScriptedLlmServer([
      { toolCalls: [{ name: "execute_javascript", arguments: { code: SCENARIO } }] },
      (request: ChatRequest) => ({ text: `the relay said: ${String(request.messages.find((m) => m.role === "tool")?.content ?? "").slice(0, 80)}` }),
    ]);
    const repl = new ReplDriver({ ...home.env, MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: llm.url, MCPVM_API_KEY: "sk-test-0123456789" });
    try {
      await repl.start();
      await repl.command("what does the relay know?");
      await repl.expect("the relay said:", 30_000);
      await repl.command("/exit");
      expect(await repl.finish()).toBe(0);
      expect(llm.requests).toHaveLength(2);
      const sent = JSON.stringify(llm.requests);
      expectNoCanary("the requests to the model", sent);
      expect(sent).toContain("format=text; mode=production");
      expect(sent).toContain("DB_PASS=****");
      expectNoCanary("the REPL transcript", repl.transcript);
    } finally {
      await repl.host?.close();
      await llm.close();
    }
  }, 60_000);

  it("gateway clients: run_mcp_script and direct tools", async () => {
    await new ToolsetStore(join(home.dir, "toolsets.json")).save({ name: "relay-tools", tools: ["relay.leak", "relay.settings"] });
    const token = "gateway-token-0123456789abcdef";
    const running = await startGateway({ env: home.env, http: { host: "127.0.0.1", port: 0 }, token, logLevel: "error", pretty: false, toolset: "relay-tools" });
    const client = new Client({ name: "secrets-test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(running.url as string), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
      const results = [
        await client.callTool({ name: "run_mcp_script", arguments: { script: SCENARIO } }),
        ...(await Promise.all(NAMES.map((name) => client.callTool({ name: "relay_leak", arguments: { name } })))),
        await client.callTool({ name: "relay_settings", arguments: {} }),
      ];
      // The gateway's own token is a secret too.
      const echoed = await client.callTool({ name: "run_mcp_script", arguments: { script: `return "token: ${token}"` } });
      expect(JSON.stringify(echoed)).not.toContain(token);
      expect(JSON.stringify(echoed)).toContain("token: ****");
      const text = JSON.stringify(results);
      expectNoCanary("gateway results", text);
      expect(text).toContain("format=text; mode=production");
      expect(text).toContain("raw ****");
    } finally {
      await client.close();
      await running.close();
    }
  }, 60_000);
});

/**
 * The attack of item 10, as guest code: try candidate PINs through every host error that could
 * echo what it was given (an unknown tool in $batch, a very long tool name, a $batch with too many
 * calls, an undeclared argument, a number over the schema's maximum, a string over its maxLength,
 * plus the guest-side errors for unknown functions and modules), look for the one that comes back
 * masked, and return it digit by digit (which no redactor would catch).
 */
const candidates = Array.from({ length: 5 }, (_, i) => String(Number(PIN) - 2 + i));
const ATTACK = `
const relay = require("host:mcp-relay");
const candidates = ${JSON.stringify(candidates)};
const probes = {
  batchUnknownTool: (c) => relay.$batch(c, [{}]),
  batchLongName: (c) => relay.$batch("t".repeat(Number(c)), [{}]),
  batchCount: (c) => relay.$batch("check", new Array(Number(c)).fill(0)),
  undeclaredKey: (c) => relay.check({ [c]: 1 }),
  numberOverMaximum: (c) => relay.check({ n: Number(c) }),
  stringOverMaxLength: (c) => relay.check({ code: "x".repeat(Number(c)) }),
  unknownFunction: (c) => relay[c]({}),
  unknownModule: (c) => require("host:" + c),
};
let recovered = null;
const shapes = {};
for (const [channel, probe] of Object.entries(probes)) {
  const seen = new Set();
  for (const c of candidates) {
    let message;
    try { probe(c); message = "no error"; } catch (e) { message = String(e && e.message); }
    if (message.includes("****")) recovered = c;
    // The guest's own text, where a guest-side error repeats it, is the same for every guess.
    seen.add(message.split(c).join("<guess>"));
  }
  shapes[channel] = [...seen];
}
return { digits: recovered === null ? null : recovered.split(""), shapes };
`;

describe("item 10: redaction is not an oracle", () => {
  it("guest code trying PINs through host errors cannot tell the right one, so it has no digits to return", async () => {
    const host = await openHost(home);
    try {
      const result = await host.run(ATTACK, { limits: { wallMs: 60_000, cpuMs: 30_000 } });
      expect(result.ok, JSON.stringify(result)).toBe(true);
      const value = (result.ok ? result.value : {}) as { digits: string[] | null; shapes: Record<string, string[]> };
      expect(value.digits).toBeNull();
      // Every channel answered every guess with one and the same text: nothing to tell them apart by.
      for (const [channel, messages] of Object.entries(value.shapes)) expect(messages, channel).toHaveLength(1);
      expect(Object.keys(value.shapes)).toHaveLength(8);
      expect(value.shapes.numberOverMaximum?.[0]).toContain("n: value is greater than 10.");
      expect(value.shapes.undeclaredKey?.[0]).toContain("‹a key of 6 characters›");
      expect(value.shapes.batchCount?.[0]).toContain("got 1000 or more");
    } finally {
      await host.close();
    }
  }, 120_000);

  it("the approval prompt warns that a digits-only PIN (here from ${VAULT_PIN}) can be guessed, without showing it", async () => {
    const info = await cli(home, ["mcp", "info", "vault"]);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toContain("NOTE: env.PIN (6 characters) is digits only.");
    expect(info.stdout).toContain("guest code can still guess a short, digits-only or one-word value");
    expect(info.stdout).not.toContain("730614");
    expectNoCanary("mcp info", info.stdout + info.stderr);
  }, 60_000);
});
