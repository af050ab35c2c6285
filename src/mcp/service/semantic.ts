import type { Logger } from "pino";
import type { Finding } from "../audit/index.js";
import { SemanticStage, type SemanticInput, type SentenceEmbedder } from "../audit/semantic/index.js";

/** The auditor's semantic stage as the catalog builder calls it: findings for pending definitions. Never throws. */
export type SemanticReviewer = (input: SemanticInput, signal?: AbortSignal) => Promise<Finding[]>;

let shared: SemanticStage | undefined;
let toldShared = false;

/**
 * One semantic stage per process (the encoder is loaded once, lazily, in a worker thread, at the first definition it
 * reviews; the first service's logger is the one told). If it cannot load, the log says so once and only the
 * rule-based audit runs — the rules' holds stand. `embedder`: a stage of its own with that encoder (tests).
 */
export function createSemanticReviewer(logger: Pick<Logger, "warn">, embedder?: SentenceEmbedder): SemanticReviewer {
  let told = false;
  const unavailable = (reason: string): void => {
    if (embedder === undefined ? toldShared : told) return;
    if (embedder === undefined) toldShared = true;
    else told = true;
    logger.warn({}, `the tool auditor's semantic stage is unavailable (${reason}); only the rule-based audit runs (plugins.mcp.config.semanticAudit)`);
  };
  const stage = embedder === undefined ? (shared ??= new SemanticStage({ onUnavailable: unavailable })) : new SemanticStage({ embedder, onUnavailable: unavailable });
  return async (input, signal) => {
    try {
      return await stage.review(input, signal);
    } catch (error) {
      if (signal?.aborted !== true) unavailable((error as Error).message);
      return [];
    }
  };
}
