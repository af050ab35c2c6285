import type { McpvmHost } from "../../host/index.js";
import type { RunLimits } from "../../sandbox/types.js";

/**
 * How a tool reaches the person at the keyboard. The model can never approve anything itself:
 * approvals go through here, and where nobody can answer `canAsk` is false and the tool refuses.
 */
export interface PersonInteraction {
  readonly canAsk: boolean;
  /** Shows `details` (the exact approval text), then asks `question`; resolves true only on yes. */
  confirm(details: string, question: string, signal?: AbortSignal): Promise<boolean>;
  /** Progress while a server starts (a spinner in the REPL). */
  progress?<T>(text: string, work: () => Promise<T>): Promise<T>;
}

export interface AgentToolContext {
  readonly host: McpvmHost;
  readonly person: PersonInteraction;
  /** Limits for execute_javascript, read at each call so /timeout and /profile apply take effect at once. */
  runLimits(): Partial<RunLimits>;
}
