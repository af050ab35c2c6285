import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import type { PluginContext, PluginRegistration } from "../../src/plugin-system/types.js";
import { resolveConfigPaths } from "../../src/config/paths.js";
import { isLazyHostModule, type HostCallContext, type HostFunction } from "../../src/sandbox/types.js";

export function callContext(overrides: Partial<HostCallContext> = {}): HostCallContext {
  return { module: "test", fn: "test", signal: new AbortController().signal, deadline: Date.now() + 60_000, ...overrides };
}

export function pluginContext(pluginDir: string): PluginContext {
  return { paths: resolveConfigPaths({ MCPVM_HOME: join(tmpdir(), "mcpvm-plugin-tests-home") }), pluginDir, env: {} };
}

/** Build a plugin's host module the way the plugin system does: parse config, then create. */
export async function hostModule<C>(plugin: PluginRegistration<C>, module: string, rawConfig: unknown): Promise<Record<string, HostFunction>> {
  const config = plugin.configSchema.parse(rawConfig);
  const modules = await plugin.createHostFunctions(config, pluginContext(join("plugins", plugin.name)));
  const functions = modules[module];
  if (functions === undefined || isLazyHostModule(functions)) throw new Error(`plugin ${plugin.name} did not create a static module ${module}`);
  return { ...functions };
}

/** Call a host function with the guest's argument list. */
export function invoke(functions: Record<string, HostFunction>, name: string, ...args: unknown[]): Promise<unknown> {
  const fn = functions[name];
  if (fn === undefined) throw new Error(`no host function ${name}`);
  return Promise.resolve().then(() => fn(args, callContext({ fn: name })));
}

/**
 * Expect a rejection with `code`, and that its message reveals none of `hidden` (host paths the
 * guest must never learn). Returns the error for further checks.
 */
export async function expectFailure(work: Promise<unknown>, code: string, hidden: readonly string[] = []): Promise<Error & { code: string }> {
  const error: unknown = await work.then(
    (value) => {
      throw new Error(`expected ${code}, got value ${JSON.stringify(value)}`);
    },
    (reason: unknown) => reason,
  );
  expect(error).toMatchObject({ code });
  const message = (error as Error).message;
  for (const secret of hidden) expect(message).not.toContain(secret);
  return error as Error & { code: string };
}

export async function withTempDir<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-plugins-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
