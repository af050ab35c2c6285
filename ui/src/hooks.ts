import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { describeError } from "./api.js";

/** Loads now and then every `intervalMs` (the page follows changes made from the CLI); keeps the last good value on an error. */
export function usePoll<T>(load: () => Promise<T>, intervalMs: number, deps: readonly unknown[] = []): { data: T | undefined; error: string | undefined; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const loadRef = useRef(load);
  loadRef.current = load;
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  useEffect(() => {
    let stopped = false;
    let timer: number | undefined;
    const run = async () => {
      try {
        const value = await loadRef.current();
        if (!stopped) {
          setData(value);
          setError(undefined);
        }
      } catch (e) {
        if (!stopped) setError(describeError(e));
      }
      if (!stopped && intervalMs > 0) timer = window.setTimeout(run, intervalMs);
    };
    void run();
    return () => {
      stopped = true;
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, [tick, intervalMs, ...deps]);
  return { data, error, reload };
}

/** An action button's state: busy while it runs, then its message or its error. */
export function useAction(): { busy: boolean; message: string | undefined; error: string | undefined; run: (action: () => Promise<string | undefined>) => Promise<void>; clear: () => void } {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const run = useCallback(async (action: () => Promise<string | undefined>) => {
    setBusy(true);
    setError(undefined);
    setMessage(undefined);
    try {
      setMessage(await action());
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => {
    setMessage(undefined);
    setError(undefined);
  }, []);
  return { busy, message, error, run, clear };
}

/**
 * A destructive button asked first: the question replaces the button, so for keyboard users focus
 * goes to its safe answer (Cancel), and back to the button when they cancel, instead of falling to
 * the page's top. Escape in the question answers Cancel, as in a dialog.
 */
export function useConfirmFocus(): {
  asking: boolean;
  setAsking: (asking: boolean) => void;
  cancelButton: { current: HTMLButtonElement | null };
  askButton: { current: HTMLButtonElement | null };
  onQuestionKey: (event: KeyboardEvent) => void;
} {
  const [asking, setAsking] = useState(false);
  const cancelButton = useRef<HTMLButtonElement>(null);
  const askButton = useRef<HTMLButtonElement>(null);
  const asked = useRef(false);
  useEffect(() => {
    if (asking) cancelButton.current?.focus();
    else if (asked.current) askButton.current?.focus();
    asked.current = asking;
  }, [asking]);
  const onQuestionKey = useCallback((event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    setAsking(false);
  }, []);
  return { asking, setAsking, cancelButton, askButton, onQuestionKey };
}
