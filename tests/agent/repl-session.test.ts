import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { McpvmHost } from "../../src/host/index.js";
import { startScriptedLlmServer, type ChatRequest, type ScriptedLlmServer } from "../fixtures/llm/openai-server.js";
import { MEMORY, ReplDriver, tempHome } from "./repl-driver.js";

const toolNames = (request: ChatRequest | undefined) => (request?.tools ?? []).map((t) => t.function.name).sort();
const lastToolOutput = (request: ChatRequest) => String([...request.messages].reverse().find((m) => m.role === "tool")?.content ?? "");

describe("a scripted REPL session with a model, the mcp plugin and server-memory", () => {
  let server: ScriptedLlmServer | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await cleanup?.();
  });

  it("enables MCP, approves and enables memory, and the model searches, reads a module and runs code that (confirmed) creates, reads and (confirmed) deletes entities", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    server = await startScriptedLlmServer([
      { text: "Hello! MCP is off, so I can only run plain JavaScript." },
      { toolCalls: [{ name: "manage", arguments: { action: "enable", server: "memory" } }] },
      { toolCalls: [{ name: "module_info", arguments: { query: "create entities in the knowledge graph" } }] },
      { toolCalls: [{ name: "module_info", arguments: { name: "mcp-memory" } }] },
      {
        toolCalls: [
          {
            name: "execute_javascript",
            arguments: {
              code: [
                'const memory = require("host:mcp-memory");',
                'memory.create_entities({ entities: [{ name: "Ada", entityType: "person", observations: ["wrote the first program"] }, { name: "Scratch", entityType: "note", observations: ["temporary"] }] });',
                "const graph = memory.read_graph({});",
                'console.log("entities:", graph.entities.length);',
                "return graph.entities.map((e) => `${e.name} (${e.entityType}): ${e.observations.join(\"; \")}`);",
              ].join("\n"),
            },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: "execute_javascript",
            arguments: { code: 'const memory = require("host:mcp-memory");\nmemory.delete_entities({ entityNames: ["Scratch"] });\nreturn memory.read_graph({}).entities.map((e) => e.name);' },
          },
        ],
      },
      (request) => ({ text: `Done. The graph now holds: ${lastToolOutput(request)}` }),
    ]);
    const env = { MCPVM_HOME: home.dir, HOME: home.dir, PATH: process.env.PATH ?? "", MCPVM_MODEL: "openai-compatible:scripted", MCPVM_BASE_URL: server.url, MCPVM_API_KEY: "sk-test-0123456789" };
    const repl = new ReplDriver(env);
    await repl.start();
    await repl.expect("model: openai-compatible:scripted");
    await repl.expect("MCP: off");

    await repl.command("hello");
    await repl.expect("I can only run plain JavaScript.");
    await repl.command("/mcp list");
    await repl.expect("/plugin approve mcp");

    await repl.enableMcp();

    const memoryFile = join(home.dir, "memory.jsonl");
    await repl.command(`/mcp add memory --stdio --env MEMORY_FILE_PATH=${memoryFile} -- ${process.execPath} ${MEMORY}`);
    await repl.expect("added memory");
    await repl.command("/mcp list");
    await repl.expect(/memory\s+stdio\s+(idle|needs approval)\s+not approved/);

    await repl.command("Remember Ada, then tidy up.");
    await repl.expect("⚙ manage");
    await repl.expect("MCP server");
    await repl.expect('The assistant asks to enable MCP server "memory". Approve it? [y/N]');
    repl.send("y");
    await repl.expect('"enabled": "memory"');
    await repl.expect("⚙ module_info");
    // Search results carry whole compact signatures: a match can be called without another look-up.
    await repl.expect("create_entities({entities: {name: string, entityType: string, observations: string[]}[]})");
    await repl.expect("⚙ module_info");
    // Compact signatures: a shared object type is named once.
    await repl.expect("type Entity = {name: string, entityType: string, observations: string[]}");
    await repl.expect("⚙ execute_javascript");
    // create_entities says destructiveHint: false, but it is not read-only: under the default policy it is asked about too.
    await repl.expect("MCP call memory.create_entities (the tool is not marked read-only)");
    await repl.expect("the server says it changes things, it does not delete or overwrite");
    await repl.expect("Allow this call? [y/N]");
    repl.send("y");
    await repl.expect("Ada (person): wrote the first program");
    await repl.expect("Scratch (note): temporary");
    await repl.expect("entities: 2");
    await repl.expect("⚙ execute_javascript");
    await repl.expect("MCP call memory.delete_entities (the tool is not marked read-only)");
    await repl.expect('"Scratch"');
    await repl.expect("Allow this call? [y/N]");
    repl.send("y");
    await repl.expect(/"result": \[[\s↳]*"Ada"[\s↳]*\]/);
    await repl.expect('Done. The graph now holds: {"result":["Ada"]');

    const host = repl.host as McpvmHost;
    const pid = host.mcp()?.clients.status("memory").pid;
    expect(pid).toBeGreaterThan(0);
    await repl.command("/tokens");
    await repl.expect(/session:\s+\d+ in, \d+ out, \d+ total over 2 messages/);
    await repl.command("/exit");
    await repl.expect("bye");
    expect(await repl.finish()).toBe(0);

    // The approval prompt the person saw is exactly what /mcp approve shows.
    const check = await McpvmHost.open({ env });
    try {
      expect(repl.transcript).toContain(await (await check.requireMcp()).approvalPrompt("memory"));
    } finally {
      await check.close();
    }
    // The same three tools with MCP off and on: what needs MCP says how to turn it on.
    expect(toolNames(server.requests[0])).toEqual(["execute_javascript", "manage", "module_info"]);
    expect(toolNames(server.requests[1])).toEqual(["execute_javascript", "manage", "module_info"]);
    // The system message lists modules with one line each once memory is connected.
    expect(server.requests.at(-1)?.messages[0]?.content).toContain("- mcp-memory: ");
    expect(JSON.stringify(server.requests)).not.toContain("sk-test-0123456789");
    // Every connection is closed on exit: the server process is gone.
    expect(() => process.kill(pid as number, 0)).toThrow();
    const stored = await readFile(memoryFile, "utf8");
    expect(stored).toContain("Ada");
    expect(stored).not.toContain("Scratch");
    const history = await readFile(join(home.dir, "history"), "utf8");
    expect(history).toContain("/plugin enable mcp");
    expect(history).not.toMatch(/^y$/m);
  }, 60_000);
});
