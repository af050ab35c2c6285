import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { manifestText } from "../plugin-system/helpers.js";

/** Real `node bin/mcpvm.js` (dist must be built) in temporary homes holding real approved, enabled user plugins. */
export const BIN = join(import.meta.dirname, "..", "..", "bin", "mcpvm.js");

/** A user plugin's files: plugin.json and `entry` as index.mjs. */
export function userPlugin(name: string, entry: string): Record<string, string> {
  return { "plugin.json": manifestText(name), "index.mjs": entry };
}

/** An entry's default export providing module `name`, with `body` as createHostFunctions' body. */
export const registration = (name: string, body: string): string => `export default { name: ${JSON.stringify(name)}, declaredModules: [${JSON.stringify(name)}], createHostFunctions() { ${body} } };\n`;

export const pluginEnv = (home: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, MCPVM_HOME: home });

export async function mcpvm(home: string, ...args: string[]): Promise<void> {
  await promisify(execFile)(process.execPath, [BIN, ...args], { env: pluginEnv(home) });
}

export class PluginHomes {
  private readonly homes: string[] = [];

  /** A home with these plugins approved and enabled (in this order). */
  async with(prefix: string, plugins: readonly Record<string, string>[]): Promise<string> {
    const home = await mkdtemp(join(tmpdir(), `mcpvm-${prefix}-`));
    this.homes.push(home);
    for (const files of plugins) {
      const name = (JSON.parse(files["plugin.json"] as string) as { name: string }).name;
      await mkdir(join(home, "plugins", name), { recursive: true });
      for (const [file, text] of Object.entries(files)) await writeFile(join(home, "plugins", name, file), text);
      await mcpvm(home, "plugin", "approve", name, "--yes");
      await mcpvm(home, "plugin", "enable", name);
    }
    return home;
  }

  async cleanup(): Promise<void> {
    await Promise.all(this.homes.map((home) => rm(home, { recursive: true, force: true })));
  }
}
