// Whether two builds of the auditor find the same things (files starting with _ are not benchmarks): every string of
// every fixture set (tests/fixtures/audit-intent, guardbench, the real listings) and of the screening bench is screened
// by auditText as prose, as a value and as an identifier, every server of the fixtures is audited whole (its own tool
// names and parameters as options), and the bench's outputs go through screenModelOutput; the findings of the two
// builds are compared as JSON. Usage: node bench/_screening-identical.mjs <dist root A> <dist root B>
// (each root holds dist/ from `tsc -p tsconfig.build.json`). Exit 1 and the first differences when they differ.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(fileURLToPath(new URL("..", import.meta.url)));
const [rootA, rootB] = process.argv.slice(2).map((r) => resolve(r));
if (rootA === undefined || rootB === undefined) throw new Error("usage: node bench/_screening-identical.mjs <dist root A> <dist root B>");

const load = async (root) => ({
  audit: await import(pathToFileURL(join(root, "dist/src/mcp/audit/index.js")).href),
  screen: await import(pathToFileURL(join(root, "dist/src/mcp/service/screen-output.js")).href),
});

function jsonFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith(".json") ? [path] : [];
  });
}

const strings = new Set();
const servers = [];
function walk(node) {
  if (typeof node === "string") strings.add(node);
  else if (Array.isArray(node)) node.forEach(walk);
  else if (typeof node === "object" && node !== null) {
    if (Array.isArray(node.tools) && node.tools.every((t) => typeof t?.name === "string")) servers.push(node);
    for (const [key, value] of Object.entries(node)) {
      strings.add(key);
      walk(value);
    }
  }
}
const files = [...jsonFiles(join(repo, "tests/fixtures/audit-intent")), ...jsonFiles(join(repo, "tests/fixtures/guardbench")), join(repo, "tests/fixtures/real-server-tool-listings.json")];
for (const file of files) walk(JSON.parse(readFileSync(file, "utf8")));
// The real listings are a record of server name to tools.
for (const [name, tools] of Object.entries(JSON.parse(readFileSync(join(repo, "tests/fixtures/real-server-tool-listings.json"), "utf8")))) servers.push({ name, tools });

// The bench's generated strings (bench/screening.mjs), for a few salts.
const EXTS = ["ts", "js", "json", "md", "png", "txt", "yaml", "lock", "tsx", "css"];
const WORDS = ["index", "server", "config", "README", "package", "utils", "helper", "audit", "screen", "output", "main", "test", "fixture", "report", "draft", "invoice", "notes"];
const outputs = [];
for (const salt of ["r0x", "r1x", "warm", "zz9"]) {
  const files = Array.from({ length: 1000 }, (_, i) => `${WORDS[i % WORDS.length]}-${salt}${i}.${EXTS[i % EXTS.length]}`);
  const paths = Array.from({ length: 1000 }, (_, i) => `src/${WORDS[i % WORDS.length]}/${WORDS[(i * 7) % WORDS.length]}-${salt}${i}.${EXTS[(i + 3) % EXTS.length]}`);
  const mixed = Array.from({ length: 1000 }, (_, i) => {
    const w = WORDS[i % WORDS.length];
    const w2 = WORDS[(i * 7) % WORDS.length];
    return [
      `/home/ada/projects/mcpvm/src/${w}/${w2}_${salt}${i}.${EXTS[i % EXTS.length]}`,
      JSON.stringify({ id: i, name: `${w} ${w2} ${salt}`, size: i * 37, modified: "2026-11-27T03:00:00Z" }),
      `The ${w} module was updated by Ada on Tuesday to fix issue #${i} in the ${w2} handler (${salt}).`,
      `${w}_${w2}_${salt}${i}`,
      `${w2}-${salt}${i}.${EXTS[(i + 1) % EXTS.length]}`,
    ][i % 5];
  });
  for (const list of [files, paths, mixed]) {
    outputs.push({ result: list, logs: [] });
    for (const s of list) strings.add(s);
  }
}
outputs.push({ result: `x ${"Lorem ipsum dolor sit amet, the quarterly report covers revenue and costs for every region. ".repeat(1200)}`.slice(0, 100_000) });

const KINDS = [{ kind: "prose" }, { kind: "value", key: "result" }, { kind: "value", key: "path" }, { kind: "identifier" }];
const context = { otherServers: [{ name: "mail", toolNames: ["send_email", "list_messages"] }, { name: "files", toolNames: ["read_file", "write_file"] }] };

function run(build) {
  const out = [];
  for (const s of strings) for (const kind of KINDS) out.push(JSON.stringify(build.audit.auditText(s, kind)));
  for (const server of servers) {
    const tools = server.tools.filter((t) => typeof t.name === "string").map((t) => ({ ...t, inputSchema: t.inputSchema ?? { type: "object" } }));
    try {
      out.push(JSON.stringify(build.audit.auditServer({ serverName: String(server.name ?? "s"), instructions: typeof server.instructions === "string" ? server.instructions : undefined, tools }, context)));
    } catch (error) {
      out.push(`error ${error?.code ?? error?.message}`);
    }
  }
  for (const value of outputs) out.push(JSON.stringify(build.screen.screenModelOutput(value)));
  return out;
}

const a = run(await load(rootA));
const b = run(await load(rootB));
let differing = 0;
for (let i = 0; i < a.length; i++) {
  if (a[i] === b[i]) continue;
  if (++differing <= 5) console.log(`differs at ${i}:\n  A ${a[i].slice(0, 400)}\n  B ${b[i].slice(0, 400)}`);
}
const found = a.filter((x) => x !== "[]").length;
console.log(`${strings.size} distinct strings × ${KINDS.length} field kinds, ${servers.length} servers audited whole, ${outputs.length} screened outputs: ${a.length} results compared (${found} with findings), ${differing} differ`);
process.exit(differing === 0 ? 0 : 1);
