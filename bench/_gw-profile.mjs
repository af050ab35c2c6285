// Profiling aid (not a benchmark): `mcpvm serve --http` under --cpu-prof while 10 HTTP clients make
// direct echo calls, then self time summed by function and by package/file of the gateway process.
//   node bench/_gw-profile.mjs [fixture|everything] [calls per client] [clients] [--no-prof] [--floor]
//   (--floor: the same load on bench/_null-proxy.mjs http-stdio, the minimal SDK proxy, instead of the gateway)
//   node bench/_gw-profile.mjs --summarize <file.cpuprofile> [calls]
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { summarize } from "./_cpuprofile.mjs";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { connect, cpuOfTree, load, makeHome, MCPVM, NULL_PROXY, SERVE_ARGS, rssOf, startHttpGateway, startUrlServer, UPSTREAMS } from "./_gw-load.mjs";

if (process.argv[2] === "--summarize") {
  process.stdout.write(`${summarize(JSON.parse(await readFile(process.argv[3], "utf8")), { calls: process.argv[4] === undefined ? undefined : Number(process.argv[4]), top: 60 })}\n`);
} else {
  const flag = (name) => {
    const at = process.argv.indexOf(name);
    if (at !== -1) process.argv.splice(at, 1);
    return at !== -1;
  };
  const noProf = flag("--no-prof");
  const stdio = flag("--stdio");
  const floor = flag("--floor");
  const which = process.argv[2] ?? "fixture";
  const calls = Number(process.argv[3] ?? 300);
  const clients = Number(process.argv[4] ?? 10);
  const upstream = UPSTREAMS[which];
  const home = await makeHome({ u: upstream.config }, [`u.${upstream.tool}`]);
  const profDir = await mkdtemp(join(tmpdir(), "mcpvm-gwprof-"));
  const nodeArgs = noProf ? [] : ["--cpu-prof", `--cpu-prof-dir=${profDir}`];
  if (stdio) {
    // `mcpvm serve` over stdio, one client making calls × clients sequential calls (the per-call share, not throughput).
    const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs, MCPVM, ...SERVE_ARGS], env: home.env, stderr: "ignore" });
    const client = await connect(transport);
    for (let i = 0; i < 50; i += 1) await client.callTool({ name: `u_${upstream.tool}`, arguments: upstream.args("warm") });
    const before = cpuOfTree(transport.pid);
    const n = calls * clients;
    const started = performance.now();
    for (let i = 0; i < n; i += 1) await client.callTool({ name: `u_${upstream.tool}`, arguments: upstream.args(`c${i}`) });
    const ms = performance.now() - started;
    const after = cpuOfTree(transport.pid);
    await client.close();
    process.stdout.write(`${JSON.stringify({ which, target: "stdio gateway", calls: n, wallPerCallUs: (ms * 1000) / n, cpuPerCallUs: ((after.self - before.self) * 1000) / n, upstreamCpuPerCallUs: ((after.descendants - before.descendants) * 1000) / n })}\n`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const f of (await readdir(profDir)).filter((f) => f.endsWith(".cpuprofile"))) {
      process.stdout.write(`profile ${join(profDir, f)}\n${summarize(JSON.parse(await readFile(join(profDir, f), "utf8")), { calls: n, marker: "callTool" })}\n`);
    }
    await rm(home.dir, { recursive: true, force: true });
    process.exit(0);
  }
  const gateway = floor
    ? await startUrlServer([...nodeArgs, NULL_PROXY, "http-stdio", upstream.config.command, ...upstream.config.args], {})
    : await startHttpGateway(home.env, { nodeArgs });
  const result = await load(gateway.url, { clients, calls, tool: floor ? upstream.tool : `u_${upstream.tool}`, upstream, pids: [gateway.pid] });
  const rss = rssOf(gateway.pid);
  await gateway.close();
  process.stdout.write(`${JSON.stringify({ which, target: floor ? "minimal SDK proxy" : "gateway", clients, ...result, rssMiB: rss / 2 ** 20 })}\n`);
  const files = (await readdir(profDir)).filter((f) => f.endsWith(".cpuprofile"));
  for (const f of files) {
    process.stdout.write(`profile ${join(profDir, f)}\n`);
    process.stdout.write(`${summarize(JSON.parse(await readFile(join(profDir, f), "utf8")), { calls: result.calls })}\n`);
  }
  await rm(home.dir, { recursive: true, force: true });
}
