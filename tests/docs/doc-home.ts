/**
 * Temp config homes for the docs' examples, with the servers the docs name replaced by local
 * equivalents: the npm reference servers from node_modules, and the stand-in server
 * (fixtures/stand-in-server.mjs) for servers that cannot run here (github, weather, …).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { McpvmHost } from "../../src/host/index.js";

const ROOT = resolve(import.meta.dirname, "../..");
const NPM = join(ROOT, "node_modules", "@modelcontextprotocol");
const LOCAL_PACKAGES: Readonly<
  Record<string, { file: string; leadingArgs: readonly string[] }>
> = {
  "server-everything": {
    file: join(NPM, "server-everything", "dist", "index.js"),
    leadingArgs: ["stdio"],
  },
  "server-memory": {
    file: join(NPM, "server-memory", "dist", "index.js"),
    leadingArgs: [],
  },
  "server-filesystem": {
    file: join(NPM, "server-filesystem", "dist", "index.js"),
    leadingArgs: [],
  },
};
export const STAND_IN = join(
  ROOT,
  "tests",
  "docs",
  "fixtures",
  "stand-in-server.mjs",
);

type Entry = Record<string, unknown>;

export interface DocHome {
  readonly dir: string;
  readonly env: Record<string, string>;
  cleanup(): Promise<void>;
}

/** Client config files the docs import from (`mcp import ~/.cursor/mcp.json` …), seeded into each home. */
const CLIENT_CONFIGS: Readonly<Record<string, unknown>> = {
  ".cursor/mcp.json": {
    mcpServers: {
      notes: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
      },
    },
  },
  ".vscode/mcp.json": {
    servers: {
      scratch: {
        type: "stdio",
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
      },
    },
  },
  ".codeium/windsurf/mcp_config.json": {
    mcpServers: {
      github: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-github"],
        env: {
          GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_PERSONAL_ACCESS_TOKEN}",
        },
      },
      memory: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-memory"],
      },
    },
  },
};

export async function makeDocHome(): Promise<DocHome> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-docs-"));
  await mkdir(join(dir, "projects"));
  await mkdir(join(dir, ".config", "fish", "completions"), { recursive: true }); // fish makes it on install
  // The reader's own stdio server of `mcp add my-tool -- node ./server.js` (never started by the examples).
  await writeFile(join(dir, "server.js"), "// a reader's own MCP server\n");
  for (const [file, content] of Object.entries(CLIENT_CONFIGS)) {
    await mkdir(join(dir, file, ".."), { recursive: true });
    await writeFile(join(dir, file), JSON.stringify(content, null, 2));
  }
  // quickjs: CI machines cannot boot Hyperlight VMs (DESIGN.md); the docs' examples do not depend on the engine.
  await writeFile(
    join(dir, "config.json"),
    JSON.stringify({ engine: "quickjs" }, null, 2),
    { mode: 0o600 },
  );
  const env = {
    MCPVM_HOME: dir,
    HOME: dir,
    PATH: process.env.PATH ?? "",
    NO_COLOR: "1",
  };
  return { dir, env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** The local equivalent of a server the docs name. */
export function localServer(name: string, home: string): Entry {
  switch (name) {
    case "memory":
      return {
        command: process.execPath,
        args: [LOCAL_PACKAGES["server-memory"]!.file],
        env: { MEMORY_FILE_PATH: join(home, "memory.jsonl") },
      };
    case "everything":
      return {
        command: process.execPath,
        args: [LOCAL_PACKAGES["server-everything"]!.file, "stdio"],
      };
    case "filesystem":
      return {
        command: process.execPath,
        args: [LOCAL_PACKAGES["server-filesystem"]!.file, home],
      };
    default:
      return { command: process.execPath, args: [STAND_IN] };
  }
}

/** An `npx -y @modelcontextprotocol/server-x[@version] …` launch, pointed at the local copy (or the stand-in). */
function localLaunch(entry: Entry, home: string): Entry | undefined {
  const args = Array.isArray(entry.args) ? (entry.args as string[]) : [];
  if (entry.command !== "npx") return undefined;
  const packageIndex = args.findIndex((arg) =>
    arg.startsWith("@modelcontextprotocol/server-"),
  );
  if (packageIndex < 0) return undefined;
  const packageName = args[packageIndex]!.replace(
    /^@modelcontextprotocol\//,
    "",
  ).replace(/@.*$/, "");
  const rest = args.slice(packageIndex + 1);
  const local = LOCAL_PACKAGES[packageName];
  const launch =
    local === undefined
      ? [STAND_IN]
      : [local.file, ...local.leadingArgs, ...rest];
  const env =
    packageName === "server-memory"
      ? {
          MEMORY_FILE_PATH: join(home, "memory.jsonl"),
          ...(entry.env as object),
        }
      : entry.env;
  return {
    ...entry,
    command: process.execPath,
    args: launch,
    ...(env === undefined ? {} : { env }),
  };
}

/**
 * Rewrites, in the home's config.json, every npx launch of an npm reference server to the local copy
 * (no network). Done between command lines, so approval sees the rewritten launch.
 */
export async function localiseConfig(home: DocHome): Promise<void> {
  const file = join(home.dir, "config.json");
  if (!existsSync(file)) return;
  const config = JSON.parse(await readFile(file, "utf8")) as {
    mcpServers?: Record<string, Entry>;
  };
  let changed = false;
  for (const [name, entry] of Object.entries(config.mcpServers ?? {})) {
    const local = localLaunch(entry, home.dir);
    if (local === undefined) continue;
    config.mcpServers![name] = local;
    changed = true;
  }
  if (changed)
    await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });
}

/** Configures these servers (local equivalents) in the home; with `approve`, also the mcp plugin and the servers. */
export async function configureServers(
  home: DocHome,
  names: readonly string[],
  approve: boolean,
): Promise<void> {
  const file = join(home.dir, "config.json");
  const config = JSON.parse(await readFile(file, "utf8")) as Record<
    string,
    unknown
  >;
  const servers = {
    ...(config.mcpServers as Record<string, Entry> | undefined),
  };
  for (const name of names) servers[name] ??= localServer(name, home.dir);
  const plugins = {
    ...(config.plugins as Record<string, unknown> | undefined),
    ...(approve
      ? {
          mcp: {
            ...(config.plugins as { mcp?: object } | undefined)?.mcp,
            enabled: true,
          },
        }
      : {}),
  };
  await writeFile(
    file,
    JSON.stringify({ ...config, plugins, mcpServers: servers }, null, 2),
    { mode: 0o600 },
  );
  if (!approve) return;
  const host = await McpvmHost.open({ env: home.env });
  try {
    await host.plugins.approve("mcp");
    const service = await host.requireMcp();
    for (const name of names) await service.approve(name);
  } finally {
    await host.close();
  }
}

/** Adds a doc's config snippet to the home's config.json (each top-level section merged one level deep). */
export async function mergeConfig(
  home: DocHome,
  snippet: Readonly<Record<string, unknown>>,
): Promise<void> {
  const file = join(home.dir, "config.json");
  const config = JSON.parse(await readFile(file, "utf8")) as Record<
    string,
    unknown
  >;
  for (const [key, value] of Object.entries(snippet)) {
    const current = config[key];
    const bothObjects =
      typeof current === "object" &&
      current !== null &&
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value);
    config[key] = bothObjects
      ? { ...(current as object), ...(value as object) }
      : value;
  }
  await writeFile(file, JSON.stringify(config, null, 2), { mode: 0o600 });
}
