import { statFileStamp } from "../mcp/service/index.js";
import type { NamedToolset } from "./toolsets/store.js";

/**
 * toolsets.json as it was when the gateway's toolset (`serve --toolset`, equip-toolset) was read from
 * it. The gateway re-reads the toolset when the file changes, like config.json, so an edit made with
 * `mcpvm toolset …` while it runs applies to the next request: one synchronous stat per request, as the
 * approval re-check does (an async stat costs a thread-pool round trip on every call).
 */
export class ToolsetsFileWatch {
  private stamp: string | undefined;

  constructor(private readonly file: string) {}

  /** Remember the file's version; called before the toolset is read, so a write after the read is noticed. */
  mark(): void {
    this.stamp = statFileStamp(this.file)?.key;
  }

  /** Whether the file changed since it was last marked or checked (each version is reported once). */
  changed(): boolean {
    const now = statFileStamp(this.file)?.key;
    if (now === this.stamp) return false;
    this.stamp = now;
    return true;
  }
}

/** Whether a re-read toolset differs from the equipped one in what decides the tools (its references). */
export function sameTools(a: NamedToolset, b: NamedToolset): boolean {
  return a.tools.length === b.tools.length && a.tools.every((ref, index) => b.tools[index] === ref);
}
