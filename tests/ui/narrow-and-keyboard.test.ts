import { join } from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { cli } from "../trust/helpers.js";
import { POLL, SKIP_BROWSER } from "./support/browser.js";
import { SCRIPTED, text, writeSpec } from "./support/dashboard.js";
import { dashboardSession } from "./support/session.js";

const session = dashboardSession();
/** One 300-character word: a path, a base64 blob, a minified argument. */
const WORD = "x".repeat(300);
const TOOL = `t${"o".repeat(60)}`;

const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe.skipIf(SKIP_BROWSER)("mcpvm ui on a narrow window and from the keyboard", { timeout: 180_000 }, () => {
  it("long unbroken names, descriptions, warnings and arguments wrap at 390 px instead of scrolling the page sideways", async () => {
    const home = await session.home({
      servers: (_starts, dir) => ({ notes: { command: process.execPath, args: [SCRIPTED, join(dir, "notes.json")], confirm: "never" }, broken: { command: `/nonexistent/${WORD}` } }),
      approve: ["notes", "broken"],
    });
    await writeSpec(join(home.dir, "notes.json"), [{ name: TOOL, description: WORD, inputSchema: text }]);
    const { page, errors } = await session.open(home, { viewport: { width: 390, height: 800 } });
    const card = page.locator('[data-server="notes"]');
    await card.getByRole("button", { name: "Show tools" }).click();
    await expect.poll(() => card.getByRole("list").textContent(), POLL).toContain(WORD);
    expect(await sideways(page)).toBe(0);

    await page.getByRole("link", { name: "Run" }).click();
    // The broken server's long path comes back in the "offers no completion" warning.
    await expect.poll(() => page.locator("p.warn").textContent(), { timeout: 20_000 }).toContain("broken offers no completion");
    await page.locator(".cm-content").fill(`console.log("${WORD}");\nreturn await tools.notes.${TOOL}({ text: "${WORD}" });`);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect.poll(() => page.getByTestId("run-result").textContent(), { timeout: 20_000 }).toContain(WORD);
    expect(await sideways(page)).toBe(0);

    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("button", { name: new RegExp(`^Details of notes\\.${TOOL}`) }).click();
    await expect.poll(() => page.locator(".detail pre").textContent(), POLL).toContain(WORD);
    expect(await sideways(page)).toBe(0);
    expect(errors).toEqual([]);
  });

  it("keyboard: Remove… moves focus to its Cancel and back; a call's details take the focus and give it back to its row", async () => {
    const home = await session.home({ servers: (_starts, dir) => ({ notes: { command: process.execPath, args: [SCRIPTED, join(dir, "notes.json")], confirm: "never" } }), approve: ["notes"] });
    await writeSpec(join(home.dir, "notes.json"), [{ name: "search", inputSchema: text }]);
    const { page, errors } = await session.open(home);
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    const card = page.locator('[data-server="notes"]');
    await card.getByRole("button", { name: "Remove…" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(focused, POLL).toBe("Cancel");
    await page.keyboard.press("Enter");
    await expect.poll(focused, POLL).toBe("Remove…");

    expect((await cli(home, ["mcp", "call", "notes", "search", "text=kb"])).code).toBe(0);
    await page.getByRole("link", { name: "Activity" }).click();
    const row = page.getByRole("button", { name: /^Details of notes\.search/ });
    await row.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.evaluate(() => document.activeElement?.classList.contains("detail") ?? false), POLL).toBe(true);
    await page.keyboard.press("Tab");
    await expect.poll(focused, POLL).toBe("Close details");
    await page.keyboard.press("Enter");
    await expect.poll(focused, POLL).toBe("notes.search");

    // And removing takes focus to the page, not to nowhere.
    await page.getByRole("link", { name: "Servers" }).click();
    await card.getByRole("button", { name: "Remove…" }).click();
    await expect.poll(focused, POLL).toBe("Cancel");
    await page.keyboard.press("Shift+Tab");
    expect(await focused()).toBe("Yes, remove notes");
    await page.keyboard.press("Enter");
    await expect.poll(() => card.count(), POLL).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe("main");
    expect(errors).toEqual([]);
  });

  it("keyboard: Escape answers No to Remove… and Delete… (focus back to the button, nothing removed) and closes a call's details", async () => {
    const home = await session.home({ servers: (_starts, dir) => ({ notes: { command: process.execPath, args: [SCRIPTED, join(dir, "notes.json")], confirm: "never" } }), approve: ["notes"] });
    await writeSpec(join(home.dir, "notes.json"), [{ name: "search", inputSchema: text }]);
    expect((await cli(home, ["toolset", "build", "daily", "notes.search"])).code).toBe(0);
    expect((await cli(home, ["mcp", "call", "notes", "search", "text=esc"])).code).toBe(0);
    const { page, errors } = await session.open(home);
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    const card = page.locator('[data-server="notes"]');
    await card.getByRole("button", { name: "Remove…" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(focused, POLL).toBe("Cancel");
    await page.keyboard.press("Escape");
    await expect.poll(focused, POLL).toBe("Remove…");
    expect(await card.getByRole("group", { name: "Confirm removing notes" }).count()).toBe(0);
    const listed = JSON.parse((await cli(home, ["--json", "mcp", "list"])).stdout) as { servers: { name: string }[] };
    expect(listed.servers.map((s) => s.name)).toEqual(["notes"]);

    await page.getByRole("link", { name: "Toolsets" }).click();
    const toolset = page.getByRole("article", { name: "daily" });
    await toolset.getByRole("button", { name: "Delete daily…" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(focused, POLL).toBe("Cancel");
    await page.keyboard.press("Escape");
    await expect.poll(focused, POLL).toBe("Delete daily…");
    expect(await toolset.getByRole("group", { name: "Confirm deleting daily" }).count()).toBe(0);

    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("button", { name: /^Details of notes\.search/ }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => page.locator(".detail").count(), POLL).toBe(1);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator(".detail").count(), POLL).toBe(0);
    await expect.poll(focused, POLL).toBe("notes.search");
    expect(errors).toEqual([]);
  });

  it("keyboard: a toolset's Delete… asks first (focus to Cancel and back), and deleting says so on the page", async () => {
    const home = await session.home({ servers: (_starts, dir) => ({ notes: { command: process.execPath, args: [SCRIPTED, join(dir, "notes.json")], confirm: "never" } }), approve: ["notes"] });
    await writeSpec(join(home.dir, "notes.json"), [{ name: "search", inputSchema: text }]);
    expect((await cli(home, ["toolset", "build", "daily", "notes.search"])).code).toBe(0);
    const { page, errors } = await session.open(home);
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    const stored = async () => JSON.parse((await cli(home, ["--json", "toolset", "list"])).stdout).toolsets.map((t: { name: string }) => t.name);
    await page.getByRole("link", { name: "Toolsets" }).click();
    const card = page.getByRole("article", { name: "daily" });
    await card.getByRole("button", { name: "Delete daily…" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(focused, POLL).toBe("Cancel");
    expect(await card.getByRole("group", { name: "Confirm deleting daily" }).textContent()).toContain("Delete toolset daily?");
    await page.keyboard.press("Enter");
    await expect.poll(focused, POLL).toBe("Delete daily…");
    expect(await stored()).toEqual(["daily"]);

    await page.keyboard.press("Enter");
    await expect.poll(focused, POLL).toBe("Cancel");
    await page.keyboard.press("Shift+Tab");
    expect(await focused()).toBe("Yes, delete daily");
    await page.keyboard.press("Enter");
    await expect.poll(() => card.count(), POLL).toBe(0);
    await expect.poll(() => page.getByRole("status").filter({ hasText: "Deleted toolset daily." }).count(), POLL).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe("main");
    expect(await stored()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
