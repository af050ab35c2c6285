import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfigFile } from "../../src/config/config-file.js";
import { PluginError, PluginManager, type PluginManagerOptions } from "../../src/plugin-system/index.js";
import { callHostFunction, installEcho, makeWorld, manifestText, simpleUserPlugin, writeFiles, type TempWorld } from "./helpers.js";

let world: TempWorld;
let imported: string[];

const CLOCK = new Date("2026-03-04T05:06:07.000Z");

function manager(overrides: Partial<PluginManagerOptions> = {}): PluginManager {
  return new PluginManager({
    paths: world.paths,
    packageRoot: world.packageRoot,
    compiled: false,
    now: () => CLOCK,
    user: "tester",
    // Records what was imported; the import itself is the real one.
    importModule: (url) => {
      imported.push(url);
      return import(url);
    },
    ...overrides,
  });
}

async function caught(promise: Promise<unknown>): Promise<PluginError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof PluginError) return error;
    throw error;
  }
  throw new Error("expected a PluginError");
}


beforeEach(async () => {
  world = await makeWorld();
  imported = [];
});
afterEach(() => world.cleanup());

describe("the plugin lifecycle: discovered -> audited -> approved -> enabled/disabled", () => {
  it("walks a native plugin through every state", async () => {
    await installEcho(world);
    const plugins = manager();
    const state = async () => (await plugins.list()).plugins.map((plugin) => [plugin.name, plugin.state, plugin.approval, plugin.enabled]);

    expect(await state()).toEqual([["echo", "audited", "none", false]]);
    const approval = await plugins.approve("echo");
    expect(approval).toMatchObject({ approvedAt: "2026-03-04T05:06:07.000Z", approvedBy: "tester", source: "native", version: "1.0.0" });
    expect(approval.audit).toEqual({
      files: 2,
      findings: 1,
      byRisk: { low: 1, medium: 0, high: 0, critical: 0 },
      highestRisk: "low",
      undeclaredCapabilities: [],
      rules: ["external-dependency"],
    });
    expect(await state()).toEqual([["echo", "approved", "valid", false]]);
    await plugins.enable("echo");
    expect(await state()).toEqual([["echo", "enabled", "valid", true]]);
    expect((await loadConfigFile(world.paths.configFile)).plugins).toEqual({ echo: { enabled: true } });
    await plugins.disable("echo");
    expect(await state()).toEqual([["echo", "disabled", "valid", false]]);
    expect(imported).toEqual([]);
  });

  it("refuses to enable an unapproved plugin and names the command that approves it", async () => {
    await installEcho(world);
    const error = await caught(manager().enable("echo"));
    expect(error.code).toBe("PLUGIN_NOT_APPROVED");
    expect(error.message).toContain("`mcpvm plugin approve echo`");
    expect(await loadConfigFile(world.paths.configFile)).toEqual({});
  });

  it("invalidates the approval when one imported file changes", async () => {
    const dir = await installEcho(world);
    const plugins = manager();
    await plugins.approve("echo");
    await plugins.enable("echo");
    await writeFile(join(dir, "greeting.ts"), (await readFile(join(dir, "greeting.ts"), "utf8")).replace("join(\" \")", "join(\"-\")"));

    const [status] = (await plugins.list()).plugins;
    expect([status?.state, status?.approval, status?.enabled]).toEqual(["audited", "stale", true]);
    const error = await caught(plugins.enable("echo"));
    expect(error.code).toBe("PLUGIN_APPROVAL_STALE");
    expect(error.message).toContain("`mcpvm plugin approve echo`");

    const loaded = await plugins.loadHostModules();
    expect(loaded.modules).toEqual({});
    expect(loaded.refused.map((refusal) => [refusal.plugin, refusal.error.code])).toEqual([["echo", "PLUGIN_APPROVAL_STALE"]]);
    expect(imported).toEqual([]);
  });

  it("re-approving after a change makes it loadable again", async () => {
    const dir = await installEcho(world);
    const plugins = manager();
    await plugins.approve("echo");
    await plugins.enable("echo");
    await writeFile(join(dir, "module.d.ts"), "declare module \"host:echo\" { export function ping(): string; }\n");
    expect((await plugins.list()).plugins[0]?.approval).toBe("stale");
    await plugins.approve("echo");
    const loaded = await plugins.loadHostModules();
    expect(loaded.loaded).toEqual(["echo"]);
    expect(loaded.declarations.echo).toContain("export function ping(): string;");
    await plugins.dispose();
  });

  it("revoke removes the approval and switches the plugin off", async () => {
    await installEcho(world);
    const plugins = manager();
    await plugins.approve("echo");
    await plugins.enable("echo");
    expect(await plugins.revoke("echo")).toBe(true);
    expect((await plugins.list()).plugins.map((plugin) => [plugin.state, plugin.approval, plugin.enabled])).toEqual([["audited", "none", false]]);
    expect(await plugins.revoke("echo")).toBe(false);
  });

  it("refuses to approve a plugin whose audit is blocked", async () => {
    await writeFiles(join(world.paths.userPluginsDir, "leaky"), {
      ...simpleUserPlugin("leaky"),
      "index.mjs": `import secrets from "../../config.json" with { type: "json" };\nexport default secrets;\n`,
    });
    const error = await caught(manager().approve("leaky"));
    expect(error.code).toBe("PLUGIN_AUDIT_BLOCKED");
    expect(error.message).toContain("index.mjs:1:1 imports a file outside the plugin's folder");
  });

  it("explains unknown and broken plugins", async () => {
    await writeFiles(join(world.paths.userPluginsDir, "broken"), { "plugin.json": manifestText("broken", { version: "one" }) });
    expect((await caught(manager().info("nope"))).code).toBe("PLUGIN_NOT_FOUND");
    const broken = await caught(manager().enable("broken"));
    expect(broken.code).toBe("PLUGIN_MANIFEST_INVALID");
    expect(broken.message).toContain("version: must be a semantic version");
    expect((await manager().list()).errors.map((error) => error.code)).toEqual(["PLUGIN_MANIFEST_INVALID"]);
  });

  // `plugin approve` shows the audit, then waits for the person: code changed meanwhile must not be
  // what gets approved (the hash used to be taken after the answer).
  it("approves only the version that was shown: a change while the person reads refuses, approving nothing", async () => {
    await writeFiles(join(world.paths.userPluginsDir, "fine"), simpleUserPlugin("fine"));
    const plugins = manager();
    const shown = await plugins.info("fine");
    await writeFile(join(world.paths.userPluginsDir, "fine", "index.mjs"), `import "node:child_process";\n${simpleUserPlugin("fine")["index.mjs"]}`);
    const error = await caught(plugins.approve("fine", { expectedHash: shown.hash }));
    expect(error.code).toBe("PLUGIN_CHANGED_DURING_APPROVAL");
    expect(error.message).toContain("mcpvm plugin approve fine");
    expect((await plugins.info("fine")).approval).toBe("none");
    const again = await plugins.info("fine");
    expect((await plugins.approve("fine", { expectedHash: again.hash })).hash).toBe(again.hash);
  });

  it("info shows the manifest, the fresh audit and the stored approval", async () => {
    await installEcho(world);
    const plugins = manager();
    await plugins.approve("echo");
    const info = await plugins.info("echo");
    expect(info.manifest.hostModules.map((module) => module.name)).toEqual(["echo"]);
    expect(info.audit.files.map((file) => file.path)).toEqual(["greeting.ts", "index.ts"]);
    expect(info.approvalRecord?.approvedBy).toBe("tester");
    expect(info.modules).toEqual(["echo"]);
  });
});

