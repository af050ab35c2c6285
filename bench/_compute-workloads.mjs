// Kinds of CPU-bound guest code, for bench/compute.mjs: each returns a value that depends on every step
// (so nothing can be skipped) and takes a few hundred ms in thread mode on this machine. `seed` changes the
// text of each run (the engines cache the transform of recent scripts) without changing the work.
export const WORKLOADS = [
  {
    key: "loop",
    label: "tight loop: `s = (s * 31 + i) % 1000003`, 3 million times",
    code: (seed) => `let s = ${seed}; for (let i = 0; i < 3000000; i++) { s = (s * 31 + i) % 1000003; } return s;`,
  },
  {
    key: "fib",
    label: "recursion: fib(27) (635,621 calls)",
    code: (seed) => `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); } return fib(27) + ${seed};`,
  },
  {
    key: "sort",
    label: "sort 100,000 numbers with a comparator",
    code: (seed) =>
      `let x = ${seed + 1}; const a = []; for (let i = 0; i < 100000; i++) { x = (x * 1103515245 + 12345) % 2147483648; a.push(x); }` +
      ` a.sort((p, q) => p - q); return a[0] + a[50000] + a[99999];`,
  },
  {
    key: "string",
    label: "string building: 200,000 template pieces joined, then split",
    code: (seed) =>
      `const parts = []; for (let i = 0; i < 200000; i++) { parts.push(\`item-\${i % 977}-\${${seed}}\`); }` + ` const text = parts.join(","); return text.split(",").length + text.length;`,
  },
  {
    key: "regex",
    label: "regex: every match of /(\\w+)@(\\w+)\\.com/g in a 2 MB text",
    code: (seed) =>
      `const line = "user${seed}@example.com, other words here and a@b.com; "; let text = ""; for (let i = 0; i < 40000; i++) text += line;` +
      ` let n = 0; for (const m of text.matchAll(/(\\w+)@(\\w+)\\.com/g)) n += m[1].length; return n;`,
  },
  {
    key: "json",
    label: "JSON: stringify and parse a 1,000-record array, 40 times",
    code: (seed) =>
      `const rows = []; for (let i = 0; i < 1000; i++) rows.push({ id: i + ${seed}, name: "row " + i, tags: ["a", "b", String(i)], nested: { ok: i % 2 === 0, n: i * 1.5 } });` +
      ` let total = 0; for (let r = 0; r < 40; r++) { const back = JSON.parse(JSON.stringify(rows)); total += back[r].id + back.length; } return total;`,
  },
];
