/**
 * The body of the embedding worker thread. It runs as `eval` source (like the QuickJS worker), so it
 * must be self-contained: everything it needs comes through `require` and `workerData`, never through
 * this module's imports. The model's packages are CommonJS; their absolute paths are resolved by the
 * main thread (embedder.ts), so the worker finds them whatever the process's working directory.
 *
 * Protocol: the worker posts `{ type: "ready", dims }` once the model is loaded, or `{ type: "failed",
 * message }` and exits. Each `{ id, texts }` is answered with `{ id, vectors }` (one Float32Array of
 * texts.length × dims, transferred) or `{ id, error }`.
 */
export interface EmbedWorkerData {
  readonly embeddingsPath: string;
  readonly modelPath: string;
}

export type EmbedWorkerReply =
  | { readonly type: "ready"; readonly dims: number }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "result"; readonly id: number; readonly vectors: Float32Array }
  | { readonly type: "error"; readonly id: number; readonly message: string };

export interface EmbedRequest {
  readonly id: number;
  readonly texts: readonly string[];
}

/** What the worker uses of @energetic-ai/embeddings and its model package (loaded untyped through `require`). */
interface EncoderModule {
  initModel(source: unknown): Promise<{ embed(texts: string[]): Promise<number[][]> }>;
}
interface WeightsModule {
  readonly modelSource: unknown;
}

export function embedWorkerMain(req: (id: string) => unknown): void {
  const { parentPort, workerData } = req("node:worker_threads") as typeof import("node:worker_threads");
  const data = workerData as EmbedWorkerData;
  const port = parentPort;
  if (port === null) return;
  // tfjs prints advice on stdout ("Hi there 👋 …"); stdout may carry MCP traffic in the parent, so the worker keeps quiet.
  console.log = () => undefined;
  console.warn = () => undefined;
  console.info = () => undefined;
  // No named function bindings in here: a bundler's keep-names helper (`__name`) would not exist in the worker.
  (async (): Promise<void> => {
    const embeddings = req(data.embeddingsPath) as EncoderModule;
    const weights = req(data.modelPath) as WeightsModule;
    const model = await embeddings.initModel(weights.modelSource);
    const probe = await model.embed(["ready"]);
    const dims = probe[0]?.length ?? 0;
    port.postMessage({ type: "ready", dims });
    port.on("message", (request: EmbedRequest) => {
      model
        .embed(request.texts.length === 0 ? ["-"] : [...request.texts])
        .then((rows) => {
          const vectors = new Float32Array(request.texts.length * dims);
          rows.slice(0, request.texts.length).forEach((row, i) => vectors.set(row, i * dims));
          port.postMessage({ type: "result", id: request.id, vectors }, [vectors.buffer]);
        })
        .catch((error: unknown) => port.postMessage({ type: "error", id: request.id, message: error instanceof Error ? error.message : String(error) }));
    });
  })().catch((error: unknown) => {
    port.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
    port.close();
  });
}
