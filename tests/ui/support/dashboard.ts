import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { ROOT } from "../../trust/helpers.js";

export const SCRIPTED = join(ROOT, "tests/trust/fixtures/scripted-server.mjs");
export const text = { type: "object", properties: { text: { type: "string" } } };

/** docs/ui/<name>.png, rewritten only with MCPVM_UPDATE_SCREENSHOTS=1 (so a test run leaves the tree clean); always taken. */
export async function screenshot(page: Page, name: string): Promise<Buffer> {
  const shot = await page.screenshot({ fullPage: false });
  if (process.env.MCPVM_UPDATE_SCREENSHOTS === "1") {
    await mkdir(join(ROOT, "docs/ui"), { recursive: true });
    await writeFile(join(ROOT, "docs/ui", `${name}.png`), shot);
  }
  return shot;
}

/** Fills the "add a server" form for a stdio command and submits it. */
export async function addStdioServer(page: Page, name: string, command: string, args: readonly string[]): Promise<void> {
  await page.getByRole("radio", { name: "A command (stdio)" }).check();
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Command", { exact: true }).fill(command);
  await page.getByLabel("Arguments, one per line").fill(args.join("\n"));
  await page.getByRole("button", { name: "Add server" }).click();
}

export async function writeSpec(file: string, tools: readonly Record<string, unknown>[]): Promise<void> {
  await writeFile(file, JSON.stringify({ tools }));
}
