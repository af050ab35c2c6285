/**
 * The last N lines a server wrote to stderr, for error messages and diagnostics. Bounded in lines
 * and in line length so a chatty or hostile server cannot grow host memory.
 */
export const MAX_STDERR_LINE_CHARS = 2_000;

export class StderrRing {
  private readonly lines: string[] = [];
  private partial = "";
  private dropped = 0;

  constructor(
    private readonly capacity: number,
    private readonly onLine: (line: string) => void = () => {},
  ) {}

  /** Feed a raw chunk; complete lines are stored (after `transform`) and reported. */
  write(chunk: string, transform: (line: string) => string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = (parts.pop() ?? "").slice(0, MAX_STDERR_LINE_CHARS);
    for (const part of parts) this.push(transform(part.slice(0, MAX_STDERR_LINE_CHARS)));
  }

  /** Store what is left of an unterminated last line (the process exited). */
  flush(transform: (line: string) => string): void {
    if (this.partial.length === 0) return;
    const rest = this.partial;
    this.partial = "";
    this.push(transform(rest));
  }

  private push(line: string): void {
    this.lines.push(line);
    if (this.lines.length > this.capacity) {
      this.lines.shift();
      this.dropped += 1;
    }
    this.onLine(line);
  }

  snapshot(): readonly string[] {
    return this.dropped > 0 ? [`[${this.dropped} earlier lines dropped]`, ...this.lines] : [...this.lines];
  }

  /** The last few lines, for an error message. */
  tail(count: number): string {
    return this.lines.slice(-count).join("\n");
  }
}
