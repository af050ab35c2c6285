// Bundles the dashboard (ui/src) into one app.js + app.css next to index.html, at `npm run build`
// time, so the package ships every asset and the page works offline (no CDN). Also imported by the
// browser tests, which build into a temporary folder.
import { copyFile, mkdir } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const HERE = dirname(fileURLToPath(import.meta.url));

/** @param {string} outdir */
export async function buildUi(outdir) {
  await mkdir(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(HERE, "src/main.tsx") },
    outdir,
    bundle: true,
    format: "esm",
    target: "es2022",
    minify: true,
    sourcemap: false,
    jsx: "automatic",
    jsxImportSource: "preact",
    loader: { ".css": "css" },
    logLevel: "warning",
    legalComments: "linked",
  });
  await copyFile(join(HERE, "index.html"), join(outdir, "index.html"));
  return outdir;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(HERE, "..", process.argv[2] ?? "dist/ui");
  await buildUi(out);
  console.log(`built the dashboard into ${out}`);
}
