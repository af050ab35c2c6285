/**
 * What an engine provides to the guest bootstrap, and what the bootstrap gives back. These are the
 * only seams between engine-specific code and the shared guest JavaScript, so both engines
 * implement exactly this and nothing else.
 *
 * All values cross as strings: arguments and results are JSON text produced by the codec on each
 * side (see codec.ts and guest-codec.ts); the engine never inspects guest objects.
 */

/** Installed by the engine as the first argument of the bootstrap function; never made global. */
export interface GuestNative {
  /**
   * Runs a host function while the guest waits (the guest thread or VM is blocked, not unwound).
   * `argsText` is a JSON array; the return value is a host reply envelope (see HostReply).
   */
  callSync(module: string, fn: string, argsText: string, listener?: GuestListener): string;
  /**
   * Starts a host function and returns a guest Promise of its reply envelope, so several calls can
   * be in flight at once. Optional: without it, `__mcpvm.callAsync` falls back to callSync.
   */
  callAsync?(module: string, fn: string, argsText: string, listener?: GuestListener): Promise<string>;
  /** Records one console line; the engine meters it against the output budget. */
  log(level: string, message: string): void;
  /**
   * The run manifest's tables (its text after the first line, see GuestRunManifest), for an engine
   * that handed the bootstrap the first line alone: the guest asks on first use, so a run that uses
   * no host module and no `tools` never copies them into QuickJS. Optional: an engine without it
   * hands the bootstrap the whole text.
   */
  manifestTables?(): string;
  /**
   * The source text of a bootstrap piece (see GUEST_PIECES in bootstrap-source.ts): an expression
   * evaluating to its factory. Pieces are compiled on first use, so a run pays only for those it needs.
   */
  source(piece: GuestPieceName): string;
  /**
   * Compiles a piece as its own file, `mcpvm-<piece>.js`, so its stack frames read the same as those
   * of a piece compiled ahead (QuickJS names code compiled by `eval` `<input>`). Optional: an engine
   * without it (Hyperlight) has the bootstrap evaluate `source`.
   */
  compile?<K extends GuestPieceName>(piece: K): GuestPieceFactories[K];
  /**
   * Pieces the engine compiled ahead, while it had nothing else to do (a factory each, uncalled);
   * set before the run starts or not at all. A piece missing here is compiled from `source`.
   */
  readonly compiled?: { readonly [K in GuestPieceName]?: GuestPieceFactories[K] };
}

/** The parts of the guest bootstrap that are compiled only when a run first needs them. */
export type GuestPieceName = keyof GuestPieceFactories;

/** What each piece's source evaluates to. */
export interface GuestPieceFactories {
  readonly base64: () => GuestBase64;
  readonly format: () => GuestFormatter;
  readonly diagnostics: () => GuestDiagnostics;
  /** Host modules (`require("host:x")`, `__mcpvm.callAsync`): the codec and the module objects. */
  readonly modules: (native: GuestNative, manifest: GuestManifest, kit: GuestKit) => GuestModules;
  /** The `tools` global (RunRequest.toolsGlobal) over the table `tableText()` gives, JSON of key -> module. */
  readonly tools: (tableText: () => string, kit: GuestToolsKit) => object;
}

/** What the tools piece needs of the bootstrap: host calls, the diagnostics' "did you mean" and the captured built-ins. */
export interface GuestToolsKit {
  readonly callAsync: (module: string, fn: string, given: readonly unknown[]) => Promise<unknown>;
  readonly didYouMean: (input: string, candidates: readonly string[]) => string;
  readonly builtins: GuestBuiltins;
}

/**
 * What the always-compiled part of the bootstrap hands the modules piece: its lazy pieces, its
 * record of host errors, and the built-ins it captured before any user code ran (the piece may be
 * compiled after user code has replaced the globals).
 */
export interface GuestKit {
  readonly hostErrors: WeakSet<object>;
  readonly format: GuestFormatter;
  readonly diagnostics: () => GuestDiagnostics;
  readonly base64: () => GuestBase64;
  readonly wrapBytes: (bytes: Uint8Array) => unknown;
  readonly builtins: GuestBuiltins;
}

