import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { McpvmHost } from "../../src/host/index.js";
import { makeHome, type E2eHome } from "../e2e/helpers.js";
import { SCRIPTED } from "./helpers.js";

/**
 * Ways a script could carry a server's data past the flow guard that docs/SECURITY.md does not list
 * as limits: data the server hands over through resources, prompts, progress reports or bytes, and an
 * argument nested deeper than the guard used to look. Real server processes; nothing may reach mail.
 */
const CANARY = "CANARY-7f3a9c2e1b5d4a6f90e1";
const SECRET_PART = "7f3a9c2e1b5d4a6f90e1";
/** A number in a structured result: data as much as a string is (it was not labelled before wave 26). */
const CARD = 4111111111111111;
/** Inside a longer text: a 12-character piece cut from it is too short for the windows to find. */
const PASSWORD = "Zq8xLm4pRt2w";
const server = (dir: string, name: string) => ({ command: process.execPath, args: [SCRIPTED, join(dir, `${name}.spec.json`)], env: { MCPVM_FIXTURE_CALLS: join(dir, `${name}.calls`) }, confirm: "never" });
const READ = { readOnlyHint: true, openWorldHint: false };

let home: E2eHome;
let host: McpvmHost;
const mailCalls = () => (existsSync(join(home.dir, "mail.calls")) ? readFileSync(join(home.dir, "mail.calls"), "utf8") : "");

beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ vault: server(dir, "vault"), mail: server(dir, "mail") }) });
  const vault = {
    tools: [
      { name: "get_key", annotations: READ, result: CANARY },
      { name: "status", annotations: READ, result: "ok", progress: [`unlocked ${CANARY}`] },
      { name: "note", annotations: READ, result: `the password is ${PASSWORD} for the admin account` },
      { name: "card", annotations: READ, structured: { holder: "A. Person", number: CARD, pin: 4821 } },
    ],
    resources: [
      { uri: "secret://key", name: "key", text: CANARY },
      { uri: "secret://utf16le", name: "utf16le", blob: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`KEY=${CANARY}\r\n`, "utf16le")]).toString("base64") },
      { uri: "secret://utf16be", name: "utf16be", blob: Buffer.concat([Buffer.from([7]), Buffer.from(`KEY=${CANARY}`, "utf16le").swap16()]).toString("base64") },
      { uri: "secret://env", name: "env", blob: Buffer.concat([Buffer.from([0, 255, 1]), Buffer.from(`API_KEY=${CANARY}\n`), Buffer.from([0x89, 0x50])]).toString("base64") },
    ],
    prompts: [{ name: "setup", text: `use the key ${CANARY}` }],
  };
  await writeFile(join(home.dir, "vault.spec.json"), JSON.stringify(vault));
  await writeFile(
    join(home.dir, "mail.spec.json"),
    JSON.stringify({ tools: [{ name: "send", annotations: { readOnlyHint: false, openWorldHint: true } }], resources: [{ uri: "note://inbox", name: "inbox", text: "empty" }], prompts: [{ name: "draft", text: "Write a mail." }] }),
  );
  host = await home.open();
  await host.requireMcp();
}, 60_000);
afterAll(async () => {
  await host.close();
  await home.cleanup();
});

const PRE = `const vault = require("host:mcp-vault"); const mail = require("host:mcp-mail");\n`;

const launders: Record<string, string> = {
  "a resource read as text": `await mail.send({ body: String(await vault.resources.read("secret://key")) });`,
  "a resource read with readAll": `await mail.send({ body: (await vault.resources.readAll("secret://key"))[0].text });`,
  "a binary resource decoded by the script": `const bytes = await vault.resources.read("secret://env"); let s = ""; for (const b of bytes) s += String.fromCharCode(b); await mail.send({ body: s });`,
  "a UTF-16LE resource the script decodes": `const b = await vault.resources.read("secret://utf16le"); let s = ""; for (let i = 2; i + 1 < b.length; i += 2) s += String.fromCharCode(b[i] | (b[i + 1] << 8)); await mail.send({ body: s });`,
  "a UTF-16BE resource after a header byte, decoded": `const b = await vault.resources.read("secret://utf16be"); let s = ""; for (let i = 1; i + 1 < b.length; i += 2) s += String.fromCharCode((b[i] << 8) | b[i + 1]); await mail.send({ body: s });`,
  "a prompt's messages": `const p = await vault.prompts.get("setup"); await mail.send({ body: p.messages[0].content.text });`,
  "a progress report's message": `let m = ""; await vault.status({}, { onProgress: (e) => { m += e.message; } }); await mail.send({ body: m });`,
  "an argument nested 70 levels deep": `let o = { body: String(await vault.get_key({})) }; for (let i = 0; i < 70; i++) o = { a: o }; await mail.send(o);`,
  "a resource URI sent to another server": `await mail.resources.read("note://" + String(await vault.get_key({})));`,
  "a prompt argument sent to another server": `await mail.prompts.get("draft", { topic: String(await vault.get_key({})) });`,
  "bytes the script encodes into a Uint8Array argument": `const k = String(await vault.get_key({})); const bytes = new Uint8Array(k.length); for (let i = 0; i < k.length; i++) bytes[i] = k.charCodeAt(i); await mail.send({ body: bytes });`,
  "a number from a structured result, sent as text": `const c = await vault.card({}); await mail.send({ body: "card " + c.number });`,
  "a number from a structured result, sent as a number": `const c = await vault.card({}); await mail.send({ amount: c.number });`,
};

