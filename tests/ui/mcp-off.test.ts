import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TrustHome } from "../trust/helpers.js";
import { POLL, SKIP_BROWSER } from "./support/browser.js";
import { addStdioServer } from "./support/dashboard.js";
import { dashboardSession } from "./support/session.js";

const session = dashboardSession();

/** A config home whose mcp plugin is not enabled: what a new user who skipped the tour's plugin step has. */
async function mcpOffHome(): Promise<TrustHome> {
  const home = await session.home({ servers: () => ({}) });
  const file = join(home.dir, "config.json");
  const config = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  delete config.plugins;
  await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  return home;
}

/**
 * `mcpvm mcp add` in such a home says MCP is off and names the two commands that turn it on; the page's
 * add form used to say only "It will not start until you approve it", and approving alone starts nothing.
 */
describe.skipIf(SKIP_BROWSER)("mcpvm ui in a config home where the mcp plugin is off", { timeout: 180_000 }, () => {
  it("the add form adds the server and says MCP is off, with the CLI's words and the two commands", async () => {
    const home = await mcpOffHome();
    const { page, errors } = await session.open(home);
    await addStdioServer(page, "notes", process.execPath, ["-e", "0"]);
    const said = page.getByRole("status").filter({ hasText: "Added notes" });
    await expect.poll(() => said.count(), POLL).toBe(1);
    const text = await said.textContent();
    expect(text).toContain("It will not start until the mcp plugin is enabled and you approve it (Approvals).");
    expect(text).toContain("MCP is off in this config home: the mcp plugin is not enabled, so no server starts until `mcpvm plugin approve mcp` and `mcpvm plugin enable mcp`.");
    const config = JSON.parse(await readFile(join(home.dir, "config.json"), "utf8")) as { mcpServers: Record<string, { command: string }> };
    expect(config.mcpServers.notes?.command).toBe(process.execPath);
    expect(errors).toEqual([]);
  });

  it("the Run and Toolsets pages say MCP is off up front (they used to show nothing: an endless Loading… and no tools to choose)", async () => {
    const home = await mcpOffHome();
    const { page, errors } = await session.open(home);
    await page.getByRole("link", { name: "Run" }).click();
    const run = page.locator("section[aria-labelledby=run-title]").getByRole("alert");
    await expect.poll(() => run.textContent(), POLL).toContain("No server offers completion: MCP is off: the mcp plugin is not enabled");
    expect(await run.textContent()).toContain("mcpvm plugin approve mcp && mcpvm plugin enable mcp");
    expect(await page.locator("pre.dts").textContent()).toBe("None (see above).");

    await page.getByRole("link", { name: "Toolsets" }).click();
    const toolsets = page.locator("form").getByRole("alert");
    await expect.poll(() => toolsets.textContent(), POLL).toContain("No tools to choose from: MCP is off: the mcp plugin is not enabled");
    // The two refused listings (HTTP 400, MCP_PLUGIN_NOT_ENABLED) are the browser's only complaints.
    expect(errors.every((e) => e.includes("status of 400"))).toBe(true);
  });

  it("says nothing of it once the plugin is on", async () => {
    const home = await session.home({ servers: () => ({}) });
    const { page, errors } = await session.open(home);
    await addStdioServer(page, "notes", process.execPath, ["-e", "0"]);
    const said = page.getByRole("status").filter({ hasText: "Added notes" });
    await expect.poll(() => said.count(), POLL).toBe(1);
    expect(await said.textContent()).toBe("Added notes. It will not start until you approve it (Approvals).");
    expect(errors).toEqual([]);
  });
});
