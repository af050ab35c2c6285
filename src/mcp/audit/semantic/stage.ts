import { createHash } from "node:crypto";
import type { AuditedTool, Finding } from "../types.js";
import { bestSentence, semanticFinding } from "./classify.js";
import { EmbedderUnavailable, WorkerEmbedder, type SentenceEmbedder } from "./embedder.js";
import { instructionSentences, toolSentences, type Sentence } from "./sentences.js";

export interface SemanticInput {
  readonly tools: readonly AuditedTool[];
  readonly instructions?: string | undefined;
}

export interface SemanticStageOptions {
  readonly embedder?: SentenceEmbedder;
  /** Called once, the first time the encoder cannot be used; the rules go on alone. */
  readonly onUnavailable?: (reason: string) => void;
  /** Sentences reviewed per listing (default MAX_LISTING_SENTENCES). */
  readonly maxListingSentences?: number;
}

/** Definitions remembered by hash (a gateway lists the same servers for every session). */
const MAX_CACHED = 4_096;
/** Sentences sent to the worker in one message: the wasm heap grows with the batch and never shrinks (64: +305 MB RSS over a 700-sentence listing, 16: +211 MB, at the same speed). */
const BATCH = 16;
/** Sentences reviewed per listing (48 per tool at most): a server listing thousands of tools is reviewed up to here. */
export const MAX_LISTING_SENTENCES = 4_000;

interface Pending {
  readonly key: string;
  readonly tool: string | undefined;
  readonly sentences: readonly Sentence[];
}

/**
 * The semantic stage of the tool auditor: each definition's English sentences through a sentence encoder (in a worker
 * thread) and a fitted classifier (classify.ts); a definition whose most instruction-like sentence reaches the
 * threshold gets a `semantic` finding (warn), which holds it like any rule's. It runs beside the rules, never instead
 * of them: when the encoder cannot load, the stage says so once and returns no findings, and what the rules hold
 * stays held. Results are cached by the definition's hash.
 */
export class SemanticStage {
  private readonly embedder: SentenceEmbedder;
  private readonly cache = new Map<string, Finding | null>();
  private unavailable: string | undefined;

  constructor(private readonly options: SemanticStageOptions = {}) {
    this.embedder = options.embedder ?? new WorkerEmbedder();
  }

  /** Why the stage is off for this process, once the encoder failed. */
  get unavailableReason(): string | undefined {
    return this.unavailable;
  }

  async review(input: SemanticInput, signal?: AbortSignal): Promise<Finding[]> {
    const pending: Pending[] = [];
    const findings: Finding[] = [];
    const consider = (key: string, tool: string | undefined, sentences: () => Sentence[]): void => {
      const cached = this.cache.get(key);
      if (cached !== undefined) {
        if (cached !== null) findings.push(cached);
      } else pending.push({ key, tool, sentences: sentences() });
    };
    if (input.instructions !== undefined) consider(hashOf(["instructions", input.instructions]), undefined, () => instructionSentences(input.instructions));
    for (const tool of input.tools) consider(hashOf(["tool", tool]), tool.name, () => toolSentences(tool));
    if (pending.length === 0 || this.unavailable !== undefined) return findings;

    let budget = this.options.maxListingSentences ?? MAX_LISTING_SENTENCES;
    const reviewed = pending.map((p) => {
      const sentences = p.sentences.slice(0, Math.max(0, budget));
      budget -= sentences.length;
      return { ...p, sentences, complete: sentences.length === p.sentences.length };
    });
    const texts = [...new Set(reviewed.flatMap((p) => p.sentences.map((s) => s.text)))];
    let vectors: Map<string, Float32Array>;
    try {
      vectors = await this.embedAll(texts, signal);
    } catch (error) {
      if (!(error instanceof EmbedderUnavailable) || error.message === "aborted") throw error;
      this.unavailable = error.message;
      this.options.onUnavailable?.(error.message);
      return findings;
    }
    for (const p of reviewed) {
      const best = bestSentence(p.sentences, p.sentences.map((s) => vectors.get(s.text) ?? []));
      const finding = semanticFinding(p.tool, best);
      if (finding !== undefined) findings.push(finding);
      // A definition cut short by the listing's budget is not remembered as reviewed.
      if (p.complete) this.remember(p.key, finding ?? null);
    }
    return findings;
  }

  async close(): Promise<void> {
    await this.embedder.close();
  }

  private async embedAll(texts: readonly string[], signal: AbortSignal | undefined): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (let i = 0; i < texts.length; i += BATCH) {
      if (signal?.aborted === true) throw new EmbedderUnavailable("aborted");
      const batch = texts.slice(i, i + BATCH);
      const vectors = await this.embedder.embed(batch, signal);
      batch.forEach((text, j) => {
        const v = vectors[j];
        if (v !== undefined) out.set(text, v);
      });
    }
    return out;
  }

  private remember(key: string, finding: Finding | null): void {
    if (this.cache.size >= MAX_CACHED) {
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
    this.cache.set(key, finding);
  }
}

function hashOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex");
}
