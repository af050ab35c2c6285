import type { Writable } from "node:stream";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Progress for long work (a server starting, the model thinking). Silent when the stream is not a TTY. */
export class Spinner {
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;
  private text = "";

  constructor(private readonly stream: Writable & { isTTY?: boolean }) {}

  get active(): boolean {
    return this.timer !== undefined;
  }

  start(text: string): void {
    this.text = text;
    if (this.stream.isTTY !== true || this.timer !== undefined) return;
    this.timer = setInterval(() => this.render(), 80);
    this.timer.unref();
    this.render();
  }

  update(text: string): void {
    this.text = text;
  }

  stop(finalLine?: string): void {
    if (this.timer !== undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
      this.stream.write("\r\u001b[2K");
    }
    if (finalLine !== undefined && this.stream.isTTY === true) this.stream.write(`${finalLine}\n`);
  }

  private render(): void {
    this.frame = (this.frame + 1) % FRAMES.length;
    this.stream.write(`\r\u001b[2K${FRAMES[this.frame]} ${this.text}`);
  }
}
