/**
 * The client the MCP conformance suite drives for its auth scenarios: `conformance client --suite
 * auth --command "<this> "` appends the scenario's server URL. It does what a person would do with
 * mcpvm, in a fresh config home: configure the server (with `oauth.clientId/clientSecret` when the
 * scenario hands them over in MCP_CONFORMANCE_CONTEXT, and a Client ID Metadata Document URL),
 * approve it, and `mcpvm mcp call --login <server> test-tool '{}'`, with BROWSER set to a command
 * that follows the authorization redirect to mcpvm's loopback listener (curl, as a browser would).
 * The client credentials scenarios (their names say so) get `"grant": "client_credentials"` with the
 * secret or private key the scenario hands over, set in the environment and referenced as `${VAR}`,
 * the way a CI job configures it.
 * Runs under vite-node: `node node_modules/vite-node/vite-node.mjs tests/conformance/auth-adapter.ts -- <url>`.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";

// The URL the suite's basic-cimd scenario expects as the client id (it never fetches it).
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

const args = process.argv.slice(2).filter((arg) => arg !== "--");
const serverUrl = args.at(-1);
if (serverUrl === undefined) {
  process.stderr.write("usage: auth-adapter.ts <server url>\n");
  process.exit(2);
}
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as { name?: string; client_id?: string; client_secret?: string; private_key_pem?: string; signing_algorithm?: string };
const machine = context.name?.startsWith("auth/client-credentials") === true;

const home = await mkdtemp(join(tmpdir(), "mcpvm-conformance-"));
const env = {
  MCPVM_HOME: home,
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  BROWSER: "curl -sS -L --max-redirs 5 -o /dev/null %s",
  ...(context.client_secret === undefined ? {} : { CONFORMANCE_CLIENT_SECRET: context.client_secret }),
  ...(context.private_key_pem === undefined ? {} : { CONFORMANCE_PRIVATE_KEY: context.private_key_pem }),
};
const oauth = machine
  ? {
      grant: "client_credentials",
      clientId: context.client_id,
      ...(context.private_key_pem === undefined ? { clientSecret: "${CONFORMANCE_CLIENT_SECRET}" } : { privateKey: "${CONFORMANCE_PRIVATE_KEY}" }),
      ...(context.signing_algorithm === undefined ? {} : { signingAlgorithm: context.signing_algorithm }),
    }
  : {
      clientMetadataUrl: CLIENT_METADATA_URL,
      ...(context.client_id === undefined ? {} : { clientId: context.client_id }),
      ...(context.client_secret === undefined ? {} : { clientSecret: context.client_secret }),
    };
let exitCode = 1;
try {
  await writeFile(join(home, "config.json"), JSON.stringify({ mcpServers: { conformance: { type: "http", url: serverUrl, oauth } } }), { mode: 0o600 });
  for (const argv of [["--yes", "plugin", "approve", "mcp"], ["plugin", "enable", "mcp"], ["--yes", "mcp", "approve", "conformance"]]) {
    const io = captureIo(env);
    const code = await runCli(argv, io);
    if (code !== 0) throw new Error(`mcpvm ${argv.join(" ")} exited ${code}: ${io.stderrText()}`);
  }
  const io = captureIo(env);
  exitCode = await runCli(["--yes", "mcp", "call", "--login", "conformance", "test-tool", "{}"], io);
  process.stdout.write(io.stdoutText());
  process.stderr.write(io.stderrText());
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
} finally {
  await rm(home, { recursive: true, force: true });
}
process.exit(exitCode);
