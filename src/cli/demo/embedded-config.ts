import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The servers the demo runs: real MCP reference servers from npm that need no keys. */
export const DEMO_SERVER_PACKAGES = {
  everything: { pkg: "@modelcontextprotocol/server-everything", args: ["stdio"] },
  memory: { pkg: "@modelcontextprotocol/server-memory", args: [] },
} as const;

/** config.json `flows` of the demo home: the one flow the tour makes (everything's forecasts into memory). */
export const DEMO_FLOWS = { default: "ask", allow: [["everything", "memory.create_entities"]] };

export interface DemoServerEntry {
  readonly type: "stdio";
  readonly command: string;
  readonly args: string[];
  readonly env?: Record<string, string>;
  readonly description: string;
  /** memory: "never", so the tour's writes (to the demo's own throw-away file) need no terminal. */
  readonly confirm?: "never";
}

/**
 * Launch definitions for the demo servers. They run from this installation's node_modules when
 * present (a clone after `npm install`); otherwise through `npx -y <package>@<version>`, which
 * fetches them from the npm registry.
 */
export function embeddedDemoServers(home: string, versions: Readonly<Record<string, string>> = {}): Record<string, DemoServerEntry> {
  const require = createRequire(import.meta.url);
  const launch = (pkg: string, extra: readonly string[]): { command: string; args: string[] } => {
    try {
      const manifest = require.resolve(`${pkg}/package.json`);
      const { bin } = require(manifest) as { bin?: string | Record<string, string> };
      const entry = typeof bin === "string" ? bin : Object.values(bin ?? {})[0];
      if (entry !== undefined) return { command: process.execPath, args: [join(dirname(manifest), entry), ...extra] };
    } catch {
      // Not installed here (e.g. a global install without devDependencies): fall back to npx.
    }
    const version = versions[pkg];
    return { command: "npx", args: ["-y", version === undefined ? pkg : `${pkg}@${version}`, ...extra] };
  };
  return {
    everything: {
      type: "stdio",
      ...launch(DEMO_SERVER_PACKAGES.everything.pkg, DEMO_SERVER_PACKAGES.everything.args),
      description: "MCP reference test server (echo, sums, structured content, images)",
    },
    memory: {
      type: "stdio",
      ...launch(DEMO_SERVER_PACKAGES.memory.pkg, DEMO_SERVER_PACKAGES.memory.args),
      env: { MEMORY_FILE_PATH: join(home, "demo-memory.jsonl") },
      description: "Knowledge-graph memory kept in the demo's home folder",
      confirm: "never",
    },
  };
}
