import { isLazyHostModule, moduleUnavailability, type HostModuleLabel, type HostModules } from "../types.js";
import { BYTES_KEY } from "./codec.js";
import { installGuestGlobals } from "./guest-bootstrap.js";
import { createGuestBase64, createGuestCodec } from "./guest-codec.js";
import { createGuestDiagnostics } from "./guest-diagnostics.js";
import { createGuestFormatter } from "./guest-format.js";
import { createGuestModules } from "./guest-modules.js";
import { createGuestTools } from "./guest-tools.js";
import { LOAD_MODULE_FUNCTION, type GuestManifest, type GuestPieceName, type GuestRunManifest } from "./native.js";

let bootstrap: string | undefined;
let pieces: Readonly<Record<GuestPieceName, string>> | undefined;

/**
 * The guest bootstrap as JavaScript source: an expression evaluating to
 * `function (native: GuestNative, manifestText: string): GuestRunner`.
 *
 * The pieces are written as ordinary typed functions (so they are type-checked and linted) and
 * embedded here by their source text; each is self-contained. An engine compiles this into every
 * sandbox (ahead of the run where it can), calls it with its GuestNative and the manifest, evaluates
 * the optional prelude, then hands the compiled main function to `runner.start`.
 *
 * Compiling is most of what building a sandbox costs (QuickJS compiles about 10 characters a
 * microsecond in a fresh runtime here, and this build cannot keep bytecode across runtimes), so this
 * holds only what every run uses: the globals and the runner. Host modules (with `require`'s checks),
 * console formatting, base64 and the error-path diagnostics are pieces (`guestPieces`) the guest
 * compiles on first use from `native.source`, or that the engine compiled ahead while idle
 * (`native.compiled`).
 */
export function guestBootstrapSource(): string {
  // The function itself, not a wrapper calling it: QuickJS compiles nested functions more slowly.
  bootstrap ??= `(${compactSource(installGuestGlobals.toString())})`;
  return bootstrap;
}

/**
 * The pieces an engine compiles into a sandbox built ahead when it has the time: most runs call a
 * host module or log, and every run of a host with the mcp plugin on has the `tools` global. The
 * diagnostics (error paths only) and base64 (bytes only) stay lazy.
 */
export const PIECES_COMPILED_AHEAD: readonly GuestPieceName[] = Object.freeze(["modules", "format", "tools"]);

/** Each piece's source: an expression evaluating to its factory (see GuestPieceFactories). */
export function guestPieces(): Readonly<Record<GuestPieceName, string>> {
  pieces ??= Object.freeze({
    base64: compactSource(createGuestBase64.toString()),
    format: compactSource(createGuestFormatter.toString()),
    diagnostics: compactSource(createGuestDiagnostics.toString()),
    tools: compactSource(createGuestTools.toString()),
    modules: `function mcpvmModules(native, manifest, kit) {
return (${compactSource(createGuestModules.toString())})(native, manifest, (${compactSource(createGuestCodec.toString())})(manifest.bytesKey, kit.base64, kit.wrapBytes, kit.builtins), kit);
}`,
  });
  return pieces;
}

/**
 * A function's source without its indentation and whole-line comments: the sandbox compiles this
 * text, and scanning what it would skip costs too. Only whole lines go, which is safe for code that
 * has no string or template literal spanning lines (checked for the guest sources by
 * tests/sandbox/bootstrap-pieces.test.ts); a line is never cut.
 */
export function compactSource(source: string): string {
  const kept: string[] = [];
  let inBlockComment = false;
  for (const line of source.split("\n")) {
    const text = line.trim();
    if (inBlockComment) {
      if (text.includes("*/")) inBlockComment = false;
      continue;
    }
    if (text.startsWith("/*")) {
      const end = text.indexOf("*/", 2);
      if (end === -1) inBlockComment = true;
      else if (text.slice(end + 2).trim() !== "") kept.push(text);
      continue;
    }
    if (text === "" || text.startsWith("//")) continue;
    kept.push(text);
  }
  return kept.join("\n");
}

/**
 * The manifest a run's guest receives (see GuestRunManifest for its three parts): module and
 * function names only, never the functions. A lazy module is listed with `null`; the guest loads it
 * on its first require (see RunModules). An unavailable module is listed apart, with what its
 * require throws. `tools`: the `tools` global's key -> module table (RunRequest.toolsGlobal).
 */
export function guestManifestText(modules: HostModules, maxResultChars: number, tools?: Readonly<Record<string, string>>): string {
  const listed: Record<string, readonly string[] | null> = {};
  const unavailable: Record<string, { message: string; code: string }> = {};
  const labels: Record<string, HostModuleLabel> = {};
  for (const [module, entry] of Object.entries(modules)) {
    const unavailability = moduleUnavailability(entry);
    if (unavailability !== undefined) {
      unavailable[module] = { message: unavailability.message, code: unavailability.code };
    } else if (isLazyHostModule(entry)) {
      listed[module] = null;
      if (entry.label !== undefined) labels[module] = entry.label;
    } else {
      listed[module] = Object.keys(entry);
    }
  }
  const head: GuestRunManifest = { names: Object.keys(listed), tools: tools !== undefined, maxResultChars, bytesKey: BYTES_KEY };
  const table: GuestManifest = { modules: listed, unavailable, labels, loadFunction: LOAD_MODULE_FUNCTION, maxResultChars, bytesKey: BYTES_KEY };
  return `${JSON.stringify(head)}\n${JSON.stringify(table)}\n${tools === undefined ? "" : JSON.stringify(tools)}`;
}
