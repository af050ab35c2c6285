// `mcpvm run` of a trivial script as a whole process (issue 15 goal: <= 150 ms), against `node -e 0`
// (the floor: starting Node itself), interleaved in one run. The config home has the mcp plugin
// approved and enabled and one (unused) server configured, as a user's would.
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, summarize, table, time, verdict } from "./_stats.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const BIN = join(here, "..", "bin", "mcpvm.js");
const ROUNDS = 8;
// BENCH_CLI_BEFORE=<another build's bin/mcpvm.js>: measured in the same rounds, for a before/after row.
const BEFORE = process.env.BENCH_CLI_BEFORE;
const TARGET_MS = 150;

export default async function () {
  const home = await mkdtemp(join(tmpdir(), "mcpvm-bench-cli-"));
  const env = { ...process.env, MCPVM_HOME: home };
  await writeFile(join(home, "config.json"), JSON.stringify({ engine: "quickjs", mcpServers: { memory: { command: "npx", args: ["-y", "@modelcontextprotocol/server-memory"] } } }));
  execFileSync(process.execPath, [BIN, "plugin", "approve", "mcp", "--yes"], { env, stdio: "ignore" });
  execFileSync(process.execPath, [BIN, "plugin", "enable", "mcp"], { env, stdio: "ignore" });
  const runWith = (bin) => () => {
    if (execFileSync(process.execPath, [bin, "run", "-e", "return 1"], { env, encoding: "utf8" }).trim() !== "1") throw new Error("mcpvm run gave the wrong result");
  };
  const run = runWith(BIN);
  const bare = () => execFileSync(process.execPath, ["-e", "0"], { env });
  const load = loadavg()[0];
  try {
    run();
    bare();
    const ours = [];
    const floor = [];
    const before = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const steps = [async () => ours.push(await time(run)), async () => floor.push(await time(bare))];
      if (BEFORE !== undefined) steps.push(async () => before.push(await time(runWith(BEFORE))));
      if (round % 2 === 1) steps.reverse();
      for (const step of steps) await step();
    }
    const a = summarize(ours);
    const b = summarize(floor);
    const markdown = [
      table(
        ["measure", "p50", "p95", "vs node -e 0 (p50)", "target", "verdict"],
        [
          ["`mcpvm run -e 'return 1'`, whole process", fmt(a.p50, 0), fmt(a.p95, 0), `${(a.p50 / b.p50).toFixed(1)}x`, `<= ${TARGET_MS} ms`, verdict(a.p50 <= TARGET_MS)],
          ...(BEFORE === undefined
            ? []
            : [(() => {
                const c = summarize(before);
                return ["before: the same build with every command's imports loaded eagerly", fmt(c.p50, 0), fmt(c.p95, 0), `${(c.p50 / b.p50).toFixed(1)}x`, "", ""];
              })()]),
          ["`node -e 0` (the floor)", fmt(b.p50, 0), fmt(b.p95, 0), "1.0x", "", ""],
        ],
      ),
      "",
      `${ROUNDS} interleaved rounds; load average ${load.toFixed(1)} on ${cpus().length} cores at start (wall times stretch with it, the ratio much less). ` +
        "The CLI loads the gateway (HTTP server, MCP server SDK), the agent (LLM SDK) and pino-pretty only for the commands that use them.",
    ].join("\n");
    return { title: "CLI: whole-process time of a trivial `mcpvm run`", markdown, data: { run: a, node: b, ...(BEFORE === undefined ? {} : { before: summarize(before) }), loadAverage: load } };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}
