import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everythingServer, makeHome, SERVE_ENTRY, VITE_NODE, type TestHome } from "./helpers.js";

/**
 * A stdio client that sends one message over the transport's 10 MiB cap (a huge tool argument):
 * the gateway stops reading stdin. It must then say so on stderr and shut down, not stay alive
 * with an upstream server running while the client's write blocks on a pipe nobody reads (the
 * client hung for good, with nothing in its MCP log).
 */
describe("mcpvm serve (stdio): a message over the size cap", () => {
  let home: TestHome;

  beforeAll(async () => {
    home = await makeHome({ servers: { everything: everythingServer() } });
  });
  afterAll(async () => {
    await home?.cleanup();
  });

  it("is refused on stderr, saying what and what to do, and the gateway shuts down", async () => {
    const child = spawn(process.execPath, [VITE_NODE, SERVE_ENTRY, "--", "--expose", "everything", "--log-level", "warn"], { env: home.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdin.on("error", () => undefined); // EPIPE once the gateway has gone: expected.
    const exited = new Promise<number | string>((resolve) => child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown")));
    const send = (message: unknown): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
    const answered = async (id: number): Promise<void> => {
      for (let i = 0; i < 1_200 && !stdout.includes(`"id":${id}`); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stdout, stderr).toContain(`"id":${id}`);
    };
    try {
      send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "oversize", version: "1" } } });
      await answered(1);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      // A call first, so an upstream server runs (it kept the gateway's process alive).
      send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { message: "hello" } } });
      await answered(2);
      send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { message: "x".repeat(11 * 1024 * 1024) } } });
      const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 30_000))]);
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(/a message on stdin is larger than 10485760 bytes.*send large data as a file path or a resource/i);
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);

  it("a message under the cap followed at once by another (one write) is served, not taken for one over it", async () => {
    const child = spawn(process.execPath, [VITE_NODE, SERVE_ENTRY, "--", "--expose", "everything", "--log-level", "warn"], { env: home.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdin.on("error", () => undefined);
    const line = (message: unknown): string => `${JSON.stringify(message)}\n`;
    const answered = async (id: number): Promise<void> => {
      for (let i = 0; i < 1_200 && !stdout.includes(`"id":${id}`); i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stdout, stderr).toContain(`"id":${id}`);
    };
    try {
      child.stdin.write(line({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "near-cap", version: "1" } } }));
      await answered(1);
      child.stdin.write(line({ jsonrpc: "2.0", method: "notifications/initialized" }));
      // 4 KiB under the cap, then another call in the same write: the pipe hands them over in 64 KiB
      // reads, the last of which holds the big message's end and the next one's start.
      const big = line({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { message: "" } } }).replace('""', `"${"x".repeat(10 * 1024 * 1024 - 4096 - 100)}"`);
      expect(Buffer.byteLength(big)).toBeLessThanOrEqual(10 * 1024 * 1024 - 4096);
      child.stdin.write(big + line({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "echo", arguments: { message: "y".repeat(300 * 1024) } } }));
      await answered(3);
      await answered(5);
      expect(stderr).not.toMatch(/larger than/);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill("SIGKILL");
    }
  }, 120_000);
});
