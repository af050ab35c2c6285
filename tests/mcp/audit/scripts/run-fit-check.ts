import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");

/**
 * Runs a fitting script with `--check` in a process of its own and returns what it printed and its exit code. A fit
 * computes for a minute or more without a pause: run inside a test worker, it would keep that worker from answering
 * the test runner for as long (vitest gives up on a worker after 60 s without an answer).
 */
export function runFitCheck(script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const entry = path.join(root, "tests/mcp/audit/scripts", script);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(root, "node_modules/vite-node/vite-node.mjs"), entry, "--", "--check"], { cwd: root, maxBuffer: 16 << 20 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : undefined;
      if (code === undefined) reject(error ?? new Error(`${script} did not exit`));
      else resolve({ code, stdout, stderr });
    });
  });
}
