import type { CompiledWasmModule } from "./quickjs-protocol.js";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { guestBootstrapSource } from "../guest/bootstrap-source.js";
import { quickJsWorkerMain } from "./quickjs-worker.js";

/** Everything a QuickJS worker needs that is the same for every worker of the process. */
export interface QuickJsAssets {
  /** Compiled once and shared: workers instantiate it without recompiling. */
  readonly wasmModule: CompiledWasmModule;
  readonly corePath: string;
  readonly variantPath: string;
  readonly workerSource: string;
  readonly bootstrapSource: string;
}

let assets: Promise<QuickJsAssets> | undefined;

/** Loads (once per process) the wasm module and the sources every worker is started with. */
export function loadQuickJsAssets(): Promise<QuickJsAssets> {
  assets ??= compileAssets().catch((error: unknown) => {
    // A failed load (e.g. a missing package) is retried by the next engine rather than cached.
    assets = undefined;
    throw error;
  });
  return assets;
}

async function compileAssets(): Promise<QuickJsAssets> {
  const resolve = createRequire(import.meta.url).resolve;
  const wasmPath = resolve("@jitl/quickjs-wasmfile-release-asyncify/wasm");
  const wasmModule = await wasm().compile(await readFile(wasmPath));
  return {
    wasmModule,
    corePath: resolve("quickjs-emscripten-core"),
    variantPath: resolve("@jitl/quickjs-wasmfile-release-asyncify"),
    // An eval worker runs as CommonJS, so `require` is in scope there and handed to the program.
    workerSource: `(${quickJsWorkerMain.toString()})(require);`,
    bootstrapSource: guestBootstrapSource(),
  };
}

/** The global WebAssembly object; Node's type definitions declare its types but not the value. */
function wasm(): { compile(bytes: Uint8Array): Promise<CompiledWasmModule> } {
  return (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledWasmModule> } }).WebAssembly;
}
