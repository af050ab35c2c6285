import { spawn as nodeSpawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { statSync } from "node:fs";
import { serializeMessage, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { forgetChildGroup, trackChildGroup } from "../../util/child-groups.js";
import { LineFramer } from "./line-framer.js";
import { RawToolCalls } from "./raw-call.js";

/**
 * A stdio client transport speaking the SDK's framing (its ReadBuffer and serializeMessage), written
 * here instead of using `@modelcontextprotocol/client/stdio` because that one always merges its own
 * inherited variables (SHELL, TERM, LOGNAME, ...) into the child's environment, cannot kill a
 * process group, takes up to 4 s to stop a hung server, and drops non-JSON stdout lines silently. This one starts the server as a process
 * group leader so closing it also ends anything it started (npx -> node), spawns through an injected
 * function, and uses exactly the environment it is given.
 */
export type SpawnFunction = (command: string, args: readonly string[], options: SpawnOptions) => ChildProcess;

export interface StdioTransportParams {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Record<string, string>;
  /** Where the server starts; always given, so nothing inherits mcpvm's own working directory. */
  readonly cwd: string;
  readonly spawn?: SpawnFunction;
  readonly killGraceMs: number;
  readonly onStderr: (chunk: string) => void;
  readonly onStderrEnd: () => void;
  /** A line on stdout that is not JSON-RPC (servers must log to stderr). */
  readonly onStdoutGarbage: (line: string) => void;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const GROUPS = process.platform !== "win32";

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcess | undefined;
  private readonly framer: LineFramer;
  private exited: Promise<void> | undefined;
  private exitInfo: ExitInfo | undefined;
  /** A message went to stdin in this tick; more in the same tick are corked until it ends (sendLine). */
  private wroteThisTick = false;

  /** tools/call without the SDK client (raw-call.ts); its answers are taken off stdout here. */
  readonly raw: RawToolCalls;

  constructor(private readonly params: StdioTransportParams) {
    this.raw = new RawToolCalls((line) => this.sendLine(line));
    this.framer = new LineFramer((message) => this.onmessage?.(message), params.onStdoutGarbage, undefined, (value) => this.raw.intercept(value));
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ExitInfo | undefined {
    return this.exitInfo;
  }

  start(): Promise<void> {
    if (this.child !== undefined) return Promise.reject(new Error("stdio transport already started"));
    // spawn reports a missing cwd as ENOENT of the command, which reads as "command not found".
    if (!isDirectory(this.params.cwd)) return Promise.reject(new Error(`its working directory ${this.params.cwd} does not exist or is not a folder (set "cwd" of the server to an existing folder)`));
    const spawn = this.params.spawn ?? nodeSpawn;
    const child = spawn(this.params.command, this.params.args, {
      env: this.params.env,
      cwd: this.params.cwd,
      stdio: ["pipe", "pipe", "pipe"],
      detached: GROUPS,
      shell: false,
      windowsHide: true,
    });
    this.child = child;
    // Known process-wide, so a signal or crash that ends mcpvm ends this server too (src/util/child-groups.ts).
    const pid = child.pid;
    if (pid !== undefined) trackChildGroup(pid);
    child.once("exit", (code, signal) => {
      this.exitInfo = { code, signal };
      // Stragglers of the group (npx's grandchild) go with the leader; they may hold our pipes.
      this.signalGroup("SIGKILL");
      if (pid !== undefined) forgetChildGroup(pid);
    });
    // "close" comes after "exit" (or after a spawn "error") once stdout and stderr are drained, so
    // by then every stderr line has been seen.
    this.exited = new Promise((resolve) => child.once("close", () => resolve()));
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => this.params.onStderr(chunk));
    child.stderr?.on("end", () => this.params.onStderrEnd());
    child.stdout?.on("data", (chunk: Buffer) => this.receive(chunk));
    child.stdin?.on("error", (error) => this.onerror?.(error));
    child.once("close", () => {
      this.raw.failAll();
      this.onclose?.();
    });
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (error) => reject(error));
    });
  }

  private receive(chunk: Buffer): void {
    try {
      this.framer.push(chunk);
    } catch (error) {
      // Over the line size limit: the stream can no longer be framed.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      void this.kill();
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.sendLine(serializeMessage(message));
  }

  /** One serialized message (newline-terminated) to the server's stdin. */
  sendLine(line: string): Promise<void> {
    const stdin = this.child?.stdin;
    if (stdin === undefined || stdin === null || stdin.destroyed || this.exitInfo !== undefined) {
      return Promise.reject(new Error("stdio server is not running"));
    }
    // The first message of a tick goes to the pipe at once, so the server starts on it while this
    // process finishes its turn (a guest call's reply path, a sandbox's stack unwinding). Further
    // messages in the same tick (a $batch's calls, a reply and a notification) are held and go out
    // together in one more write at the end of the tick, rather than one system call each.
    if (!this.wroteThisTick) {
      this.wroteThisTick = true;
      process.nextTick(() => {
        this.wroteThisTick = false;
        if (stdin.writableCorked) stdin.uncork();
      });
    } else if (!stdin.writableCorked) {
      stdin.cork();
    }
    return new Promise((resolve) => {
      if (stdin.write(line)) resolve();
      else stdin.once("drain", () => resolve());
    });
  }

  /** Polite stop: EOF on stdin, then SIGTERM, then SIGKILL, each after the grace period. */
  async close(): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    if (child === undefined || exited === undefined) return;
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin?.end();
      if (!(await this.waitExit(exited, this.params.killGraceMs))) {
        this.signalGroup("SIGTERM");
        if (!(await this.waitExit(exited, this.params.killGraceMs))) this.signalGroup("SIGKILL");
      }
    }
    await this.drain(child, exited);
  }

  /** Immediate stop (connect timeout, framing broken): SIGKILL to the whole group. */
  async kill(): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    if (child === undefined || exited === undefined) return;
    this.signalGroup("SIGKILL");
    await this.drain(child, exited);
  }

  /** Waits for "close"; a process outside the group that still holds our pipes cannot delay it long. */
  private async drain(child: ChildProcess, exited: Promise<void>): Promise<void> {
    if (!(await this.waitExit(exited, this.params.killGraceMs))) {
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.stdin?.destroy();
    }
    await exited;
    this.framer.clear();
  }

  private waitExit(exited: Promise<void>, ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void exited.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    try {
      if (GROUPS) process.kill(-pid, signal);
      else this.child?.kill(signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }
}