describe("loading host modules", () => {
  it("imports each enabled, approved plugin with its validated config and returns modules, declarations and hints", async () => {
    const dir = await installEcho(world);
    await writeFiles(join(world.paths.userPluginsDir, "idle"), simpleUserPlugin("idle"));
    const plugins = manager();
    await plugins.approve("echo");
    await plugins.approve("idle");
    await plugins.enable("echo");
    expect(await plugins.setConfig("echo", { greeting: "hi", times: 2 })).toEqual({ validated: true });

    const loaded = await plugins.loadHostModules();
    expect(loaded.loaded).toEqual(["echo"]);
    expect(loaded.refused).toEqual([]);
    expect(Object.keys(loaded.modules)).toEqual(["echo"]);
    expect(await callHostFunction(loaded.modules, "echo", "say", "bob")).toBe("hi, bob hi, bob");
    expect(await callHostFunction(loaded.modules, "echo", "ping")).toBe("pong");
    expect(loaded.declarations).toEqual({ echo: await readFile(join(dir, "module.d.ts"), "utf8") });
    expect(loaded.hints).toEqual({ echo: ["say() returns the greeting repeated `times` times"] });
    expect(loaded.moduleInfo).toEqual({ echo: { plugin: "echo", description: "Say things back.", functions: { say: "Greets the given name.", ping: "Answers pong." } } });

    const { lifecycle } = (await import(pathToFileURL(join(dir, "index.ts")).href)) as { lifecycle: { created: number; disposed: number; lastPluginDir: string } };
    expect(lifecycle).toEqual({ created: 1, disposed: 0, lastPluginDir: dir });
    await plugins.dispose();
    expect(lifecycle.disposed).toBe(1);
    await plugins.dispose();
    expect(lifecycle.disposed).toBe(1);
  });

  it("names the plugin and the JSON path of an invalid config, when set and when loaded", async () => {
    await installEcho(world);
    const plugins = manager();
    await plugins.approve("echo");
    await plugins.enable("echo");
    const atSet = await caught(plugins.setConfig("echo", { times: 0 }));
    expect(atSet.code).toBe("PLUGIN_CONFIG_INVALID");
    expect(atSet.message).toContain("plugin echo");
    expect(atSet.message).toContain("plugins.echo.config.times:");
    // A misspelt key, as typed by hand or with `plugin config`: the message names the key it meant.
    const typo = await caught(plugins.setConfig("echo", { greting: "hi" }));
    expect(typo.message).toContain('Unrecognized key: "greting"; did you mean "greeting"?');

    const config = JSON.parse(await readFile(world.paths.configFile, "utf8")) as { plugins: Record<string, unknown> };
    config.plugins.echo = { enabled: true, config: { greeting: "" } };
    await writeFile(world.paths.configFile, JSON.stringify(config));
    const loaded = await plugins.loadHostModules();
    expect(loaded.refused.map((refusal) => refusal.error.code)).toEqual(["PLUGIN_CONFIG_INVALID"]);
    expect(loaded.refused[0]?.error.message).toContain("plugins.echo.config.greeting:");
  });

  it("stores config for an unapproved plugin without importing its code", async () => {
    await installEcho(world);
    expect(await manager().setConfig("echo", { times: 0 })).toEqual({ validated: false });
    expect(imported).toEqual([]);
    expect((await loadConfigFile(world.paths.configFile)).plugins?.echo).toEqual({ config: { times: 0 } });
  });

  it("refuses modules and functions the plugin did not declare, and still loads the others", async () => {
    const user = world.paths.userPluginsDir;
    await writeFiles(join(user, "sneaky"), simpleUserPlugin("sneaky", `{ sneaky: { hello: () => 1 }, fs: { readFile: () => "secret" } }`));
    await writeFiles(join(user, "extra"), simpleUserPlugin("extra", `{ extra: { hello: () => 1, exec: () => 2 } }`));
    await writeFiles(join(user, "fine"), simpleUserPlugin("fine"));
    const plugins = manager();
    for (const name of ["sneaky", "extra", "fine"]) {
      await plugins.approve(name);
      await plugins.enable(name);
    }
    const loaded = await plugins.loadHostModules();
    expect(loaded.loaded).toEqual(["fine"]);
    expect(await callHostFunction(loaded.modules, "fine", "hello")).toBe("hello from fine");
    expect(loaded.refused.map((refusal) => [refusal.plugin, refusal.error.code])).toEqual([
      ["extra", "PLUGIN_UNDECLARED_FUNCTION"],
      ["sneaky", "PLUGIN_UNDECLARED_MODULE"],
    ]);
    expect(loaded.refused[1]?.error.message).toBe(`plugin sneaky: module "fs" is not declared in plugin.json and its registration's declaredModules; it was refused`);
  });

  // A run used to say only `Unknown host module "host:fine" (available: none)`: the reason (a broken
  // plugin.json, a misspelt name in config.json) was shown by `plugin list` alone.
  it("reports an enabled plugin whose folder became unusable, and an enabled name that is no plugin, and still loads the others", async () => {
    const user = world.paths.userPluginsDir;
    await writeFiles(join(user, "fine"), simpleUserPlugin("fine"));
    await writeFiles(join(user, "broken"), simpleUserPlugin("broken"));
    const plugins = manager();
    for (const name of ["fine", "broken"]) {
      await plugins.approve(name);
      await plugins.enable(name);
    }
    await writeFile(join(user, "broken", "plugin.json"), manifestText("broken", { extra: true }));
    const config = JSON.parse(await readFile(world.paths.configFile, "utf8")) as { plugins: Record<string, unknown> };
    config.plugins["fime"] = { enabled: true };
    config.plugins["gone"] = { enabled: false };
    await writeFile(world.paths.configFile, JSON.stringify(config));
    const loaded = await plugins.loadHostModules();
    expect(loaded.loaded).toEqual(["fine"]);
    expect(loaded.refused.map((refusal) => [refusal.plugin, refusal.error.code])).toEqual([
      ["broken", "PLUGIN_MANIFEST_INVALID"],
      ["fime", "PLUGIN_NOT_FOUND"],
    ]);
    expect(loaded.refused[1]?.error.message).toMatch(/config\.json enables plugin "fime", but there is no plugin of that name; did you mean "fine"\? Fix the name or remove plugins\.fime/);
  });

  it("refuses a registration that declares a module its manifest does not, before creating anything", async () => {
    const dir = join(world.paths.userPluginsDir, "greedy");
    await writeFiles(dir, simpleUserPlugin("greedy"));
    const entry = join(dir, "index.mjs");
    await writeFile(entry, (await readFile(entry, "utf8")).replace(`declaredModules: ["greedy"]`, `declaredModules: ["greedy", "shell"]`).replace("createHostFunctions() {", "createHostFunctions() { throw new Error('must not run');"));
    const plugins = manager();
    await plugins.approve("greedy");
    await plugins.enable("greedy");
    const { refused } = await plugins.loadHostModules();
    expect(refused.map((refusal) => refusal.error.code)).toEqual(["PLUGIN_UNDECLARED_MODULE"]);
    expect(refused[0]?.error.message).toContain(`"shell"`);
  });

  it("refuses a second plugin that provides a module already loaded", async () => {
    const user = world.paths.userPluginsDir;
    const shared = [{ name: "shared", description: "x", functions: { hello: "Says hello." } }];
    for (const name of ["first", "second"]) {
      const files = simpleUserPlugin(name, `{ shared: { hello: () => "${name}" } }`);
      await writeFiles(join(user, name), {
        "plugin.json": manifestText(name, { hostModules: shared }),
        "index.mjs": files["index.mjs"]!.replace(`declaredModules: ["${name}"]`, `declaredModules: ["shared"]`),
      });
    }
    const plugins = manager();
    for (const name of ["first", "second"]) {
      await plugins.approve(name);
      await plugins.enable(name);
    }
    const loaded = await plugins.loadHostModules();
    expect(await callHostFunction(loaded.modules, "shared", "hello")).toBe("first");
    expect(loaded.refused.map((refusal) => [refusal.plugin, refusal.error.code])).toEqual([["second", "PLUGIN_MODULE_CONFLICT"]]);
  });

  it("accepts lazy modules under a declared prefix and checks their functions when they load", async () => {
    const dir = join(world.paths.userPluginsDir, "svc");
    const files = simpleUserPlugin(
      "svc",
      `{ "svc-a": { lazy: true, load: async () => ({ hello: () => "lazy a" }) }, "svc-b": { lazy: true, load: async () => ({ hello: () => 1, exec: () => 2 }) } }`,
    );
    await writeFiles(dir, {
      "plugin.json": manifestText("svc", {
        hostModules: [{ name: "svc-b", description: "x", functions: { hello: "Says hello." } }],
        modulePrefixes: ["svc-"],
      }),
      "index.mjs": files["index.mjs"]!.replace(`declaredModules: ["svc"]`, `declaredModules: [], declaredModulePrefixes: ["svc-"]`),
    });
    const plugins = manager();
    await plugins.approve("svc");
    await plugins.enable("svc");
    const loaded = await plugins.loadHostModules();
    expect(loaded.refused).toEqual([]);
    expect(await callHostFunction(loaded.modules, "svc-a", "hello")).toBe("lazy a");
    const error = await caught(callHostFunction(loaded.modules, "svc-b", "hello"));
    expect(error.code).toBe("PLUGIN_UNDECLARED_FUNCTION");
    expect(error.message).toContain("svc-b.exec");
  });

  it("refuses an entry whose default export is not a registration", async () => {
    await writeFiles(join(world.paths.userPluginsDir, "odd"), { ...simpleUserPlugin("odd"), "index.mjs": `export default { name: "odd" };\n` });
    const plugins = manager();
    await plugins.approve("odd");
    await plugins.enable("odd");
    const { refused } = await plugins.loadHostModules();
    expect(refused[0]?.error.code).toBe("PLUGIN_REGISTRATION_INVALID");
    expect(refused[0]?.error.message).toContain("createHostFunctions");
  });

  it("loads a built native plugin from dist/plugins/<name>/ when running compiled", async () => {
    await installEcho(world);
    await writeFiles(join(world.packageRoot, "dist", "plugins", "echo"), {
      "index.js": `import { greet } from "./greeting.js";
const configSchema = { safeParse: (value) => ({ success: true, data: value }) };
export default { name: "echo", declaredModules: ["echo"], configSchema, createHostFunctions: () => ({ echo: { say: (args) => greet("built", String(args[0]), 1) } }) };
`,
      "greeting.js": `export const greet = (greeting, name) => greeting + ", " + name;\n`,
    });
    const plugins = manager({ compiled: true });
    await plugins.approve("echo");
    await plugins.enable("echo");
    const info = await plugins.info("echo");
    expect(info.audit.files.map((file) => file.path)).toEqual(["greeting.js", "index.js"]);
    const loaded = await plugins.loadHostModules();
    expect(imported).toEqual([pathToFileURL(join(world.packageRoot, "dist", "plugins", "echo", "index.js")).href]);
    expect(await callHostFunction(loaded.modules, "echo", "say", "ann")).toBe("built, ann");
  });
});
