import { describe, it, expect } from "vitest";
import { InputCache, McpConfigError, mcpServerEntrySchema, resolveLaunch, type McpInputDefinition, type McpServerEntryInput } from "../../../src/mcp/config/index.js";
import { DEFAULT_SERVER_LIMITS } from "../../../src/mcp/types.js";

const entry = (raw: McpServerEntryInput) => mcpServerEntrySchema.parse(raw);

async function rejection(promise: Promise<unknown>): Promise<McpConfigError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof McpConfigError) return error;
    throw error;
  }
  throw new Error("expected a McpConfigError");
}

const token: McpInputDefinition = { type: "promptString", id: "token", description: "GitHub token", password: true };

describe("resolveLaunch: what the client manager spawns or contacts", () => {
  it("substitutes ${VAR} and ${env:VAR} in command, args, env and cwd of a stdio server", async () => {
    const launch = await resolveLaunch(
      "github",
      entry({ command: "${NODE_BIN:-node}", args: ["server.js", "--root", "${env:HOME}/repos"], env: { GITHUB_TOKEN: "${GH_TOKEN}", MODE: "ci" }, cwd: "${HOME}" }),
      { env: { HOME: "/home/u", GH_TOKEN: "ghp_secret123" } },
    );
    expect(launch).toEqual({
      transport: "stdio",
      name: "github",
      command: "node",
      args: ["server.js", "--root", "/home/u/repos"],
      env: { GITHUB_TOKEN: "ghp_secret123", MODE: "ci" },
      cwd: "/home/u",
      limits: DEFAULT_SERVER_LIMITS,
      secrets: ["ghp_secret123"],
    });
  });

  it("lists a variable used in args or url as a secret, unless every child inherits it anyway (HOME, PATH, …)", async () => {
    const launch = await resolveLaunch("s", entry({ command: "x", args: ["--api-key", "${API_KEY}", "--root", "${HOME}", "--path", "${PATH}"] }), {
      env: { API_KEY: "key-abcdef", HOME: "/home/u", PATH: "/usr/bin" },
    });
    expect(launch.secrets).toEqual(["key-abcdef"]);
  });

  it("substitutes url and headers of a remote server and takes limits from the entry", async () => {
    const launch = await resolveLaunch(
      "remote",
      entry({ type: "sse", url: "https://${HOST}/sse", headers: { Authorization: "Bearer ${API_KEY}", "X-Static": "static" }, callTimeoutMs: 5000, maxResponseBytes: 2048 }),
      { env: { HOST: "mcp.example.com", API_KEY: "k-123456" } },
    );
    expect(launch).toEqual({
      transport: "sse",
      name: "remote",
      url: "https://mcp.example.com/sse",
      headers: { Authorization: "Bearer k-123456", "X-Static": "static" },
      limits: { connectTimeoutMs: 10_000, callTimeoutMs: 5000, maxResponseBytes: 2048 },
      secrets: ["Bearer k-123456", "k-123456"],
    });
  });

  it("fails on a missing variable, naming the variable, the server and the field, never using an empty string", async () => {
    const error = await rejection(resolveLaunch("github", entry({ command: "x", args: ["--token", "${GH_TOKEN}"] }), { env: { GH_TOKEN: "" } }));
    expect(error.code).toBe("MCP_CONFIG_MISSING_VARIABLE");
    expect(error.message).toBe('environment variable GH_TOKEN is not set (or empty); server "github" uses it in args[1]. Set it, or write ${GH_TOKEN:-default} to allow a default');
    expect(error.data).toEqual({ server: "github", field: "args[1]", variable: "GH_TOKEN" });

    const header = await rejection(resolveLaunch("api", entry({ url: "https://e.com/mcp", headers: { Authorization: "Bearer ${API_KEY}" } }), { env: {} }));
    expect(header.data).toEqual({ server: "api", field: "headers.Authorization", variable: "API_KEY" });
  });

  it("uses the fallback of ${VAR:-fallback} when the variable is unset or empty, and allows ${VAR:-} to be empty", async () => {
    const launch = await resolveLaunch("s", entry({ command: "x", args: ["${PORT:-8080}", "${EMPTY:-}"] }), { env: { EMPTY: "" } });
    expect(launch.transport === "stdio" && launch.args).toEqual(["8080", ""]);
  });

  it("keeps $${ as a literal ${", async () => {
    const launch = await resolveLaunch("s", entry({ command: "sh", args: ["-c", "echo $${HOME}"] }), { env: {} });
    expect(launch.transport === "stdio" && launch.args).toEqual(["-c", "echo ${HOME}"]);
  });

  it("rejects a url that is not http(s) once filled in, without showing the filled-in value", async () => {
    const error = await rejection(resolveLaunch("s", entry({ url: "${BASE}/mcp" }), { env: { BASE: "file:///secret-path" } }));
    expect(error.code).toBe("MCP_CONFIG_RESOLVED_URL_INVALID");
    expect(error.message).toBe('server "s": url "${BASE}/mcp" is not an absolute http:// or https:// URL once its variables are filled in');
  });
});

