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
  callSync(module: string, fn: string, argsText: string): string;
  /**
   * Starts a host function and returns a guest Promise of its reply envelope, so several calls can
   * be in flight at once. Optional: without it, `__mcpvm.callAsync` falls back to callSync.
   */
  callAsync?(module: string, fn: string, argsText: string): Promise<string>;
  /** Records one console line; the engine meters it against the output budget. */
  log(level: string, message: string): void;
}

/**
 * The function name a guest calls (through callSync) to load a lazy module; the reply's value is
 * the module's function names. "#" keeps it apart from every real function name (JS identifiers and
 * MCP tool names cannot contain it); it must not contain U+0000, which cannot cross a C string.
 */
export const LOAD_MODULE_FUNCTION = "#load";

/** JSON text of this is the bootstrap's second argument. */
export interface GuestManifest {
  /**
   * module name (without "host:") -> function names, or null for a lazy module whose functions
   * are only known once the guest requires it (see LazyHostModule)
   */
  readonly modules: Readonly<Record<string, readonly string[] | null>>;
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

/** Host -> guest reply to a host call. */
export type HostReply =
  | { readonly ok: true; readonly value?: unknown }
  | { readonly ok: false; readonly error: HostErrorInfo };

export interface HostErrorInfo {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
}

/** The guest-side helpers the bootstrap is composed from (each runs inside the sandbox). */
export interface GuestCodec {
  /** JSON text, or undefined for undefined/functions; throws like JSON.stringify. */
  encode(value: unknown): string | undefined;
  decode(text: string): unknown;
}

export type GuestFormatter = (args: readonly unknown[]) => string;

export interface GuestBase64 {
  encode(bytes: Uint8Array): string;
  decode(text: string): Uint8Array;
}
