import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../e2e/helpers.js";

/**
 * The CLI (from source, through vite-node) in a home of the test's choosing, with a bare environment.
 * Root ignores file modes, so tests of permissions run it as the user `nobody` when they run as root.
 */

const VITE_NODE = join(ROOT, "node_modules", "vite-node", "vite-node.mjs");
const CLI_ENTRY = join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts");

export const asRoot = process.getuid?.() === 0;
export const NOBODY = 65534;

export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `mcpvm <args>` with MCPVM_HOME=home, as `nobody` when the tests run as root. */
export function mcpvmAsUser(home: string, args: readonly string[]): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [VITE_NODE, CLI_ENTRY, "--", ...args],
      { cwd: tmpdir(), env: { PATH: process.env.PATH ?? "", MCPVM_HOME: home, HOME: tmpdir() }, ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}) },
      (error, stdout, stderr) => resolve({ code: typeof error?.code === "number" ? error.code : 0, stdout, stderr }),
    );
  });
}
