import { generateKeyPairSync } from "node:crypto";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpOAuthConfigSchema } from "../../../src/mcp/config/oauth-schema.js";
import { cli, start, stop, stored, type Fixture } from "./cc-fixture.js";

// oauth.privateKeyFile: the private_key_jwt key read from a file at use, refused when other users may
// read it, and bound to one authorization server like privateKey (against the fixture AS).

const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const EC_PRIVATE = ec.privateKey.export({ type: "pkcs8", format: "pem" }) as string;
const EC_PUBLIC = ec.publicKey.export({ type: "spki", format: "pem" }) as string;

describe("client credentials with oauth.privateKeyFile", () => {
  let f: Fixture;
  let keys: string;
  let keyFile: string;
  beforeAll(async () => {
    keys = await mkdtemp(join(tmpdir(), "mcpvm-cc-key-"));
    keyFile = join(keys, "client.pem");
    await writeFile(keyFile, EC_PRIVATE, { mode: 0o600 });
    f = await start({ grant: "client_credentials", clientId: "ci-runner", privateKeyFile: keyFile }, {}, { clientId: "ci-runner", publicKey: EC_PUBLIC, algorithm: "ES256" });
  }, 60_000);
  afterAll(async () => {
    await stop(f);
    await rm(keys, { recursive: true, force: true });
  });

  it("signs with the key in the file, binds the credentials to the issuer first used, and shows the file at approval", async () => {
    expect(f.approve?.code, f.approve?.err).toBe(0);
    expect(f.approve?.err).toContain(`private key file ${keyFile}`);
    const call = await cli(f, "mcp", "call", "notes", "whoami");
    expect(call.code, call.err).toBe(0);
    expect(call.out).toContain("hello ci-runner");
    expect(f.as.requests).toEqual([{ grant: "client_credentials", client: "ci-runner", method: "private_key_jwt" }]);
    expect((await stored(f)).servers.notes?.client?.issuer).toBe(f.as.issuer);
    expect(call.out + call.err).not.toContain("PRIVATE KEY");
  });

  it("refuses a key file every user may read, before anything is sent, saying how to fix it", async () => {
    await chmod(keyFile, 0o644);
    try {
      const before = f.as.requests.length;
      const login = await cli(f, "--json", "mcp", "login", "notes");
      expect(login.code).toBe(6);
      const error = (JSON.parse(login.out) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("MCP_OAUTH_FAILED");
      expect(error.message).toBe(`server notes: oauth.privateKeyFile ${keyFile} can be read by every user on this machine (mode 644); it was not used. Restrict it with \`chmod 600 ${keyFile}\` (and rotate the key if others may have read it).`);
      expect(f.as.requests.length).toBe(before);
    } finally {
      await chmod(keyFile, 0o600);
    }
  });

  it("the setting is checked: exactly one credential, an absolute path, client_credentials only", () => {
    const issues = (oauth: Record<string, unknown>) => mcpOAuthConfigSchema.safeParse(oauth).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues({ grant: "client_credentials", clientId: "c", privateKeyFile: "key.pem" })).toEqual(['"privateKeyFile" must be an absolute path (mcpvm may start in any folder)']);
    expect(issues({ grant: "client_credentials", clientId: "c", privateKeyFile: "/k.pem", privateKey: "${K}" })[0]).toContain('exactly one of "clientSecret" (client_secret_basic), "privateKey" or "privateKeyFile"');
    expect(issues({ clientId: "c", privateKeyFile: "/k.pem" })).toEqual(['"privateKeyFile" is a setting of "grant": "client_credentials"']);
    expect(issues({ grant: "client_credentials", clientId: "c", privateKeyFile: "${HOME}/k.pem", signingAlgorithm: "ES256" })).toEqual([]);
  });
});
