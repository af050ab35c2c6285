import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../trust/helpers.js";
import { POLL, SKIP_BROWSER } from "./support/browser.js";
import { SCRIPTED, text, writeSpec } from "./support/dashboard.js";
import { dashboardSession } from "./support/session.js";

const session = dashboardSession();

/** A home with one approved scripted server "notes" listing `a`, `b` and a destructive `wipe` (asked for in the page). */
async function open() {
  const home = await session.home({ servers: (_starts, dir) => ({ notes: { command: process.execPath, args: [SCRIPTED, join(dir, "notes.json")], confirm: "writes" } }), approve: ["notes"] });
  await writeSpec(join(home.dir, "notes.json"), [
    { name: "a", inputSchema: text, annotations: { readOnlyHint: true } },
    { name: "b", inputSchema: text, annotations: { readOnlyHint: true } },
    { name: "wipe", description: "Delete every note.", inputSchema: text, annotations: { destructiveHint: true } },
  ]);
  return { home, ...(await session.open(home)) };
}

const savedTools = async (dir: string, name: string): Promise<string[]> => JSON.parse(await readFile(join(dir, "toolsets.json"), "utf8")).toolsets[name].tools;

describe.skipIf(SKIP_BROWSER)("mcpvm ui with two tabs, page changes and reloads", { timeout: 180_000 }, () => {
  it("two tabs editing one toolset: the stale tab's save is refused and changes nothing (as is a save over a CLI build)", async () => {
    const { home, ui, page: first, errors } = await open();
    const second = await first.context().newPage();
    await second.goto(ui.url);
    const toolsField = "Tools, one server.tool per line";
    await first.getByRole("link", { name: "Toolsets" }).click();
    await first.getByLabel("Name", { exact: true }).fill("daily");
    await first.getByLabel(toolsField).fill("notes.a");
    await first.getByRole("button", { name: "Save toolset" }).click();
    await expect.poll(() => first.getByRole("status").filter({ hasText: "Saved toolset daily (1 tools)." }).count(), POLL).toBe(1);

    // Both tabs open the same version for editing; the first saves, then the second (which never saw that save).
    await second.getByRole("link", { name: "Toolsets" }).click();
    await second.getByRole("button", { name: "Edit daily" }).click();
    await first.getByRole("button", { name: "Edit daily" }).click();
    await first.getByLabel(toolsField).fill("notes.a\nnotes.b");
    await first.getByRole("button", { name: "Save toolset" }).click();
    await expect.poll(() => first.getByRole("status").filter({ hasText: "Saved toolset daily (2 tools)." }).count(), POLL).toBe(1);
    await second.getByLabel(toolsField).fill("notes.a\nnotes.wipe");
    await second.getByRole("button", { name: "Save toolset" }).click();
    await expect.poll(() => second.getByRole("alert").filter({ hasText: 'Toolset "daily" was changed elsewhere' }).count(), POLL).toBe(1);
    expect(await second.getByRole("alert").filter({ hasText: "UI_TOOLSET_CHANGED" }).textContent()).toContain("Nothing was saved");
    expect(await savedTools(home.dir, "daily")).toEqual(["notes.a", "notes.b"]);

    // Loading the newer version, then saving, works; so does a second save from the same form.
    await second.getByRole("button", { name: "Edit daily" }).click();
    await expect.poll(() => second.getByLabel(toolsField).inputValue(), POLL).toBe("notes.a\nnotes.b");
    await second.getByLabel(toolsField).fill("notes.b");
    await second.getByRole("button", { name: "Save toolset" }).click();
    await expect.poll(() => second.getByRole("status").filter({ hasText: "Saved toolset daily (1 tools)." }).count(), POLL).toBe(1);
    await second.getByLabel(toolsField).fill("notes.b\nnotes.a");
    await second.getByRole("button", { name: "Save toolset" }).click();
    await expect.poll(() => second.getByRole("status").filter({ hasText: "Saved toolset daily (2 tools)." }).count(), POLL).toBe(1);

    // The CLI rebuilds it while the first tab still holds its older edit: that save is refused too.
    expect((await cli(home, ["toolset", "build", "daily", "notes.wipe"])).code).toBe(0);
    await first.getByRole("button", { name: "Save toolset" }).click();
    await expect.poll(() => first.getByRole("alert").filter({ hasText: 'Toolset "daily" was changed elsewhere' }).count(), POLL).toBe(1);
    expect(await savedTools(home.dir, "daily")).toEqual(["notes.wipe"]);
    // A new name typed in a form nobody loaded is a create: refused if another tab created it first.
    const third = await first.context().newPage();
    await third.goto(`${ui.url}#/toolsets`);
    // The page renders its form again once the toolsets are listed: typing before that is lost.
    await expect.poll(() => third.getByRole("button", { name: "Edit daily" }).count(), POLL).toBe(1);
    await third.getByLabel("Name", { exact: true }).fill("fresh");
    await third.getByLabel(toolsField).fill("notes.a");
    expect((await cli(home, ["toolset", "build", "fresh", "notes.b"])).code).toBe(0);
    // Listed by the page's poll after the name was typed: still not the version this form meant to replace.
    await expect.poll(() => third.getByRole("button", { name: "Edit fresh" }).count(), POLL).toBe(1);
    await third.getByRole("button", { name: "Save toolset" }).click();
    await expect.poll(() => third.getByRole("alert").filter({ hasText: 'Toolset "fresh" was created elsewhere' }).count(), POLL).toBe(1);
    expect(await savedTools(home.dir, "fresh")).toEqual(["notes.b"]);
    // Only the three refused saves.
    expect(errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  });

  it("Run: the script and a run waiting for its confirmation survive going to another page, back/forward and a reload", async () => {
    const { page, errors } = await open();
    await page.getByRole("link", { name: "Run" }).click();
    const script = 'console.log("wiping");\nreturn await tools.notes.wipe({ text: "kept" });';
    await page.locator(".cm-content").fill(script);
    await page.getByLabel("Time limit (as --timeout)").fill("2m");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    const dialog = page.getByRole("alertdialog", { name: "Allow notes.wipe?" });
    await expect.poll(() => dialog.count(), { timeout: 20_000 }).toBe(1);

    await page.getByRole("link", { name: "Activity" }).click();
    await page.getByRole("heading", { level: 2, name: "Activity" }).waitFor();
    await page.goBack();
    await expect.poll(() => page.locator(".cm-content").innerText(), POLL).toBe(script);
    await expect.poll(() => dialog.count(), POLL).toBe(1);
    expect(await page.getByRole("button", { name: "Running…" }).isDisabled()).toBe(true);
    await page.goForward();
    await page.goBack();
    await page.reload();
    await expect.poll(() => page.locator(".cm-content").innerText(), POLL).toBe(script);
    expect(await page.getByLabel("Time limit (as --timeout)").inputValue()).toBe("2m");
    await expect.poll(() => dialog.count(), POLL).toBe(1);

    await dialog.getByRole("button", { name: "Allow this call" }).click();
    await expect.poll(() => page.getByTestId("run-result").textContent(), { timeout: 20_000 }).toContain("kept");
    expect(await page.getByTestId("run-logs").textContent()).toContain("[log] wiping");
    await expect.poll(() => page.getByRole("status").filter({ hasText: /^Finished in \d+ ms\.$/ }).count(), POLL).toBe(1);
    expect(await page.getByRole("button", { name: "Run", exact: true }).isEnabled()).toBe(true);
    // The finished run is still shown after another reload; a new run replaces it.
    await page.reload();
    await expect.poll(() => page.getByTestId("run-result").textContent(), POLL).toContain("kept");
    expect(errors).toEqual([]);
  });
});
