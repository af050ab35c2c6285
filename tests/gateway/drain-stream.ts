/** A streamed response being read to its end: `ended` turns true (at `endedAt`) when the server closes it. */
export interface DrainedStream {
  ended: boolean;
  endedAt: number;
  text: string;
}

/** Reads a streamed response (SSE) in the background, keeping its text and noting when it ends. */
export function drainStream(response: Response): DrainedStream {
  const state: DrainedStream = { ended: false, endedAt: 0, text: "" };
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      state.text += decoder.decode(value, { stream: true });
    }
  })()
    .catch(() => undefined)
    .finally(() => Object.assign(state, { ended: true, endedAt: Date.now() }));
  return state;
}
