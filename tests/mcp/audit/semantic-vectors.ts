/**
 * Sentence vectors for the fit and measurement scripts: every distinct sentence embedded once through the product's
 * own embedder (the worker thread), optionally kept in a JSON cache file between runs (SEMANTIC_EMBED_CACHE=<file>):
 * embedding the ~8 000 sentences of the spent sets takes minutes on a loaded machine.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { WorkerEmbedder } from "../../../src/mcp/audit/semantic/embedder.js";
import type { Vectors } from "./semantic-fit.js";

export async function vectorsFor(texts: Iterable<string>, log: (line: string) => void = () => undefined): Promise<Vectors> {
  const cacheFile = process.env.SEMANTIC_EMBED_CACHE;
  const cached: Record<string, number[]> = cacheFile !== undefined && existsSync(cacheFile) ? (JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, number[]>) : {};
  const table = new Map<string, Float32Array>(Object.entries(cached).map(([k, v]) => [k, Float32Array.from(v)]));
  const missing = [...new Set(texts)].filter((t) => !table.has(t));
  if (missing.length > 0) {
    const embedder = new WorkerEmbedder({ timeoutMs: 600_000 });
    try {
      const started = performance.now();
      for (let i = 0; i < missing.length; i += 64) {
        const batch = missing.slice(i, i + 64);
        const vectors = await embedder.embed(batch);
        batch.forEach((t, j) => table.set(t, Float32Array.from(vectors[j] ?? [])));
        if (i % 1024 === 0) log(`embedded ${i + batch.length}/${missing.length} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
      }
    } finally {
      await embedder.close();
    }
    if (cacheFile !== undefined) writeFileSync(cacheFile, JSON.stringify(Object.fromEntries([...table].map(([k, v]) => [k, [...v].map((x) => Math.round(x * 1e5) / 1e5)]))));
  }
  return (text) => {
    const v = table.get(text);
    if (v === undefined) throw new Error(`no vector for ${JSON.stringify(text.slice(0, 60))}`);
    return v;
  };
}
