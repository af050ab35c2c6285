import { afterEach, describe, expect, it } from "vitest";
import { cli, start, stop, type Fixture } from "./cc-fixture.js";

// The client credentials grant has no person: a refused token must not say "needs login: run `mcpvm mcp
// login`", and `mcp list` must not call its token "refreshable" (there is no refresh token).

const SECRET = "cc-secret-2b7e90c1d4";
let f: Fixture | undefined;
afterEach(async () => {
  await stop(f);
  f = undefined;
});

describe("client credentials: what a refusal and mcp list say", () => {
  it("a fresh token the server refuses names the token endpoint and the settings to check, not a login", async () => {
    f = await start({ grant: "client_credentials", clientId: "ci-runner", clientSecret: "${CI_MCP_SECRET}" }, { CI_MCP_SECRET: SECRET }, { clientId: "ci-runner", secret: SECRET });
    f.mcp.refuseAll = true;
    const before = f.as.issued.length;
    const call = await cli(f, "--json", "mcp", "call", "notes", "whoami");
    expect(call.code).toBe(6);
    const error = (JSON.parse(call.out) as { error: { code: string; message: string } }).error;
    expect(f.as.issued.length).toBeGreaterThan(before);
    expect(error.code).toBe("MCP_OAUTH_FAILED");
    expect(error.message).not.toContain("mcp login");
    expect(error.message).toContain(`server notes refused the access token ${f.as.issuer}/token issued to client id "ci-runner"`);
    expect(error.message).toContain("check oauth.scopes");
  }, 60_000);

  it("mcp list shows the grant, not \"refreshable\"", async () => {
    f = await start({ grant: "client_credentials", clientId: "ci-runner", clientSecret: "${CI_MCP_SECRET}" }, { CI_MCP_SECRET: SECRET }, { clientId: "ci-runner", secret: SECRET });
    const list = await cli(f, "mcp", "list");
    expect(list.code, list.err).toBe(0);
    expect(list.out).not.toContain("refreshable");
    expect(list.out).toMatch(/token expires in 60 min \(client credentials: a new token is fetched unattended\)/);
    const json = JSON.parse((await cli(f, "--json", "mcp", "list")).out) as unknown;
    expect(JSON.stringify(json)).toContain('"grant":"client_credentials"');
    const login = await cli(f, "mcp", "login", "notes");
    expect(login.out + login.err).toMatch(/logged in to notes as ci-runner \(scopes notes:read; expires in 60 min, client credentials\)/);
  }, 60_000);
});
