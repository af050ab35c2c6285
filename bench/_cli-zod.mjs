// An experiment for bench/cli.mjs (files starting with _ are not benchmarks): the shipped CLI bundle
// with zod bundled into it instead of left to Node's resolver, its ~50 locale modules left out
// (zod/v4/locales/index.js replaced by English alone, the default every message is written in), so
// the main thread loads ~70 modules instead of ~165. Measured, not shipped: see bench/RESULTS.md, "CLI".
// Native plugins (dist/plugins: mcp, fetch, fs-read, fs-write) import zod themselves, from
// node_modules, so a run with any of them enabled loads zod a second time.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { EXTERNAL_PACKAGES } from "../scripts/build-cli.mjs";

export async function buildZodBundledCli(root, outdir) {
  const locales = dirname(createRequire(join(root, "package.json")).resolve("zod/v4/locales/en.js"));
  await build({
    entryPoints: { main: join(root, "src/cli/main.ts") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: EXTERNAL_PACKAGES.filter((name) => name !== "zod"),
    mainFields: ["module", "main"],
    logLevel: "error",
    banner: { js: 'import { createRequire as __mcpvmCreateRequire } from "node:module"; const require = __mcpvmCreateRequire(import.meta.url);' },
    plugins: [
      {
        name: "zod-english-only",
        setup(b) {
          b.onLoad({ filter: /zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: 'export { default as en } from "./en.js";', loader: "js", resolveDir: locales }));
        },
      },
    ],
  });
  return join(outdir, "main.js");
}
