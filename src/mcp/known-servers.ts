/**
 * The curated catalog behind `/mcp add <name>` and `mcpvm mcp add <name>`: well-known servers with
 * the command that starts them and the environment they need. Secrets are written to the config
 * as `${VAR}` references, never as values.
 *
 * Every package is pinned to an exact version (checked with `npm view <pkg> version`, or PyPI for
 * uvx packages): an unpinned `npx -y pkg` runs whatever the registry serves on the day it starts,
 * which the approval of the launch definition never saw. Moving to a newer version is an edit
 * here (or in config.json), and so a new approval.
 */
import { join } from "node:path";

export interface KnownServer {
  readonly name: string;
  readonly description: string;
  readonly transport: "stdio" | "http";
  readonly command: string;
  readonly args: readonly string[];
  /** Variables the server needs; each is written to the config as `NAME: "${NAME}"`. */
  readonly requiredEnv: readonly string[];
  /**
   * Variables set to a file in the config home (the value is the file's name there). Without one,
   * server-memory keeps its graph next to its own code, in the npx cache: shared by every config
   * home and lost when the pinned version moves (a new npx folder) or the cache is cleaned.
   */
  readonly homeFiles?: Readonly<Record<string, string>>;
  /** Words in args that the user must replace (e.g. an allowed directory). */
  readonly placeholders?: Readonly<Record<string, string>>;
  readonly homepage: string;
  readonly notes?: string;
  /** Archived upstream: still installable, no longer maintained; said in the description too. */
  readonly archived?: boolean;
}

export const KNOWN_SERVERS: readonly KnownServer[] = [
  {
    name: "everything",
    description: "Reference test server exercising every MCP feature (echo, add, images, structured content, pagination).",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-everything@2026.8.31"],
    requiredEnv: [],
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/everything",
  },
  {
    name: "memory",
    description: "Knowledge-graph memory: entities, relations and observations kept in a local JSON file.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-memory@2026.8.31"],
    requiredEnv: [],
    homeFiles: { MEMORY_FILE_PATH: "memory.jsonl" },
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/memory",
  },
  {
    name: "filesystem",
    description: "Read, write, search and edit files inside the directories you allow.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "{dir}"],
    requiredEnv: [],
    placeholders: { "{dir}": "a directory the server may access (defaults to the current directory)" },
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/filesystem",
  },
  {
    name: "git",
    description: "Read and manipulate a local git repository (status, diff, log, commit, branches).",
    transport: "stdio",
    command: "uvx",
    args: ["mcp-server-git@2026.10.19", "--repository", "{dir}"],
    requiredEnv: [],
    placeholders: { "{dir}": "the repository path (defaults to the current directory)" },
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/git",
    notes: "Needs uv (https://docs.astral.sh/uv/).",
  },
  {
    name: "github",
    description: "(archived upstream, unmaintained) GitHub issues, pull requests, files and searches through the GitHub API.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-github@2025.4.8"],
    requiredEnv: ["GITHUB_PERSONAL_ACCESS_TOKEN"],
    homepage: "https://github.com/modelcontextprotocol/servers-archived/tree/main/src/github",
    archived: true,
    notes:
      "This package is archived upstream. GitHub maintains its own server (github/github-mcp-server), a binary or a remote HTTP server rather than an npm package: " +
      "add the remote one with `mcpvm mcp add github --transport http https://api.githubcopilot.com/mcp/ -H 'Authorization: Bearer ${GITHUB_PERSONAL_ACCESS_TOKEN}'`.",
  },
  {
    name: "postgres",
    description: "(archived upstream, unmaintained) Read-only SQL queries and schema inspection against a PostgreSQL database.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-postgres@0.6.2", "${POSTGRES_URL}"],
    requiredEnv: ["POSTGRES_URL"],
    homepage: "https://github.com/modelcontextprotocol/servers-archived/tree/main/src/postgres",
    archived: true,
    notes: "This package is archived upstream and gets no fixes.",
  },
  {
    name: "slack",
    description: "Read channels and threads, post messages and reactions in a Slack workspace (Zencoder's maintained fork of the archived reference server).",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@zencoderai/slack-mcp-server@0.0.1"],
    requiredEnv: ["SLACK_BOT_TOKEN", "SLACK_TEAM_ID"],
    homepage: "https://github.com/zencoderai/slack-mcp-server",
  },
  {
    name: "fetch",
    description: "Fetch a URL and return it as markdown for the model.",
    transport: "stdio",
    command: "uvx",
    args: ["mcp-server-fetch@2026.10.24"],
    requiredEnv: [],
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/fetch",
    notes: "Needs uv (https://docs.astral.sh/uv/). The server fetches any URL: consider denyTools or a network policy.",
  },
  {
    name: "playwright",
    description: "Drive a real browser (navigate, click, type, snapshot) with Playwright.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@playwright/mcp@0.0.83", "--headless"],
    requiredEnv: [],
    homepage: "https://github.com/microsoft/playwright-mcp",
    notes: "Downloads a browser on first use unless one is installed.",
  },
  {
    name: "sequential-thinking",
    description: "A scratchpad tool for step-by-step reasoning with revisions and branches.",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-sequential-thinking@2026.8.31"],
    requiredEnv: [],
    homepage: "https://github.com/modelcontextprotocol/servers/tree/main/src/sequentialthinking",
  },
];

export function findKnownServer(name: string): KnownServer | undefined {
  return KNOWN_SERVERS.find((s) => s.name === name);
}

/** A config entry for a catalog server: secrets as `${VAR}` references, placeholders filled in, home files under `home`. */
export function entryFromKnownServer(server: KnownServer, fill: Readonly<Record<string, string>>, home: string): Record<string, unknown> {
  const args = server.args.map((arg) => Object.entries(fill).reduce((text, [placeholder, value]) => text.split(placeholder).join(value), arg));
  const env: Record<string, string> = {
    ...Object.fromEntries(server.requiredEnv.map((name) => [name, `\${${name}}`])),
    ...Object.fromEntries(Object.entries(server.homeFiles ?? {}).map(([name, file]) => [name, join(home, file)])),
  };
  return {
    type: server.transport,
    command: server.command,
    args,
    ...(Object.keys(env).length === 0 ? {} : { env }),
    description: server.description,
  };
}
