// Profiling aid (not a benchmark): the information-flow guard's own CPU per call (src/mcp/flow) on
// two builds, as the service runs it on a guest call: guardFlow on the arguments, then the result
// labelled, N calls of one run (one scope) on one server, the result shaped like an echo's. Cases:
// short or long messages, and "other": another server's 2 KB result labelled at the start of the
// run (every argument is then searched for its windows). Builds alternate per round; CPU of this
// process (one thread), median of the rounds.
//   node bench/_flow-micro.mjs <calls> <rounds> <distA> <distB>
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [CALLS, ROUNDS, A, B] = process.argv.slice(2);
const N = Number(CALLS);
const builds = {};
for (const dir of [A, B]) {
  const load = (p) => import(pathToFileURL(resolve(dir, p)).href);
  const [{ guardFlow, runFlows }, { createRunScope }] = await Promise.all([load("src/mcp/flow/guard.js"), load("src/sandbox/types.js")]);
  builds[dir] = { guardFlow, runFlows, createRunScope };
}
const code = `const e = require("host:mcp-everything"); for (let i = 0; i < ${N}; i++) e.echo({ message: "ping " + i }); return ${N};`;
const messages = {
  short: (i) => `ping ${i}`,
  long: (i) => `a longer message to send back, number ${i}`,
};
const other = Array.from({ length: 40 }, (_, i) => `line ${i} of a file another server returned, with words`).join("\n");
const options = { policy: { default: "ask", allow: [] }, ask: undefined, record: async () => {} };
async function runOnce({ guardFlow, runFlows, createRunScope }, message, withOther) {
  const flows = runFlows({ scope: createRunScope(code) });
  if (withOther) flows.index.label("files", { content: [{ type: "text", text: other }] });
  for (let i = 0; i < N; i++) {
    const args = { message: message(i) };
    await guardFlow(flows, { server: "everything", tool: "echo", annotations: undefined, args }, options);
    flows.index.label("everything", { content: [{ type: "text", text: `Echo: ${args.message}` }] });
  }
}
const cases = [
  ["short", messages.short, false],
  ["long", messages.long, false],
  ["long+other", messages.long, true],
];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const start = loadavg()[0];
console.log(`${N} calls per run, ${ROUNDS} rounds; CPU µs per call (median)`);
for (const [name, message, withOther] of cases) {
  const cpu = Object.fromEntries(Object.keys(builds).map((k) => [k, []]));
  for (let w = 0; w < 3; w++) for (const b of Object.values(builds)) await runOnce(b, message, withOther);
  for (let r = 0; r < Number(ROUNDS); r++) {
    const order = Object.keys(builds);
    if (r % 2 === 1) order.reverse();
    for (const k of order) {
      const c0 = process.cpuUsage();
      await runOnce(builds[k], message, withOther);
      const c = process.cpuUsage(c0);
      cpu[k].push((c.user + c.system) / N);
    }
  }
  console.log(`${name.padEnd(11)} ${Object.entries(cpu).map(([k, v]) => `${k}: ${median(v).toFixed(2)}`).join("   ")}`);
}
console.log(`load ${start.toFixed(2)} → ${loadavg()[0].toFixed(2)}`);
