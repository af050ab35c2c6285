import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { cliBridge } from "../../../src/cli/commands/ui.js";
import { McpvmHost } from "../../../src/host/index.js";
import { startUi, type RunningUi, type StartUiOptions } from "../../../src/ui/index.js";

/**
 * Chromium for the browser tests: CHROMIUM_PATH, else `which chromium`. Without one the tests
 * skip locally (with the reason) and fail in CI, where .ci/run installs Debian's chromium.
 */
export function findChromium(): { path: string } | { missing: string } {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv !== undefined && fromEnv !== "") return existsSync(fromEnv) ? { path: fromEnv } : { missing: `CHROMIUM_PATH=${fromEnv} does not exist` };
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      const found = execFileSync("which", [name], { encoding: "utf8" }).trim();
      if (found !== "") return { path: found };
    } catch {
      // not on PATH
    }
  }
  return { missing: "no Chromium found (set CHROMIUM_PATH, or apt-get install -y chromium)" };
}

export const CHROMIUM = findChromium();
/** How long the page may take to show something: generous, the CI machine is a loaded 2-core box. */
export const POLL = { timeout: 20_000, interval: 100 };
export const IN_CI = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false";
/** Skip only locally; in CI a missing browser is a failure. */
export const SKIP_BROWSER = "missing" in CHROMIUM && !IN_CI;
if (SKIP_BROWSER && "missing" in CHROMIUM) console.warn(`skipping browser tests: ${CHROMIUM.missing}`);

export async function launchBrowser(): Promise<Browser> {
  if ("missing" in CHROMIUM) throw new Error(`browser tests need Chromium in CI: ${CHROMIUM.missing}`);
  return chromium.launch({ executablePath: CHROMIUM.path, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
}

let built: Promise<string> | undefined;
/** The dashboard bundle, built once per test file by the same script `npm run build` runs. */
export function builtAssets(): Promise<string> {
  built ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "mcpvm-ui-assets-"));
    const { buildUi } = (await import("../../../ui/build.mjs")) as { buildUi: (out: string) => Promise<string> };
    return buildUi(dir);
  })();
  return built;
}

export async function removeAssets(): Promise<void> {
  if (built === undefined) return;
  const dir = await built.catch(() => undefined);
  built = undefined;
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
}

/** The dashboard over a config home, in-process, as `mcpvm ui --no-open` starts it. */
export async function startDashboard(env: Record<string, string>, cwd: string, options: Pick<StartUiOptions, "opener"> = {}): Promise<RunningUi> {
  const host = await McpvmHost.open({ env });
  return startUi({ host, bridge: cliBridge(), cwd, assetsDir: await builtAssets(), ...options });
}

/** Collects the page's console errors and uncaught exceptions: a test fails on any it did not expect. */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  return errors;
}
