// Where a guest MCP call's microseconds go, layer by layer (bench/mcp.mjs's "Where a guest call's µs go").
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { McpvmHost } from "../dist/src/host/index.js";
import { time } from "./_stats.mjs";
import { EVERYTHING, makeHome, mustSucceed, pastRacyWindow, sequentialEcho } from "./_mcp-common.mjs";

/**
 * (a3) Where a guest call's µs go: the same echo call entered at each layer of the path, in one
 * process, one server-everything. CPU time of this process (main thread and sandbox worker), which
 * moves far less with other load on the machine than wall time, and wall time beside it.
 */
export const LAYERS = { calls: 1000, rounds: 5, warmup: 2 };
export async function layers() {
  const home = await makeHome({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } });
  const host = await McpvmHost.open({ env: home.env });
  // The same guest loop on the in-thread engine, in the same rounds: its own host and server.
  const inlineHome = await makeHome({ everything: { command: process.execPath, args: [EVERYTHING, "stdio"] } }, "quickjs-inline");
  const inlineHost = await McpvmHost.open({ env: inlineHome.env });
  const client = new Client({ name: "mcpvm-bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }));
  const n = LAYERS.calls;
  try {
    mustSucceed(await host.run(sequentialEcho(1)));
    mustSucceed(await inlineHost.run(sequentialEcho(1)));
    const service = await host.requireMcp();
    const loaded = await host.hostModules();
    const runSignal = new AbortController().signal;
    const module = await loaded.modules["mcp-everything"].load({ signal: runSignal, deadline: Date.now() + 600_000 });
    await pastRacyWindow();
    const args = (i) => ({ message: `ping ${i}` });
    const loop = (fn) => async () => {
      for (let i = 0; i < n; i += 1) await fn(i);
    };
    const steps = {
      direct: loop((i) => client.callTool({ name: "echo", arguments: args(i) })),
      raw: loop((i) => service.clients.callToolRaw("everything", "echo", args(i), {})),
      converted: loop((i) => service.clients.callTool("everything", "echo", args(i), {})),
      module: loop((i) => module.echo([args(i)], { module: "mcp-everything", fn: "echo", signal: runSignal, deadline: Date.now() + 600_000 })),
      empty: async () => mustSucceed(await host.run(sequentialEcho(0))),
      guest: async () => mustSucceed(await host.run(sequentialEcho(n))),
      inlineEmpty: async () => mustSucceed(await inlineHost.run(sequentialEcho(0))),
      inlineGuest: async () => mustSucceed(await inlineHost.run(sequentialEcho(n))),
    };
    const measure = async (fn) => {
      const before = process.cpuUsage();
      const wall = await time(fn);
      const used = process.cpuUsage(before);
      return { cpu: (used.user + used.system) / 1000, wall };
    };
    const samples = Object.fromEntries(Object.keys(steps).map((k) => [k, []]));
    // Warm-up rounds first: the JIT and V8's wasm tier-up, not the call path, dominate a fresh host's first thousands of calls.
    for (let round = 0; round < LAYERS.warmup; round += 1) for (const step of Object.values(steps)) await step();
    for (let round = 0; round < LAYERS.rounds; round += 1) {
      const order = Object.keys(steps);
      if (round % 2 === 1) order.reverse();
      for (const key of order) samples[key].push(await measure(steps[key]));
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const perCall = (key, field) => (median(samples[key].map((x) => x[field])) / n) * 1000;
    const out = {};
    for (const field of ["cpu", "wall"]) {
      out[field] = {
        direct: perCall("direct", field),
        raw: perCall("raw", field),
        converted: perCall("converted", field),
        module: perCall("module", field),
        guest: perCall("guest", field) - (median(samples.empty.map((x) => x[field])) / n) * 1000,
        inline: perCall("inlineGuest", field) - (median(samples.inlineEmpty.map((x) => x[field])) / n) * 1000,
      };
    }
    return out;
  } finally {
    await client.close();
    await host.close();
    await inlineHost.close();
    await home.cleanup();
    await inlineHome.cleanup();
  }
}
