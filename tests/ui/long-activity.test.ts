import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { POLL, SKIP_BROWSER } from "./support/browser.js";
import { dashboardSession } from "./support/session.js";

const session = dashboardSession();

/** One line of activity.jsonl as every face writes it. */
const record = (i: number, tool: string) =>
  JSON.stringify({ at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), face: "cli", pid: 1, server: "notes", tool, durationMs: 1, outcome: "ok", args: `{"n":${i}}` });

describe.skipIf(SKIP_BROWSER)("mcpvm ui with a long activity log", { timeout: 180_000 }, () => {
  it("says it shows only the newest calls, and a filter that matches none of them does not claim there are none at all", async () => {
    const home = await session.home({ servers: () => ({}) });
    // 400 calls, the oldest a tool called only once: it is in the file, past what the page shows.
    const lines = [record(0, "ancient"), ...Array.from({ length: 399 }, (_, i) => record(i + 1, "search"))];
    await writeFile(join(home.dir, "activity.jsonl"), `${lines.join("\n")}\n`, { mode: 0o600 });
    const { page, errors } = await session.open(home);
    await page.getByRole("link", { name: "Activity" }).click();
    await expect.poll(() => page.getByRole("button", { name: /^Details of notes\.search/ }).count(), POLL).toBe(300);
    expect(await page.locator("section[aria-labelledby=activity-title]").textContent()).toContain("the newest 300 calls are shown");

    await page.getByLabel("Filter").fill("ancient");
    const said = await page.locator("section[aria-labelledby=activity-title]").textContent();
    expect(said).not.toContain("No calls match.");
    expect(said).toContain("None of the newest 300 calls match");
    expect(errors).toEqual([]);
  });
});
