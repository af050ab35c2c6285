/**
 * The MCP SDK reports some OAuth events with console.warn (`[mcp-sdk] OAuth "invalid_grant" —
 * invalidating the stored tokens and retrying authorization. Cause: "…"`): a developer's note,
 * written straight to stderr, past mcpvm's redactor, and quoting whatever the authorization server
 * said (some quote the refused token back). mcpvm handles each of these events itself and says so
 * in its own words (log in again, the login is kept, …), so the SDK's notes go to mcpvm's log,
 * redacted, instead of the person's terminal. Other console.warn output is left as it is.
 */
type Sink = (text: string) => void;

const PREFIX = "[mcp-sdk]";
const sinks = new Set<Sink>();
let original: typeof console.warn | undefined;

function routed(...args: unknown[]): void {
  const first = args[0];
  const sink = [...sinks].at(-1);
  if (typeof first !== "string" || !first.startsWith(PREFIX) || sink === undefined) {
    original?.apply(console, args);
    return;
  }
  sink(args.map((arg) => (typeof arg === "string" ? arg : String(arg))).join(" "));
}

/**
 * Sends the SDK's `[mcp-sdk]` warnings to `sink` (the latest one registered, when several hosts
 * share a process) until the returned function is called. console.warn is wrapped once per process
 * and stays wrapped (with no sink it passes everything on): unwrapping could undo, or loop with,
 * another wrapper installed since.
 */
export function routeSdkWarnings(sink: Sink): () => void {
  if (original === undefined) {
    original = console.warn;
    console.warn = routed;
  }
  sinks.add(sink);
  return () => {
    sinks.delete(sink);
  };
}
