// Small helpers shared by the bench modules (files starting with _ are not benchmarks).
export function percentile(samples, p) {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export function summarize(samples) {
  return { n: samples.length, p50: percentile(samples, 50), p95: percentile(samples, 95), min: Math.min(...samples), max: Math.max(...samples) };
}

export async function time(fn) {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export function fmt(ms, digits = 2) {
  if (!Number.isFinite(ms)) return "n/a";
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(digits)} ms`;
}

export function verdict(ok) {
  return ok ? "met" : "**missed**";
}

export function table(header, rows) {
  return [`| ${header.join(" | ")} |`, `| ${header.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.join(" | ")} |`)].join("\n");
}
