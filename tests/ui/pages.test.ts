import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { cli } from "../trust/helpers.js";
import { POLL, SKIP_BROWSER } from "./support/browser.js";
import { contrastProblems, unlabelledControls } from "./support/accessibility.js";
import { screenshot, SCRIPTED, text, writeSpec } from "./support/dashboard.js";
import { dashboardSession } from "./support/session.js";

const session = dashboardSession();

/** A home with one approved scripted server "notes" (confirm policy as given) listing `search` and a destructive `wipe`. */
async function open(viewport = { width: 1280, height: 800 }, confirm = "writes") {
  const home = await session.home({ servers: (_starts, dir) => ({ notes: { command: process.execPath, args: [SCRIPTED, join(dir, "notes.json")], confirm } }), approve: ["notes"] });
  await writeSpec(join(home.dir, "notes.json"), [
    { name: "search", description: "Search notes by keyword.", inputSchema: text, annotations: { readOnlyHint: true } },
    { name: "wipe", description: "Delete every note.", inputSchema: text, annotations: { destructiveHint: true } },
  ]);
  return { home, ...(await session.open(home, { viewport })) };
}

/** Waits until the page's own content is there (its heading, and no "Loading…"), instead of sleeping. */
async function shown(page: Page, name: string): Promise<void> {
  await page.getByRole("heading", { level: 2, name: new RegExp(`^${name}`) }).waitFor({ timeout: POLL.timeout });
  await expect.poll(() => page.locator("main").getByText("Loading…").count(), POLL).toBe(0);
}

async function runScript(page: Page, code: string): Promise<void> {
  await page.locator(".cm-content").fill(code);
  await page.getByRole("button", { name: "Run", exact: true }).click();
}