export interface GuestBuiltins {
  readonly freeze: typeof Object.freeze;
  readonly create: typeof Object.create;
  readonly keysOf: typeof Object.keys;
  readonly hasOwn: typeof Object.prototype.hasOwnProperty;
  readonly isArray: typeof Array.isArray;
  readonly apply: typeof Reflect.apply;
  readonly then: typeof Promise.prototype.then;
  readonly stringify: typeof JSON.stringify;
  readonly parse: typeof JSON.parse;
  readonly Proxy: ProxyConstructor;
  readonly Bytes: Uint8ArrayConstructor;
  readonly MapClass: MapConstructor;
  readonly SetClass: SetConstructor;
  readonly ErrorClass: ErrorConstructor;
  readonly TypeErrorClass: TypeErrorConstructor;
  readonly PromiseClass: PromiseConstructor;
}

/** The modules piece: what the guest's `require` and `__mcpvm.callAsync` do. */
export interface GuestModules {
  /**
   * The module object for `host:<name>` (a lazy module is loaded from the host first); throws for
   * anything else, saying what exists or why the module is unavailable.
   */
  require(specifier: unknown): object;
  callAsync(module: string, fn: string, given: readonly unknown[]): Promise<unknown>;
}

/**
 * Receives the events a host function sends while its call is in flight (MCP progress), one JSON
 * text each. An engine that can run guest code while the guest waits (QuickJS: the worker thread
 * calls it from inside the blocked call) calls it as each event arrives; one that cannot
 * (Hyperlight: the VM is inside its single bridge call) ignores it, and the host puts the events in
 * the reply instead (HostReply.events), which the bootstrap delivers before the call returns.
 * Passing a listener is what tells the host the guest wants events at all.
 */
export type GuestListener = (eventText: string) => void;

/**
 * The function name a guest calls (through callSync) to load a lazy module; the reply's value is
 * the module's function names. "#" keeps it apart from every real function name (JS identifiers and
 * MCP tool names cannot contain it); it must not contain U+0000, which cannot cross a C string.
 */
export const LOAD_MODULE_FUNCTION = "#load";

/**
 * A run's manifest is three texts joined by newlines (which JSON text never holds): JSON of this,
 * what a run reads as it starts; JSON of the GuestManifest; JSON of the `tools` global's key ->
 * module table (RunRequest.toolsGlobal), or nothing for no `tools` global (see guestManifestText).
 * The bootstrap's second argument is the whole text, or the first line alone when the engine gives
 * the rest through GuestNative.manifestTables. The tables are parsed only when the run first uses
 * a host module or `tools`: a host with many servers configured would otherwise pay for each of
 * them in every run, also in runs that call none (copying the text into QuickJS and parsing it).
 */
export interface GuestRunManifest {
  /** The modules the guest may require (`__mcpvm.modules`): GuestManifest.modules' keys, in its order. */
  readonly names: readonly string[];
  /** Whether the run has a `tools` global (its table is the manifest's third part). */
  readonly tools: boolean;
  /** As GuestManifest's. */
  readonly maxResultChars: number;
  readonly bytesKey: string;
}

/** The module table, as the guest's module code and diagnostics read it (the manifest's second part, see GuestRunManifest). */
export interface GuestManifest {
  /**
   * module name (without "host:") -> function names, or null for a lazy module whose functions
   * are only known once the guest requires it (see LazyHostModule)
   */
  readonly modules: Readonly<Record<string, readonly string[] | null>>;
  /**
   * Modules the guest may name but cannot load, with what `require` throws (see
   * LazyHostModule.unavailable; a key ending in `*` is a prefix).
   */
  readonly unavailable: Readonly<Record<string, { readonly message: string; readonly code: string }>>;
  /** How error messages name a module and its functions (see HostModuleLabel); absent means `host:<name>`. */
  readonly labels: Readonly<Record<string, { readonly title: string; readonly member: string; readonly byName?: readonly string[]; readonly progress?: boolean }>>;
  /** Always LOAD_MODULE_FUNCTION; carried here because guest code cannot import it. */
  readonly loadFunction: string;
  /** A result whose JSON text is longer than this cannot fit the output budget. */
  readonly maxResultChars: number;
  /** The object key that marks base64 bytes in JSON text. */
  readonly bytesKey: string;
}