describe("${input:id}: asked for once per id per session, kept in memory", () => {
  const withToken = entry({ url: "https://api.example.com/mcp", headers: { Authorization: "Bearer ${input:token}" }, inputs: [token] });

  it("asks the injected prompter and lists the answer as a secret", async () => {
    const asked: string[] = [];
    const launch = await resolveLaunch("gh", withToken, {
      env: {},
      promptInput: async (input, context) => {
        asked.push(`${context.server}:${input.id}`);
        return "s3cret-token";
      },
    });
    expect(asked).toEqual(["gh:token"]);
    expect(launch.transport !== "stdio" && launch.headers).toEqual({ Authorization: "Bearer s3cret-token" });
    expect(launch.secrets).toEqual(["Bearer s3cret-token", "s3cret-token"]);
  });

  it("asks at most once per id per session, even for concurrent connects of two servers", async () => {
    const inputs = new InputCache();
    let asked = 0;
    const promptInput = async (): Promise<string> => {
      asked += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return "tok";
    };
    const other = entry({ command: "x", env: { TOKEN: "${input:token}" }, inputs: [token] });
    const [a, b] = await Promise.all([resolveLaunch("gh", withToken, { env: {}, inputs, promptInput }), resolveLaunch("other", other, { env: {}, inputs, promptInput })]);
    await resolveLaunch("gh", withToken, { env: {}, inputs, promptInput });
    expect(asked).toBe(1);
    expect(a.secrets).toContain("tok");
    expect(b.transport === "stdio" && b.env).toEqual({ TOKEN: "tok" });
    expect(inputs.has("token")).toBe(true);
  });

  it("asks again after a dismissed prompt, and fails with MCP_CONFIG_INPUT_CANCELLED meanwhile", async () => {
    const inputs = new InputCache();
    const answers = [undefined, "second"];
    const promptInput = async (): Promise<string | undefined> => answers.shift();
    const error = await rejection(resolveLaunch("gh", withToken, { env: {}, inputs, promptInput }));
    expect(error.code).toBe("MCP_CONFIG_INPUT_CANCELLED");
    expect(error.message).toBe('server "gh" needs input "token" and no value was given; connect again and answer the prompt');
    expect(inputs.has("token")).toBe(false);
    const launch = await resolveLaunch("gh", withToken, { env: {}, inputs, promptInput });
    expect(launch.secrets).toContain("second");
  });

  it("uses an input's default for an empty answer, and checks pickString answers against the options", async () => {
    const pick = entry({
      command: "x",
      args: ["--region", "${input:region}"],
      inputs: [{ type: "pickString", id: "region", options: ["eu", { label: "United States", value: "us" }], default: "eu" }],
    });
    const fromDefault = await resolveLaunch("s", pick, { env: {}, promptInput: async () => "" });
    expect(fromDefault.transport === "stdio" && fromDefault.args).toEqual(["--region", "eu"]);
    const fromLabelled = await resolveLaunch("s", pick, { env: {}, promptInput: async () => "us" });
    expect(fromLabelled.transport === "stdio" && fromLabelled.args).toEqual(["--region", "us"]);
    const error = await rejection(resolveLaunch("s", pick, { env: {}, promptInput: async () => "mars" }));
    expect(error.code).toBe("MCP_CONFIG_INPUT_INVALID");
    expect(error.message).toBe('input "region" for server "s" must be one of: eu, us');
  });

  it("fails with MCP_CONFIG_INPUT_UNAVAILABLE when nothing can ask (a script run, the gateway)", async () => {
    const error = await rejection(resolveLaunch("gh", withToken, { env: {} }));
    expect(error.code).toBe("MCP_CONFIG_INPUT_UNAVAILABLE");
    expect(error.message).toBe(
      'server "gh" needs input "token" but nothing can ask for it here; set MCPVM_INPUT_TOKEN in the environment, or run mcpvm on a terminal to answer it',
    );
  });

  it("takes an input from MCPVM_INPUT_<ID> where nothing can ask (the gateway, scripts), and checks it like an answer", async () => {
    const fromEnv = await resolveLaunch("gh", withToken, { env: { MCPVM_INPUT_TOKEN: "env-supplied-token-123" } });
    expect(JSON.stringify(fromEnv)).toContain("env-supplied-token-123");
    expect(fromEnv.secrets).toContain("env-supplied-token-123");
    const pick = entry({ command: "x", args: ["${input:aws-region}"], inputs: [{ type: "pickString", id: "aws-region", options: ["eu", "us"] }] });
    const picked = await resolveLaunch("s", pick, { env: { MCPVM_INPUT_AWS_REGION: "us" } });
    expect(picked.transport === "stdio" && picked.args).toEqual(["us"]);
    const error = await rejection(resolveLaunch("s", pick, { env: { MCPVM_INPUT_AWS_REGION: "mars" } }));
    expect(error.code).toBe("MCP_CONFIG_INPUT_INVALID");
  });

  it("fails with MCP_CONFIG_UNKNOWN_INPUT for an entry that skipped validation", async () => {
    const unchecked = { type: "stdio" as const, command: "x", args: ["${input:nope}"], enabled: true };
    const error = await rejection(resolveLaunch("s", unchecked, { env: {}, promptInput: async () => "v" }));
    expect(error.code).toBe("MCP_CONFIG_UNKNOWN_INPUT");
  });
});