describe.skipIf(SKIP_BROWSER)("mcpvm ui pages in Chromium", { timeout: 180_000 }, () => {
  it("Run: completion from the generated declarations, result and logs, a destructive call confirmed (or declined) in the page", async () => {
    const { page, errors } = await open();
    await page.getByRole("link", { name: "Run" }).click();
    await expect.poll(() => page.locator(".dts").textContent(), { timeout: 20_000 }).toContain('declare module "host:mcp-notes"');
    await page.locator(".cm-content").fill("");
    await page.locator(".cm-content").pressSequentially("return tools.notes.");
    await expect.poll(() => page.locator(".cm-tooltip-autocomplete").textContent(), { timeout: 20_000 }).toContain("wipe");
    await page.keyboard.press("Escape");

    await runScript(page, 'console.log("wiping");\nreturn await tools.notes.wipe({ text: "all" });');
    const dialog = page.getByRole("alertdialog", { name: "Allow notes.wipe?" });
    await expect.poll(() => dialog.count(), { timeout: 20_000 }).toBe(1);
    expect(await dialog.textContent()).toContain('"text": "all"');
    await screenshot(page, "run-confirm");
    await dialog.getByRole("button", { name: "Allow this call" }).click();
    await expect.poll(() => page.getByTestId("run-result").textContent(), { timeout: 20_000 }).toContain("all");
    expect(await page.getByTestId("run-logs").textContent()).toContain("[log] wiping");

    await runScript(page, 'return await tools.notes.wipe({ text: "again" });');
    await expect.poll(() => dialog.count(), { timeout: 20_000 }).toBe(1);
    await dialog.getByRole("button", { name: "Decline" }).click();
    await expect.poll(() => page.getByTestId("run-error").textContent(), { timeout: 20_000 }).toContain("MCP_CALL_DECLINED");
    expect(errors).toEqual([]);
  });

  it("Run: Stop while the dashboard does not answer says so next to the run, not as a page error; Stop again stops it", async () => {
    const { page, errors } = await open();
    await page.getByRole("link", { name: "Run" }).click();
    // The run waits on its confirmation question: running, with Stop shown, for as long as the test needs.
    await runScript(page, 'return await tools.notes.wipe({ text: "all" });');
    await expect.poll(() => page.getByRole("alertdialog", { name: "Allow notes.wipe?" }).count(), { timeout: 20_000 }).toBe(1);
    // Only the cancel request is cut: the run itself is still followed.
    await page.route("**/api/runs/*/cancel", (route) => route.abort());
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    const runSection = page.getByRole("region", { name: "Run a script" });
    const stopError = runSection.getByRole("alert").filter({ hasText: "Could not stop the run" });
    await expect.poll(() => stopError.count(), POLL).toBe(1);
    expect(await stopError.textContent()).toMatch(/is not answering.*\(UI_OFFLINE\)/);
    expect(await page.locator("#page-errors").count()).toBe(0);

    await page.unroute("**/api/runs/*/cancel");
    await page.getByRole("button", { name: "Stop", exact: true }).click();
    await expect.poll(() => page.getByTestId("run-error").count(), { timeout: 20_000 }).toBe(1);
    expect(await stopError.count()).toBe(0);
    expect(errors).toEqual(["console: Failed to load resource: net::ERR_FAILED"]);
  });

  it("Activity: calls made by the CLI and by the page show up live, filterable, with a detail view", async () => {
    const { home, page, errors } = await open(undefined, "never");
    await page.getByRole("link", { name: "Activity" }).click();
    await expect.poll(() => page.getByText("No calls yet").count(), POLL).toBe(1);
    expect((await cli(home, ["mcp", "call", "notes", "search", "text=from-the-cli"])).code).toBe(0);
    const rows = page.locator("table.activity tbody tr");
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(1);
    expect(await rows.first().textContent()).toContain("notes.search");
    expect(await rows.first().locator("td").nth(1).textContent()).toBe("cli");

    await page.getByRole("link", { name: "Run" }).click();
    await runScript(page, 'await tools.notes.search({ text: "from-the-page" }); return await tools.notes.wipe({ text: "x" });');
    await expect.poll(() => page.getByTestId("run-result").count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole("link", { name: "Activity" }).click();
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(3);
    await page.getByLabel("Filter").fill("from-the-page");
    await expect.poll(() => rows.count(), POLL).toBe(1);
    expect(await rows.first().locator("td").nth(1).textContent()).toBe("ui");
    await rows.first().getByRole("button").click();
    const detail = page.getByRole("region", { name: "notes.search" });
    expect(await detail.textContent()).toContain('"text": "from-the-page"');
    await page.getByLabel("Filter").fill("");
    await screenshot(page, "activity");
    expect(errors).toEqual([]);
  });

  it("Toolsets: build one from the listed tools; the flattened names are shown; the CLI sees it", async () => {
    const { home, page, errors } = await open();
    await page.getByRole("link", { name: "Toolsets" }).click();
    await page.getByLabel("Name", { exact: true }).fill("daily");
    await expect.poll(() => page.getByRole("checkbox", { name: "notes.search" }).count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole("checkbox", { name: "notes.search" }).check();
    await page.getByRole("button", { name: "Save toolset" }).click();
    const card = page.getByRole("article", { name: "daily" });
    await expect.poll(() => card.textContent(), { timeout: 20_000 }).toContain("notes_search");
    expect(await card.textContent()).toContain("mcpvm serve --toolset daily");
    const shown = JSON.parse((await cli(home, ["--json", "toolset", "show", "daily"])).stdout);
    expect(shown.toolset.tools).toEqual(["notes.search"]);
    await page.getByLabel("Name", { exact: true }).fill("bad name!");
    await page.getByRole("button", { name: "Save toolset" }).click();
    await expect.poll(() => page.getByRole("alert").textContent(), POLL).toContain("toolset names are 1-64 letters");
    await screenshot(page, "toolsets");
    expect(errors).toEqual(["console: Failed to load resource: the server responded with a status of 400 (Bad Request)"]);
  });

  it("keyboard, labels and contrast on every page; a narrow window has no sideways scrolling", async () => {
    const { ui, page, errors } = await open();
    // Offline: everything the page loads or calls is the dashboard's own (no CDN, no font service).
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(`${ui.origin}/`)) elsewhere.push(request.url());
    });
    await page.reload();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Approvals/);
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => location.hash), POLL).toBe("#/approvals");
    for (const name of ["Servers", "Approvals", "Toolsets", "Activity", "Run"]) {
      await page.getByRole("link", { name: new RegExp(`^${name}`) }).click();
      await shown(page, name);
      expect(await unlabelledControls(page), `unlabelled controls on ${name}`).toEqual([]);
      expect(await contrastProblems(page), `low contrast on ${name}`).toEqual([]);
    }
    await page.setViewportSize({ width: 390, height: 800 });
    for (const name of ["Servers", "Approvals", "Toolsets", "Activity", "Run"]) {
      await page.getByRole("link", { name: new RegExp(`^${name}`) }).click();
      await shown(page, name);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth), `sideways scrolling on ${name}`).toBe(true);
    }
    await page.getByRole("link", { name: "Servers" }).click();
    await screenshot(page, "servers-narrow");
    expect(elsewhere).toEqual([]);
    expect(errors).toEqual([]);
  });

  it("a JavaScript error is reported in the page, not a blank screen", async () => {
    const { page } = await open();
    await page.evaluate(() => setTimeout(() => {
      throw new Error("boom from a test");
    }, 0));
    const alert = page.locator("#page-errors");
    await expect.poll(() => alert.textContent(), POLL).toContain("boom from a test");
    expect(await page.getByRole("heading", { name: "Servers" }).isVisible()).toBe(true);
  });
});
