import type { Logger } from "pino";
import type { Finding } from "../audit/index.js";
import { SemanticStage, type SemanticInput } from "../audit/semantic/index.js";

/** The auditor's semantic stage as the catalog builder calls it: findings for pending definitions. Never throws. */
export type SemanticReviewer = (input: SemanticInput, signal?: AbortSignal) => Promise<Finding[]>;

let shared: SemanticStage | undefined;
let toldUnavailable = false;

/**
 * One semantic stage per process (the encoder is loaded once, lazily, in a worker thread, at the first definition it
 * reviews). If it cannot load, the log says so once and only the rule-based audit runs — the rules' holds stand.
 */
export function createSemanticReviewer(logger: Pick<Logger, "warn">, stage?: SemanticStage): SemanticReviewer {
  const unavailable = (reason: string): void => {
    if (toldUnavailable && stage === undefined) return;
    toldUnavailable = true;
    logger.warn({}, `the tool auditor's semantic stage is unavailable (${reason}); only the rule-based audit runs (plugins.mcp.config.semanticAudit: false turns it off)`);
  };
  const reviewer = stage ?? (shared ??= new SemanticStage({ onUnavailable: unavailable }));
  return async (input, signal) => {
    try {
      return await reviewer.review(input, signal);
    } catch (error) {
      if (signal?.aborted !== true) unavailable((error as Error).message);
      return [];
    }
  };
}
