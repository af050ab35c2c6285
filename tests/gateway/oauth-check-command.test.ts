import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";
import { startIdentityProvider, type IdentityProvider } from "./fixtures/identity-provider.js";
import { makeHome, type TestHome } from "./helpers.js";

const RESOURCE = "https://mcp.example.com/mcp";

/** `mcpvm gateway oauth check`: the gateway's checks of its identity provider and of one token, from the command line. */
describe("mcpvm gateway oauth check", () => {
  let idp: IdentityProvider;
  let home: TestHome;

  const cli = async (argv: string[], stdin?: string) => {
    const io = captureIo(home.env, stdin);
    const code = await runCli(argv, io);
    return { code, out: io.stdoutText(), err: io.stderrText() };
  };

  const writeConfig = (oauth: Record<string, unknown> | undefined) =>
    writeFile(join(home.dir, "config.json"), JSON.stringify({ plugins: { mcp: { enabled: true } }, mcpServers: {}, ...(oauth === undefined ? {} : { gateway: { oauth } }) }), { mode: 0o600 });

  beforeAll(async () => {
    idp = await startIdentityProvider();
    home = await makeHome({ servers: {} });
    await writeConfig({ issuer: idp.url, resource: RESOURCE, requiredScopes: ["mcp"], clients: { ci: { match: { client_id: "ci-bot" }, servers: ["github"], rate: "5/s" } } });
  });

  afterAll(async () => {
    await idp?.close();
    await home?.cleanup();
  });

  it("shows the key set found through discovery and the metadata the gateway publishes", async () => {
    const result = await cli(["gateway", "oauth", "check"]);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toContain(`issuer     ${idp.url}`);
    expect(result.out).toContain(`key set    ${idp.url}/jwks (1 key: key-1)`);
    expect(result.out).toContain("metadata   https://mcp.example.com/.well-known/oauth-protected-resource/mcp");
  });

  it("says which client a token counts as and what it may reach (token on stdin)", async () => {
    const token = await idp.token({ sub: "svc-7", client_id: "ci-bot", aud: RESOURCE, scope: "mcp" });
    const result = await cli(["gateway", "oauth", "check", "-"], `${token}\n`);
    expect(result.code, result.err).toBe(0);
    expect(result.out).toMatch(/token {6}accepted as client ci\/svc-7 \(servers github; rate 5\/s\); scopes mcp; expires 20\d\d-/);
    expect(result.out + result.err).not.toContain(token);
    const json = await cli(["--json", "gateway", "oauth", "check", token]);
    expect(JSON.parse(json.out)).toMatchObject({ token: { accepted: true, client: { name: "ci/svc-7", via: "oauth", servers: ["github"] } }, metadata: { resource: RESOURCE } });
  });

  it("says why a token is refused, with exit code 1", async () => {
    const other = await idp.token({ sub: "svc-7", client_id: "ci-bot", aud: "https://elsewhere.example.com", scope: "mcp" });
    const result = await cli(["gateway", "oauth", "check", other]);
    expect(result.code).toBe(1);
    expect(result.out).toContain('token      refused (401 invalid_token): the access token is for audience "https://elsewhere.example.com", not this gateway ("https://mcp.example.com/mcp")');
    const unmapped = await cli(["--json", "gateway", "oauth", "check", await idp.token({ sub: "x", aud: RESOURCE, scope: "mcp" })]);
    expect(unmapped.code).toBe(1);
    expect(JSON.parse(unmapped.out)).toMatchObject({ token: { accepted: false, status: 403, error: "insufficient_scope" } });
  });

  it("doctor finds an invalid gateway.oauth (3) and warns about a missing resource", async () => {
    await writeConfig({ issuer: idp.url, algorithms: ["HS256"] });
    const invalid = await cli(["--json", "doctor"]);
    expect(invalid.code).toBe(3);
    const problems = (JSON.parse(invalid.out) as { problems: Array<{ severity: string; message: string; code?: string }> }).problems;
    expect(problems.find((p) => p.code === "GATEWAY_CONFIG_INVALID")?.message).toContain("gateway.oauth.algorithms");
    await writeConfig({ issuer: idp.url });
    const warned = await cli(["--json", "doctor"]);
    const warnings = (JSON.parse(warned.out) as { problems: Array<{ severity: string; message: string; next?: string }> }).problems.filter((p) => p.severity === "warning");
    expect(warnings.find((p) => p.message.includes("gateway.oauth has no resource"))?.next).toContain("mcpvm gateway oauth check");
  });

  it("refuses clearly without a gateway.oauth section (3), without a resource (2), and when the provider is unreachable (6)", async () => {
    await writeConfig(undefined);
    const none = await cli(["gateway", "oauth", "check"]);
    expect(none.code).toBe(3);
    expect(none.err).toContain("has no gateway.oauth section");
    await writeConfig({ issuer: idp.url });
    const noResource = await cli(["gateway", "oauth", "check"]);
    expect(noResource.code).toBe(2);
    expect(noResource.err).toContain("--resource <url>");
    expect((await cli(["gateway", "oauth", "check", "--resource", "http://127.0.0.1:8080/mcp"])).code).toBe(0);
    await writeConfig({ issuer: "http://127.0.0.1:9", resource: RESOURCE, httpTimeoutMs: 2_000 });
    const down = await cli(["--json", "gateway", "oauth", "check"]);
    expect(down.code).toBe(6);
    expect(down.out + down.err).toContain("GATEWAY_OAUTH_UNAVAILABLE");
  });
});
