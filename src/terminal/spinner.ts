import type { Writable } from "node:stream";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Spinners drawing now: a prompt pauses them, or the next frame would erase the question. */
const running = new Set<Spinner>();

/**
 * Stop drawing every spinner while a person is asked something (an `${input:…}` value, a
 * confirmation); the returned function resumes them. Nested pauses are fine.
 */
export function pauseSpinners(): () => void {
  const paused = [...running].filter((spinner) => spinner.pause());
  return () => {
    for (const spinner of paused) spinner.resume();
  };
}

/** Progress for long work (a server starting, the model thinking). Silent when the stream is not a TTY. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private text = "";
  private paused = false;

  constructor(private readonly stream: Writable & { isTTY?: boolean }) {}

  get active(): boolean {
    return this.timer !== undefined || this.paused;
  }

  start(text: string): void {
    this.text = text;
    if (this.stream.isTTY !== true || this.timer !== undefined || this.paused) return;
    this.timer = setInterval(() => this.render(), 80);
    this.timer.unref();
    running.add(this);
    this.render();
  }

  /** Clears the line and stops drawing; true when it was drawing. */
  pause(): boolean {
    if (this.timer === undefined) return false;
    clearInterval(this.timer);
    this.timer = undefined;
    running.delete(this);
    this.paused = true;
    this.stream.write("\r\u001b[2K");
    return true;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.start(this.text);
  }

  update(text: string): void {
    this.text = text;
  }

  stop(finalLine?: string): void {
    this.paused = false;
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
      running.delete(this);
      this.stream.write("\r\u001b[2K");
    }
    if (finalLine !== undefined && this.stream.isTTY === true) this.stream.write(`${finalLine}\n`);
  }

  private render(): void {
    this.frame = (this.frame + 1) % FRAMES.length;
    this.stream.write(`\r\u001b[2K${FRAMES[this.frame]} ${this.text}`);
  }
}