/** Returned by the bootstrap; the engine calls `start` with the compiled main function. */
export interface GuestRunner {
  /** Always resolves (never rejects) with a GuestOutcome envelope as JSON text. */
  start(main: () => Promise<unknown>): Promise<string>;
}

/**
 * A host reply that starts with this character is a string value, the rest of the text exactly (no
 * JSON, no events); every other reply is a HostReply as JSON text. JSON text never starts with it.
 */
export const RAW_STRING_REPLY = "\u0001";

/**
 * A host reply that starts with this character is a successful call's value without events: the rest
 * is the value's JSON text, or nothing for `undefined`. The guest parses only the value, not an
 * envelope around it (QuickJS's JSON.parse has a fixed cost of about a µs a call, an object more).
 */
export const RAW_VALUE_REPLY = "\u0002";

/** Host -> guest reply to a host call (or a value alone, see RAW_STRING_REPLY and RAW_VALUE_REPLY). */
export type HostReply =
  | { readonly ok: true; readonly value?: unknown; readonly events?: readonly unknown[] }
  | { readonly ok: false; readonly error: HostErrorInfo; readonly events?: readonly unknown[] };

export interface HostErrorInfo {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** The guest-side value codec of host calls (part of the modules piece). */
export interface GuestCodec {
  /** JSON text, or undefined for undefined/functions; throws like JSON.stringify. */
  encode(value: unknown): string | undefined;
  decode(text: string): unknown;
  /** What `encode` is made of, for a caller that inlines it: the captured JSON.stringify and its replacer (bytes). */
  readonly stringify: (value: unknown, replacer?: (key: string, value: unknown) => unknown) => string | undefined;
  readonly replacer: (key: string, value: unknown) => unknown;
}

export type GuestFormatter = (args: readonly unknown[]) => string;


/**
 * The guest's error-path helpers (see guest-diagnostics.ts), compiled only when a run needs one:
 * they walk a result again to say where a problem is, and suggest names.
 */
export interface GuestDiagnostics {
  /** `; did you mean x?`, `; did you mean x or y?` or "". */
  didYouMean(input: string, candidates: readonly string[], prefix?: string): string;
  /** `server "memory" has no tool "x"; did you mean y?` (or the list of what it has). */
  missingMember(title: string, member: string, name: string, known: readonly string[]): string;
  /** The same for a function of a loaded module, worded by its label (see GuestManifest.labels). */
  missingFunction(manifest: GuestManifest, module: string, fn: string, functions: readonly string[]): string;
  /**
   * Why `require("host:<name>")` fails for a name the manifest does not list as loadable: the
   * module is unavailable (a disabled server, a plugin that is off; also by `*` prefix) or unknown.
   */
  requireFailure(manifest: GuestManifest, name: string): { readonly name: string; readonly code: string; readonly message: string };
  /** The message for a thrown value that is not an Error (it has no stack, so no line). */
  thrownValue(thrown: unknown, shown: string): string;
  /**
   * JSON text of a result with every Map as an object of its entries (or [key, value] pairs when
   * not all keys are strings), Set as an array and Error as {name, message}; bytes via `wrapBytes`.
   * A value converted once is reused, so a Map containing itself is a cycle, not endless recursion.
   */
  encodeConverted(value: unknown, wrapBytes: (bytes: Uint8Array) => unknown): string | undefined;
  /**
   * The outcome envelope (JSON text, see GuestRunner) of a result the short path could not encode
   * as it is: `failure` is what encoding threw, else the value held a Map, Set, Error, function or
   * Symbol. Converts, and explains what it changed (notes) or why it failed (a path).
   */
  describeResult(value: unknown, failure: unknown, maxResultChars: number, wrapBytes: (bytes: Uint8Array) => unknown): string;
  /** What the conversion changed in a result, one note per place (at most a few). */
  resultNotes(value: unknown): string[];
  /** Why a result cannot be JSON (a BigInt or a cycle, with its path), or undefined when not found. */
  unserializable(value: unknown): string | undefined;
  /** The note for a top-level result that is not data (a function or Symbol). */
  notData(value: unknown): string | undefined;
}

export interface GuestBase64 {
  encode(bytes: Uint8Array): string;
  decode(text: string): Uint8Array;
}
