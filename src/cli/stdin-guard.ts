import { Transform, type Readable } from "node:stream";

/**
 * The classic mistake: an MCP client config with `"command": "mcpvm"` and no `serve`. The client
 * then pipes JSON-RPC into the chat. Both checks below catch it before anything is chatted.
 */
export const NOT_A_TERMINAL_MESSAGE = "mcpvm: stdin is not a terminal — did you mean `mcpvm serve`? (to chat from a script, use `mcpvm repl`)";
export const JSON_RPC_ON_STDIN_MESSAGE = "mcpvm: stdin carries JSON-RPC, which an MCP client sends — did you mean `mcpvm serve`? (the REPL reads lines a person types)";

export function isTerminal(stream: Readable): boolean {
  return (stream as Readable & { isTTY?: boolean }).isTTY === true;
}

/** `{"jsonrpc":"2.0", …}` (or a batch of them) on one line. */
export function looksLikeJsonRpc(line: string): boolean {
  return /^\s*\[?\s*\{.*"jsonrpc"\s*:\s*"2\.0"/.test(line);
}

/**
 * Passes `source` through unchanged, except when its first line looks like JSON-RPC: then nothing
 * is passed on, the stream ends (the REPL sees end of input and leaves) and `tripped()` is true.
 * It never waits for input before the REPL starts, so a script that reads the banner first still works.
 */
export function guardFirstLine(source: Readable): { stdin: Readable; tripped: () => boolean } {
  let pending: Buffer[] = [];
  let decided = false;
  let tripped = false;
  const decide = (stream: Transform, line: string) => {
    decided = true;
    if (looksLikeJsonRpc(line)) {
      tripped = true;
      source.unpipe(stream);
      // Nothing more is read from it; an open pipe (the client waits for an answer) must not keep mcpvm alive.
      source.destroy();
      stream.push(null);
    } else {
      for (const chunk of pending) stream.push(chunk);
    }
    pending = [];
  };
  const stdin = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      if (tripped) return done();
      if (decided) return done(null, chunk);
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      pending.push(buffer);
      const text = Buffer.concat(pending).toString("utf8");
      const newline = text.indexOf("\n");
      if (newline !== -1 || text.length > 64 * 1024) decide(this, newline === -1 ? text : text.slice(0, newline));
      done();
    },
    flush(done) {
      if (!decided) decide(this, Buffer.concat(pending).toString("utf8"));
      done();
    },
  });
  source.pipe(stdin);
  return { stdin, tripped: () => tripped };
}
