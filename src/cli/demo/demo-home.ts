import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { loadConfigFile } from "../../config/config-file.js";
import { writeFileAtomic } from "../../util/atomic-file.js";
import { McpvmError } from "../../util/errors.js";
import { DEMO_SERVER_PACKAGES } from "./embedded-config.js";
import { counted } from "../../util/counted.js";

/**
 * Where `mcpvm demo` keeps its config. By default a fresh folder from mkdtemp (private, with a name
 * nobody can guess or create first), removed when the tour ends. `--home <dir>` may name a new or
 * empty folder, or one an earlier demo made; any other folder is refused untouched, because the
 * demo rewrites the home's mcpServers and would otherwise wipe a real configuration.
 */

/** Written into every home the demo sets up, so a later `--home` run can tell it is the demo's. */
export const DEMO_MARKER = "demo-home.json";

export const DEMO_SERVER_NAMES: readonly string[] = Object.keys(DEMO_SERVER_PACKAGES);

export class DemoHomeError extends McpvmError<"CONFIG_DEMO_HOME_IN_USE"> {}

export interface DemoHome {
  readonly dir: string;
  /** Made by this run (mkdtemp); removed at the end unless --keep. */
  readonly temporary: boolean;
}

/** What a folder holds, as far as deciding whether the demo may use it. */
export interface DemoHomeContents {
  readonly entries: readonly string[];
  readonly hasMarker: boolean;
  /** config.json's mcpServers; undefined when there is no config.json, "unreadable" when it does not load. */
  readonly servers: Readonly<Record<string, unknown>> | undefined | "unreadable";
}

/**
 * Why the demo must not use a folder with these contents, or undefined when it may. `demoServers`
 * are the entries this run would write (an older demo home without the marker is recognised by
 * holding exactly these).
 */
export function demoHomeRefusal(contents: DemoHomeContents, demoServers: Readonly<Record<string, unknown>>): string | undefined {
  if (contents.entries.length === 0) return undefined;
  if (contents.servers === "unreadable") return "a config.json that mcpvm cannot read";
  const names = Object.keys(contents.servers ?? {});
  const foreign = names.filter((name) => !DEMO_SERVER_NAMES.includes(name));
  if (foreign.length > 0) return `a config.json with ${counted(names.length, "MCP server")} (${names.join(", ")}), not only the demo's`;
  if (contents.hasMarker) return undefined;
  if (contents.servers !== undefined && isDeepStrictEqual(contents.servers, demoServers)) return undefined;
  const shown = contents.entries.slice(0, 5).join(", ") + (contents.entries.length > 5 ? ", …" : "");
  return `files the demo did not make (${shown})`;
}

async function readContents(dir: string): Promise<DemoHomeContents> {
  let entries: string[];
  try {
    entries = (await readdir(dir)).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { entries: [], hasMarker: false, servers: undefined };
    if (code === "ENOTDIR") {
      throw new DemoHomeError("CONFIG_DEMO_HOME_IN_USE", `${dir} is a file, not a folder; give --home a new folder, or leave it out for a fresh temporary home.`, { data: { home: dir } });
    }
    throw error;
  }
  let servers: DemoHomeContents["servers"];
  if (entries.includes("config.json")) {
    try {
      servers = (await loadConfigFile(join(dir, "config.json"))).mcpServers ?? {};
    } catch {
      servers = "unreadable";
    }
  }
  return { entries, hasMarker: entries.includes(DEMO_MARKER), servers };
}

export function demoHomeInUse(dir: string, what: string): DemoHomeError {
  return new DemoHomeError(
    "CONFIG_DEMO_HOME_IN_USE",
    `${dir} is not a demo home: it holds ${what}. The demo replaces a home's MCP servers, so it only uses a new or empty folder or one an earlier demo made; nothing was changed. ` +
      "Run `mcpvm demo` without --home (a fresh temporary home), or give --home a new folder.",
    { data: { home: dir } },
  );
}

/**
 * The home for this run: `requested` (resolved against `cwd`) after checking it is safe to use, or
 * a fresh mkdtemp folder under `tempRoot`. Throws DemoHomeError (exit 3) for a folder that holds
 * anything but the demo's own config.
 */
export async function chooseDemoHome(
  requested: string | undefined,
  cwd: string,
  demoServers: (dir: string) => Readonly<Record<string, unknown>>,
  tempRoot = tmpdir(),
): Promise<DemoHome> {
  if (requested === undefined) return { dir: await mkdtemp(join(tempRoot, "mcpvm-demo-")), temporary: true };
  const dir = resolve(cwd, requested);
  const refusal = demoHomeRefusal(await readContents(dir), demoServers(dir));
  if (refusal !== undefined) throw demoHomeInUse(dir, refusal);
  return { dir, temporary: false };
}

/** Mark `home` as the demo's, so a later `demo --home` accepts it (and only it). */
export async function markDemoHome(home: string): Promise<void> {
  const marker = {
    createdBy: "mcpvm demo",
    note: "A throw-away config home made by `mcpvm demo`; delete the folder at will. The demo only reuses folders holding this file.",
  };
  await writeFileAtomic(join(home, DEMO_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
}

export async function removeDemoHome(home: DemoHome): Promise<void> {
  if (home.temporary) await rm(home.dir, { recursive: true, force: true });
}
