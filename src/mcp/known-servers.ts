/**
 * The curated catalog behind `/mcp add <name>` and `mcpvm mcp add <name>`: well-known servers with
 * the command that starts them and the environment they need. Secrets are written to the config
 * as `${VAR}` references, never as values.
 */
export interface KnownServer {
  readonly name: string;
  readonly description: string;
  readonly transport: "stdio" | "http";
  readonly command: string;
  readonly args: readonly string[];
  /** Variables the server needs; each is written to the config as `NAME: "${NAME}"`. */
  readonly requiredEnv: readonly string[];
  /** Words in args that the user must replace (e.g. an allowed directory). */
  readonly placeholders?: Readonly<Record<string, string>>;
  readonly homepage: string;
  readonly notes?: string;
}

export const KNOWN_SERVERS: readonly KnownServer[] = [
  {
    name: "everything",
    description: "Reference test server exercising every MCP feature (echo, add, images, structured content, pagination).",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-everything"],
    requiredEnv: [],
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/everything",
  },
  {
    name: "memory",
    description: "Knowledge-graph memory: entities, relations and observations kept in a local JSON file.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-memory"],
    requiredEnv: [],
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/memory",
  },
  {
    name: "filesystem",
    description: "Read, write, search and edit files inside the directories you allow.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-filesystem", "{dir}"],
    requiredEnv: [],
    placeholders: { "{dir}": "a directory the server may access (defaults to the current directory)" },
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/filesystem",
  },
  {
    name: "git",
    description: "Read and manipulate a local git repository (status, diff, log, commit, branches).",
    transport: "stdio",
    command: "uvx",
    args: ["mcp-server-git", "--repository", "{dir}"],
    requiredEnv: [],
    placeholders: { "{dir}": "the repository path (defaults to the current directory)" },
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/git",
    notes: "Needs uv (https://docs.astral.sh/uv/).",
  },
  {
    name: "github",
    description: "GitHub issues, pull requests, files and searches through the GitHub API.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-github"],
    requiredEnv: ["GITHUB_PERSONAL_ACCESS_TOKEN"],
    homepage: "https://github.com/modelcontextprotocol/servers-archived/tree/main/src/github",
  },
  {
    name: "postgres",
    description: "Read-only SQL queries and schema inspection against a PostgreSQL database.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-postgres", "${POSTGRES_URL}"],
    requiredEnv: ["POSTGRES_URL"],
    homepage: "https://github.com/modelcontextprotocol/servers-archived/tree/main/src/postgres",
  },
  {
    name: "slack",
    description: "Read channels and threads, post messages and reactions in a Slack workspace.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-slack"],
    requiredEnv: ["SLACK_BOT_TOKEN", "SLACK_TEAM_ID"],
    homepage: "https://github.com/modelcontextprotocol/servers-archived/tree/main/src/slack",
  },
  {
    name: "fetch",
    description: "Fetch a URL and return it as markdown for the model.",
    transport: "stdio",
    command: "uvx",
    args: ["mcp-server-fetch"],
    requiredEnv: [],
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/fetch",
    notes: "Needs uv (https://docs.astral.sh/uv/). The server fetches any URL: consider denyTools or a network policy.",
  },
  {
    name: "playwright",
    description: "Drive a real browser (navigate, click, type, snapshot) with Playwright.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@playwright/mcp@latest", "--headless"],
    requiredEnv: [],
    homepage: "https://github.com/microsoft/playwright-mcp",
    notes: "Downloads a browser on first use unless one is installed.",
  },
  {
    name: "sequential-thinking",
    description: "A scratchpad tool for step-by-step reasoning with revisions and branches.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-sequential-thinking"],
    requiredEnv: [],
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/sequentialthinking",
  },
];

export function findKnownServer(name: string): KnownServer | undefined {
  return KNOWN_SERVERS.find((s) => s.name === name);
}

/** A config entry for a catalog server: secrets as `${VAR}` references, placeholders filled in. */
export function entryFromKnownServer(server: KnownServer, fill: Readonly<Record<string, string>>): Record<string, unknown> {
  const args = server.args.map((arg) => Object.entries(fill).reduce((text, [placeholder, value]) => text.split(placeholder).join(value), arg));
  return {
    type: server.transport,
    command: server.command,
    args,
    ...(server.requiredEnv.length === 0 ? {} : { env: Object.fromEntries(server.requiredEnv.map((name) => [name, `\${${name}}`])) }),
    description: server.description,
  };
}