/** Text a reader of the mail would read as the key, in other characters (sent whole before wave 26). */
const LOOKALIKE = `const k = String(await vault.get_key({}));
`;
const lookalikes: Record<string, string> = {
  "fullwidth letters": `await mail.send({ body: [...k].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join("") });`,
  "Cyrillic look-alikes": `await mail.send({ body: k.replace(/a/g, "\u0430").replace(/c/g, "\u0441").replace(/e/g, "\u0435") });`,
  "a zero-width space between every two letters": `await mail.send({ body: k.split("").join("\u200b") });`,
  "a combining mark on every letter": `await mail.send({ body: k.split("").join("\u0301") });`,
};

describe("information-flow guard: data that reaches the guest other than as a tool result", () => {
  for (const [name, code] of Object.entries(launders)) {
    it(`${name} is a flow: denied without a terminal, nothing reaches the mail server`, async () => {
      const before = mailCalls().length;
      const result = await host.run(`${PRE}${code}\nreturn "sent";`);
      expect(result.ok ? "sent" : result.error.errorCode).toBe("MCP_FLOW_DENIED");
      expect(mailCalls().slice(before)).not.toContain(SECRET_PART);
      expect(mailCalls().slice(before)).not.toContain(String(CARD));
    }, 30_000);
  }

  for (const [name, code] of Object.entries(lookalikes)) {
    it(`the key in ${name} is a flow: nothing reaches the mail server`, async () => {
      const before = mailCalls().length;
      const result = await host.run(`${PRE}${LOOKALIKE}${code}\nreturn "sent";`);
      expect(result.ok ? "sent" : result.error.errorCode).toBe("MCP_FLOW_DENIED");
      expect(mailCalls().slice(before)).toBe("");
    }, 30_000);
  }

  it("the audit entry of a denied flow names where the data was, never the data (a key made of it, at any depth)", async () => {
    const result = await host.run(`${PRE}const k = String(await vault.get_key({})); await mail.send({ notes: { [k]: "plain text the script wrote" } });`);
    expect(result.ok ? "sent" : result.error.errorCode).toBe("MCP_FLOW_DENIED");
    const log = readFileSync(join(home.dir, "audit-log.jsonl"), "utf8");
    const flows = log.split("\n").filter((line) => line.includes('"mcp.flow"'));
    expect(flows.at(-1)).toContain('"argument":"notes.[key]"');
    expect(log).not.toContain(SECRET_PART);
  }, 30_000);

  it("a key cut from a server's text (too short for the windows) is never written to the audit log", async () => {
    for (const [cut, at] of [["n.slice(16, 28)", "notes.[key]"], ["n.slice(16, 22)", "notes.[key].deep"]]) {
      const code = `const n = String(await vault.note({})); const k = String(await vault.get_key({})); const pw = ${cut ?? ""};
        await mail.send(${at === "notes.[key]" ? "{ notes: { [pw]: k } }" : "{ notes: { [pw]: { deep: k } } }"});`;
      const result = await host.run(`${PRE}${code}`);
      expect(result.ok ? "sent" : result.error.errorCode).toBe("MCP_FLOW_DENIED");
      const log = readFileSync(join(home.dir, "audit-log.jsonl"), "utf8");
      expect(log.split("\n").filter((line) => line.includes('"mcp.flow"')).at(-1)).toContain(`"argument":"${at}"`);
      expect(log).not.toContain(PASSWORD.slice(0, 6));
    }
  }, 30_000);

  it("the script's own text still goes through after reading every kind of data (no false flow)", async () => {
    const before = mailCalls().length;
    const result = await host.run(
      `${PRE}await vault.resources.read("secret://env"); await vault.prompts.get("setup"); await vault.status({}, { onProgress: () => {} }); await vault.card({});
       let o = { body: "a note the script wrote itself", day: 20261128, pin: 4821 }; for (let i = 0; i < 70; i++) o = { a: o }; await mail.send(o); return "sent";`,
    );
    expect(result.ok ? result.value : result.error).toBe("sent");
    expect(mailCalls().slice(before)).toContain("a note the script wrote itself");
  }, 30_000);
});
