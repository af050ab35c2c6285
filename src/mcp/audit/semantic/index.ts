export { bestSentence, semanticFinding, sentenceProbability } from "./classify.js";
export { EmbedderUnavailable, WorkerEmbedder, type SentenceEmbedder, type WorkerEmbedderOptions } from "./embedder.js";
export { instructionSentences, isEnglish, splitSentences, toolSentences, MAX_SENTENCES, MAX_SENTENCE_CHARS, type Sentence } from "./sentences.js";
export { SemanticStage, MAX_LISTING_SENTENCES, type SemanticInput, type SemanticStageOptions } from "./stage.js";
