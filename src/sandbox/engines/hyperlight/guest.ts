import { guestBootstrapSource, guestPieces } from "../../guest/bootstrap-source.js";
import { BRIDGE_FUNCTION, BRIDGE_MODULE } from "./vm.js";

/**
 * Opens the guest's main function so that `console` and `require` are the bootstrap's, bound
 * lexically. Needed because the Hyperlight runtime defines its own `console`, `require` and `print`
 * globals as non-writable, non-configurable properties, which no script can replace.
 */
export const MAIN_SCOPE_PREFIX = "(function (console, require) { return ";

/** The file name QuickJS gives code run through `eval`; guest stack frames carry it. */
export const EVAL_FILENAME = "<input>";

/**
 * The handler module compiled into every Hyperlight VM once, at boot. It adapts the VM's single
 * bridge host function to the shared GuestNative seam and runs the shared guest bootstrap, so the
 * guest contract is the same code on both engines. The bootstrap installs its globals on a scope
 * object (its `globalThis` is shadowed, see MAIN_SCOPE_PREFIX); `__mcpvm` is also made a real
 * global for the prelude, and the `tools` global of a run that has one for the guest's code. Per
 * run the handler receives, as the call's event, the transformed program (syntax errors were
 * reported on the host), the optional prelude and the manifest, and
 * returns the bootstrap's outcome envelope as JSON text. The VM is restored to its boot snapshot
 * after every run, so nothing installed here outlives a run.
 */
export function buildHandlerSource(): string {
  // `export { handler }` is explicit: the runtime only adds it to scripts that never say "export",
  // and the embedded bootstrap does.
  return `import * as bridge from ${JSON.stringify(`host:${BRIDGE_MODULE}`)};
const dispatch = bridge[${JSON.stringify(BRIDGE_FUNCTION)}];
const stringify = JSON.stringify;
const defineProperty = Object.defineProperty;
const evaluate = eval;
const pieces = ${JSON.stringify(guestPieces())};
function installInto(globalThis, native, manifestText) {
  const bootstrap = ${guestBootstrapSource()};
  return bootstrap(native, manifestText);
}
function describe(thrown) {
  try {
    if (thrown instanceof Error) {
      return { name: String(thrown.name), message: String(thrown.message), stack: typeof thrown.stack === "string" ? thrown.stack : undefined };
    }
    return { name: "Error", message: String(thrown) };
  } catch (_) {
    return { name: "Error", message: "uninspectable exception" };
  }
}
function handler(event) {
  const native = {
    callSync(module, fn, argsText, listener) {
      // The VM cannot run guest code while it waits here: events come back with the reply.
      return dispatch(stringify({ op: "call", module: module, fn: fn, args: argsText, listen: typeof listener === "function" }));
    },
    log(level, message) {
      dispatch(stringify({ op: "log", level: level, message: message }));
    },
    source(piece) {
      return pieces[piece];
    },
  };
  const scope = {};
  let runner;
  try {
    runner = installInto(scope, native, event.manifest);
    defineProperty(globalThis, "__mcpvm", { value: scope.__mcpvm, writable: false, configurable: false });
    // A run's \`tools\` global (RunRequest.toolsGlobal) is read unqualified by the guest's code, which the
    // bootstrap's scope object does not reach: it must be a real global of the VM too.
    if (scope.tools !== undefined) defineProperty(globalThis, "tools", { value: scope.tools, enumerable: false, writable: false, configurable: false });
  } catch (thrown) {
    return stringify({ stage: "bootstrap", error: describe(thrown) });
  }
  if (typeof event.prelude === "string") {
    try {
      evaluate(event.prelude);
    } catch (thrown) {
      return stringify({ stage: "prelude", error: describe(thrown) });
    }
  }
  let main;
  try {
    main = evaluate(${JSON.stringify(MAIN_SCOPE_PREFIX)} + event.code + "; })")(scope.console, scope.require);
  } catch (thrown) {
    return stringify({ stage: "compile", error: describe(thrown) });
  }
  return runner.start(main);
}
export { handler };
`;
}

/** The per-run event the handler receives (it crosses into the VM as JSON). */
export interface HyperlightRunEvent {
  /** The transformed program: an expression evaluating to the async main function. */
  readonly code: string;
  readonly prelude?: string;
  /** JSON text of the shared GuestManifest. */
  readonly manifest: string;
}
