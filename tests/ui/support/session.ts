import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { RunningUi, StartUiOptions } from "../../../src/ui/index.js";
import { makeHome, type HomeOptions, type TrustHome } from "../../trust/helpers.js";
import { launchBrowser, removeAssets, SKIP_BROWSER, startDashboard, watchPageErrors } from "./browser.js";

export interface OpenedDashboard {
  readonly ui: RunningUi;
  readonly page: Page;
  /** The page's console errors and uncaught exceptions so far (a test expects none, or exactly the ones it caused). */
  readonly errors: string[];
}

export interface DashboardSession {
  /** A config home (see makeHome), removed after the test. */
  home(options: HomeOptions): Promise<TrustHome>;
  /** `mcpvm ui --no-open` over the home, in-process, and a fresh browser page on its URL; closed after the test. */
  open(home: TrustHome, options?: { readonly viewport?: { width: number; height: number } } & Pick<StartUiOptions, "opener">): Promise<OpenedDashboard>;
}

/**
 * What every browser test file of the dashboard sets up: one Chromium per file, and per test the
 * homes and dashboards it opened, closed and removed afterwards. Call at the top of the file.
 */
export function dashboardSession(): DashboardSession {
  const homes: TrustHome[] = [];
  const dashboards: RunningUi[] = [];
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!SKIP_BROWSER) browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await removeAssets();
  });
  afterEach(async () => {
    for (const ui of dashboards.splice(0)) await ui.close();
    // A server killed at close may still be flushing into the home for a moment: retry once.
    for (const home of homes.splice(0)) await home.cleanup().catch(() => new Promise((done) => setTimeout(done, 500)).then(() => home.cleanup()));
  });

  return {
    async home(options) {
      const home = await makeHome(options);
      homes.push(home);
      return home;
    },
    async open(home, options = {}) {
      if (browser === undefined) throw new Error("no browser: call open() only inside describe.skipIf(SKIP_BROWSER)");
      const ui = await startDashboard(home.env, home.dir, options.opener === undefined ? {} : { opener: options.opener });
      dashboards.push(ui);
      const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors = watchPageErrors(page);
      await page.goto(ui.url);
      return { ui, page, errors };
    },
  };
}
