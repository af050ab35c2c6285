import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtectedServer, type ProtectedServer } from "../fixtures/servers/oauth-protected-server.js";
import { cli, type TrustHome } from "../trust/helpers.js";
import { POLL, SKIP_BROWSER } from "./support/browser.js";
import { contrastProblems, unlabelledControls } from "./support/accessibility.js";
import { screenshot } from "./support/dashboard.js";
import { dashboardSession } from "./support/session.js";

const session = dashboardSession();

/** A $BROWSER that opens nothing and writes down the URL it was given, so the test knows what the CLI's opener was asked to open. */
const recordingBrowser = (file: string) => `${process.execPath} -e "require('fs').writeFileSync(process.argv[1], process.argv[2])" ${file}`;

async function fileText(file: string): Promise<string> {
  return readFile(file, "utf8").catch(() => "");
}

/**
 * Log in from the Servers page against things we did not write: oauth2-mock-server as the
 * authorization server in front of a real streamable-HTTP MCP server that checks JWT bearer
 * tokens. The person clicks "Log in", follows the link in the page (the mock server redirects
 * straight back to mcpvm's loopback listener), and the page shows the login and the tools.
 */
describe.skipIf(SKIP_BROWSER)("mcpvm ui: log in to an OAuth server from the Servers page", { timeout: 180_000 }, () => {
  let as: OAuth2Server;
  let mcp: ProtectedServer;
  const revoked: string[] = [];

  beforeAll(async () => {
    as = new OAuth2Server();
    await as.issuer.keys.generate("RS256");
    await as.start(0, "127.0.0.1");
    as.service.on("beforeTokenSigning", (token: { payload: Record<string, unknown> }) => {
      token.payload.jti = randomUUID();
    });
    as.service.on("beforeRevoke", (_response: unknown, req: NodeJS.ReadableStream) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => revoked.push(new URLSearchParams(body).get("token") ?? ""));
    });
    mcp = await startProtectedServer({ issuer: as.issuer.url ?? "" });
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await as?.stop();
  });

  const notesHome = (approve: boolean): Promise<TrustHome> =>
    session.home({
      servers: () => ({ notes: { url: mcp.url, oauth: { clientId: "mcpvm-e2e", scopes: "notes:read" } } }),
      ...(approve ? { approve: ["notes"] } : {}),
    });

  it("needs login → Log in (the CLI's opener and a link in the page) → logged in, tools listed → Log out", async () => {
    const home = await notesHome(true);
    home.env.BROWSER = recordingBrowser(join(home.dir, "browser-was-asked.txt"));
    const { page, errors } = await session.open(home);
    const card = page.locator('[data-server="notes"]');
    const login = card.getByRole("region", { name: "Login to notes" });
    await expect.poll(() => login.textContent(), POLL).toContain("not logged in");

    // Without a login the server refuses, and the page says so in the CLI's words.
    await card.getByRole("button", { name: "Show tools" }).click();
    await expect.poll(() => card.getByRole("alert").first().textContent(), POLL).toContain("server notes needs login");
    await expect.poll(() => card.locator(".state").textContent(), POLL).toBe("needs login");

    await login.getByRole("button", { name: "Log in to notes" }).click();
    const link = login.getByRole("link", { name: "Open the login page of notes" });
    await expect.poll(() => link.count(), POLL).toBe(1);
    const href = (await link.getAttribute("href")) ?? "";
    expect(href.startsWith(`${as.issuer.url}/authorize?`)).toBe(true);
    expect(new URL(href).searchParams.get("client_id")).toBe("mcpvm-e2e");
    expect(new URL(href).searchParams.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The same URL went to the opener `mcpvm mcp login` uses ($BROWSER here).
    await expect.poll(() => fileText(join(home.dir, "browser-was-asked.txt")), POLL).toBe(href);
    expect(await login.getByRole("status").first().textContent()).toContain("with $BROWSER");
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await contrastProblems(page)).toEqual([]);
    await screenshot(page, "servers-login");

    // Follow the link: the authorization server sends the new tab straight back to mcpvm's listener.
    const [tab] = await Promise.all([page.waitForEvent("popup"), link.click()]);
    await tab.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/, { timeout: POLL.timeout });
    expect(await tab.textContent("h1")).toBe("Logged in");
    await tab.close();

    await expect.poll(() => login.locator("[data-login-state]").textContent(), POLL).toMatch(/^logged in to notes as johndoe \(scopes \S+; expires in \d+ (s|min|h), refreshable\)$/);
    const tools = page.getByRole("list", { name: "Tools of notes" });
    await expect.poll(() => tools.textContent(), POLL).toContain("whoami(");
    await expect.poll(() => card.locator(".state").textContent(), POLL).toContain("connected");
    expect(await contrastProblems(page)).toEqual([]);
    await screenshot(page, "servers-logged-in");
    // Stored where the CLI keeps logins: the CLI now calls with the token, without logging in.
    const called = await cli(home, ["mcp", "call", "notes", "whoami"]);
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout.trim()).toBe("hello johndoe");
    const stored = JSON.parse(await readFile(join(home.dir, "oauth-tokens.json"), "utf8")) as { servers: Record<string, { tokens?: { access_token: string; refresh_token?: string } }> };
    const tokens = stored.servers.notes?.tokens;
    expect(tokens?.access_token).toMatch(/^ey/);
    // Never shown in the page.
    expect(await page.textContent("body")).not.toContain(tokens?.access_token ?? "-");

    await login.getByRole("button", { name: "Log out of notes" }).click();
    await expect.poll(() => login.getByRole("status").last().textContent(), POLL).toContain("Logged out of notes: tokens");
    await expect.poll(() => login.locator("[data-login-state]").textContent(), POLL).toBe("not logged in");
    // The tools listed under the login are put away with it.
    expect(await tools.count()).toBe(0);
    expect(revoked).toContain(tokens?.refresh_token ?? tokens?.access_token);
    const after = JSON.parse(await readFile(join(home.dir, "oauth-tokens.json"), "utf8")) as { servers: Record<string, unknown> };
    expect(after.servers.notes).toBeUndefined();
    expect(errors.filter((e) => !e.includes("status of 400"))).toEqual([]);
  });

  it("a config change while the login page is open (another server disabled from the CLI) does not end the login", async () => {
    const home = await session.home({ servers: () => ({ notes: { url: mcp.url, oauth: { clientId: "mcpvm-e2e", scopes: "notes:read" } }, other: { command: process.execPath, args: ["-e", "0"] } }), approve: ["notes"] });
    home.env.BROWSER = recordingBrowser(join(home.dir, "browser-was-asked.txt"));
    const { page } = await session.open(home);
    const login = page.locator('[data-server="notes"]').getByRole("region", { name: "Login to notes" });
    await login.getByRole("button", { name: "Log in to notes" }).click();
    const link = login.getByRole("link", { name: "Open the login page of notes" });
    await expect.poll(() => link.count(), POLL).toBe(1);
    expect((await cli(home, ["mcp", "disable", "other"])).code).toBe(0);
    // The open page keeps asking (every 600 ms) while the person is still on the login page.
    await new Promise((done) => setTimeout(done, 2000));
    const [tab] = await Promise.all([page.waitForEvent("popup"), link.click()]);
    await tab.waitForURL(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/, { timeout: POLL.timeout });
    expect(await tab.textContent("h1")).toBe("Logged in");
    await tab.close();
    await expect.poll(() => login.locator("[data-login-state]").textContent(), POLL).toMatch(/^logged in to notes as johndoe/);
    // The change is applied once the login is over.
    await expect.poll(() => page.locator('[data-server="other"] .state').textContent(), POLL).toContain("disabled");
  });

  it("a login can be cancelled (nothing stored); an unapproved server cannot log in; a script that meets the login points to it", async () => {
    const home = await notesHome(false);
    home.env.BROWSER = recordingBrowser(join(home.dir, "browser-was-asked.txt"));
    const { page } = await session.open(home);
    const login = page.locator('[data-server="notes"]').getByRole("region", { name: "Login to notes" });
    await expect.poll(() => login.textContent(), POLL).toContain("Approve notes first");
    expect(await login.getByRole("button", { name: "Log in to notes" }).isDisabled()).toBe(true);
    const refused = await page.evaluate(async () => {
      const token = new URLSearchParams(location.search).get("token") ?? "";
      const response = await fetch("/api/servers/notes/login", { method: "POST", headers: { "content-type": "application/json", "x-mcpvm-token": token }, body: "{}" });
      return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe("MCP_NOT_APPROVED");
    expect(await fileText(join(home.dir, "browser-was-asked.txt"))).toBe("");

    expect((await cli(home, ["--yes", "mcp", "approve", "notes"])).code).toBe(0);
    await expect.poll(() => login.getByRole("button", { name: "Log in to notes" }).isDisabled(), POLL).toBe(false);
    await login.getByRole("button", { name: "Log in to notes" }).click();
    await expect.poll(() => login.getByRole("link", { name: "Open the login page of notes" }).count(), POLL).toBe(1);
    await login.getByRole("button", { name: "Cancel login" }).click();
    await expect.poll(() => login.getByRole("status").first().textContent(), POLL).toBe("Login cancelled; nothing was stored.");
    expect(await login.getByRole("link").count()).toBe(0);
    const stored = JSON.parse(await readFile(join(home.dir, "oauth-tokens.json"), "utf8").catch(() => "{}")) as { servers?: Record<string, { tokens?: unknown }> };
    expect(stored.servers?.notes?.tokens).toBeUndefined();

    // A script that meets the login gets the CLI's error and the way to the Log in button.
    await page.getByRole("link", { name: "Run" }).click();
    await page.locator(".cm-content").fill("return await tools.notes.whoami({});");
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect.poll(() => page.getByTestId("run-error").textContent(), POLL).toContain("MCP_LOGIN_REQUIRED");
    await page.getByRole("link", { name: "Log in on the Servers page" }).click();
    await expect.poll(() => login.getByRole("button", { name: "Log in to notes" }).isVisible(), POLL).toBe(true);
  });
});
