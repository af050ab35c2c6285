import { onSignal } from "../../util/signals.js";

/** Where Ctrl-C comes from while work runs (the terminal's SIGINT); injectable so tests can press it. */
export interface InterruptSource {
  subscribe(handler: () => void): () => void;
}

export function processInterrupts(): InterruptSource {
  return {
    subscribe(handler) {
      // Through the CLI's signal guard: with a plain process listener the guard would also end the process.
      return onSignal("SIGINT", handler);
    },
  };
}

/** An interrupt source driven by code: `interrupt()` behaves like one Ctrl-C. */
export class ManualInterrupts implements InterruptSource {
  private readonly handlers = new Set<() => void>();

  subscribe(handler: () => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  interrupt(): void {
    for (const handler of [...this.handlers]) handler();
  }
}
