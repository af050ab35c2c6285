import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { POLL, SKIP_BROWSER } from "./support/browser.js";
import { SCRIPTED, text, writeSpec } from "./support/dashboard.js";
import { dashboardSession } from "./support/session.js";

const session = dashboardSession();
const RLO = "\u202e";

describe.skipIf(SKIP_BROWSER)("mcpvm ui shows text from servers, configs and scripts as the terminal does", { timeout: 180_000 }, () => {
  it("bidi overrides and invisible characters are shown as escapes (approval card, held tool, result, logs, activity); HTML stays text", async () => {
    // An argument that reads "notes.json" backwards-spoofed: what the card shows must be what runs.
    const home = await session.home({ servers: (_starts, dir) => ({ notes: { command: process.execPath, args: [SCRIPTED, join(dir, "notes.json"), `--label=${RLO}nosj.eton`], confirm: "never" } }) });
    await writeSpec(join(home.dir, "notes.json"), [
      { name: "echo", description: "Echo the text.", inputSchema: text },
      { name: "sly", description: `Harmless${RLO} tool.`, inputSchema: text },
    ]);
    const { page, errors } = await session.open(home);
    await page.getByRole("link", { name: /Approvals/ }).click();
    const card = page.locator('[data-launch="notes"]');
    await expect.poll(() => card.locator("code.arg").allTextContents(), POLL).toContain("--label=\\u202enosj.eton");
    expect(await card.textContent()).not.toContain(RLO);
    await card.getByRole("button", { name: "Approve notes" }).click();
    // The held tool's definition and its finding name the character instead of hiding it.
    const held = page.locator('[data-held="notes.sly"]');
    await expect.poll(() => held.count(), { timeout: 20_000 }).toBe(1);
    expect(await held.getByRole("table").textContent()).toContain('"description": "Harmless\\u202e tool."');
    expect((await held.locator("mark").allTextContents()).join(" ")).toMatch(/U\+202E|\\u202e/);
    expect(await held.textContent()).not.toContain(RLO);

    await page.getByRole("link", { name: "Run" }).click();
    await page.locator(".cm-content").fill(`console.log("log ${RLO}txt.exe");\nreturn await tools.notes.echo({ text: "<img src=x onerror=document.title='pwned'> ${RLO}gnp.exe" });`);
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const result = page.getByTestId("run-result");
    await expect.poll(() => result.textContent(), { timeout: 20_000 }).toContain("\\u202egnp.exe");
    expect(await result.textContent()).toContain("<img src=x onerror=document.title='pwned'>");
    expect(await page.getByTestId("run-logs").textContent()).toBe("[log] log \\u202etxt.exe");
    expect(await page.locator('img[src="x"]').count()).toBe(0);

    await page.getByRole("link", { name: "Activity" }).click();
    const row = page.locator("table.activity tbody tr").first();
    await expect.poll(() => row.locator("code.args").textContent(), POLL).toContain("\\u202egnp.exe");
    await row.getByRole("button").click();
    expect(await page.locator(".detail pre").textContent()).toContain("\\u202egnp.exe");
    expect(await page.locator("main").textContent()).not.toContain(RLO);
    expect(await page.title()).not.toBe("pwned");
    expect(errors).toEqual([]);
  });
});
