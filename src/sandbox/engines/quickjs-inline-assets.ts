import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type * as QuickJs from "quickjs-emscripten-core";
import type { CompiledWasmModule } from "./quickjs-protocol.js";
import { wasmMemoryLayout, type WasmMemoryLayout } from "./quickjs-snapshot.js";
import { keepOptimizedWasmFramesSmall } from "./wasm-frame-size.js";

/**
 * The asyncify build of QuickJS, compiled once per process for the in-thread engine and the worker
 * engine's shared threads; quickjs-inline-adapter.ts, which reaches into the library's internals,
 * is written against quickjs-emscripten-core 0.32.x, so the version is checked here first.
 */

const VARIANT = "@jitl/quickjs-wasmfile-release-asyncify";
const PINNED_MINOR = "0.32.";

export interface InlineAssets {
  readonly wasmModule: CompiledWasmModule;
  readonly variant: QuickJs.QuickJSAsyncVariant;
  /** Where the build keeps its state, if understood (sandbox images, see quickjs-snapshot.ts). */
  readonly memoryLayout: WasmMemoryLayout | undefined;
}

export class InlineEngineLoadError extends Error {}

let assets: Promise<InlineAssets> | undefined;

/** Compiles the asyncify wasm once per process and checks the library version the adapter is written against. */
export function loadInlineAssets(): Promise<InlineAssets> {
  assets ??= compile().catch((error: unknown) => {
    assets = undefined;
    throw error;
  });
  return assets;
}

async function compile(): Promise<InlineAssets> {
  const require = createRequire(import.meta.url);
  const corePackage = join(dirname(dirname(require.resolve("quickjs-emscripten-core"))), "package.json");
  const version = (JSON.parse(readFileSync(corePackage, "utf8")) as { version?: string }).version ?? "";
  if (!version.startsWith(PINNED_MINOR)) {
    throw new InlineEngineLoadError(
      `The quickjs-inline engine is written against quickjs-emscripten-core ${PINNED_MINOR}x (its internals), found ${version}; use sandbox.engine "quickjs"`,
    );
  }
  const published = (require(VARIANT) as { default: QuickJs.QuickJSAsyncVariant }).default;
  const glue = require(`${VARIANT}/emscripten-module`) as Awaited<ReturnType<QuickJs.QuickJSAsyncVariant["importModuleLoader"]>>;
  const bytes = await readFile(require.resolve(`${VARIANT}/wasm`));
  keepOptimizedWasmFramesSmall();
  const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasmModule> } }).WebAssembly;
  return {
    wasmModule: await wasm.compile(bytes),
    memoryLayout: wasmMemoryLayout(bytes),
    // The CommonJS glue directly: the variant's own loader would import() the ES build.
    variant: { type: "async", importFFI: published.importFFI, importModuleLoader: () => Promise.resolve(glue) },
  };
}
