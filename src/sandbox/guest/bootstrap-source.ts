import { isLazyHostModule, moduleUnavailability, type HostModuleLabel, type HostModules } from "../types.js";
import { BYTES_KEY } from "./codec.js";
import { installGuestGlobals } from "./guest-bootstrap.js";
import { createGuestBase64, createGuestCodec } from "./guest-codec.js";
import { createGuestDiagnostics } from "./guest-diagnostics.js";
import { createGuestFormatter } from "./guest-format.js";
import { LOAD_MODULE_FUNCTION, type GuestManifest } from "./native.js";

/**
 * The guest bootstrap as JavaScript source: an expression evaluating to
 * `function (native: GuestNative, manifestText: string): GuestRunner`.
 *
 * The pieces are written as ordinary typed functions (so they are type-checked and linted) and
 * embedded here by their source text; each is self-contained. An engine evaluates this once per
 * run in a fresh context, calls it with its GuestNative and the manifest, evaluates the optional
 * prelude, then hands the compiled main function to `runner.start`.
 *
 * Compiling is most of a trivial run's cost, so the formatter and base64 travel as string literals
 * (scanning a string is a few times cheaper than compiling it) and are compiled on first use.
 */
export function guestBootstrapSource(): string {
  return `(function mcpvmBootstrap(native, manifestText) {
  "use strict";
  const manifest = JSON.parse(manifestText);
  const evaluate = eval;
  const lazy = (source) => { let made; return () => (made === undefined ? (made = evaluate("(" + source + ")")()) : made); };
  const base64 = lazy(${JSON.stringify(createGuestBase64.toString())});
  const format = lazy(${JSON.stringify(createGuestFormatter.toString())});
  const diagnostics = lazy(${JSON.stringify(createGuestDiagnostics.toString())});
  const codec = (${createGuestCodec.toString()})(manifest.bytesKey, base64);
  return (${installGuestGlobals.toString()})(native, manifestText, codec, (args) => format()(args), diagnostics);
})`;
}

/**
 * The manifest a run's guest receives: module and function names only, never the functions. A lazy
 * module is listed with `null`; the guest loads it on its first require (see RunModules). An
 * unavailable module is listed apart, with what its require throws.
 */
export function guestManifest(modules: HostModules, maxResultChars: number): GuestManifest {
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
  return { modules: listed, unavailable, labels, loadFunction: LOAD_MODULE_FUNCTION, maxResultChars, bytesKey: BYTES_KEY };
}
