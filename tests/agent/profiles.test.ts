import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { applyProfiles, availableProfiles, builtinProfiles, overrideEnv, ProfileError, profileSchema, restoreEnv, stackProfiles, type NamedProfile, type ProfileInput } from "../../src/agent/profiles/index.js";
import { McpvmHost } from "../../src/host/index.js";
import { tempHome } from "./repl-driver.js";

const named = (name: string, input: ProfileInput): NamedProfile => ({ name, source: "user", profile: profileSchema.parse(input) });

describe("stacking profiles", () => {
  it("takes the union of servers and plugins and the strictest limit of each kind", () => {
    const stacked = stackProfiles([
      named("a", { mcpServers: ["github"], plugins: ["fs-read"], limits: { wallMs: 60_000, cpuMs: 5_000 } }),
      named("b", { mcpServers: ["memory", "github"], limits: { wallMs: 20_000, memoryBytes: 128 * 1024 * 1024 } }),
    ]);
    expect(stacked.mcpServers).toEqual(["github", "memory"]);
    expect(stacked.plugins).toEqual(["fs-read", "mcp"]);
    expect(stacked.limits).toEqual({ wallMs: 20_000, cpuMs: 5_000, memoryBytes: 128 * 1024 * 1024 });
  });

  it("lets a profile with limitsMode override win over stricter ones, in either order", () => {
    const long = named("long", { limits: { wallMs: 600_000 }, limitsMode: "override" });
    const tight = named("tight", { limits: { wallMs: 5_000, cpuMs: 1_000 } });
    expect(stackProfiles([tight, long]).limits).toEqual({ wallMs: 600_000, cpuMs: 1_000 });
    expect(stackProfiles([long, tight]).limits).toEqual({ wallMs: 600_000, cpuMs: 1_000 });
  });

  it("leaves plugins alone when no profile lists any, and the default profile enables no server", () => {
    const stacked = stackProfiles(builtinProfiles().filter((p) => p.name === "default"));
    expect(stacked.plugins).toBeUndefined();
    expect(stacked.mcpServers).toEqual([]);
  });

  it("merges env overrides per server, later profiles winning", () => {
    const stacked = stackProfiles([named("a", { env: { gh: { A: "1", B: "1" } } }), named("b", { env: { gh: { B: "2" } } })]);
    expect(stacked.env).toEqual({ gh: { A: "1", B: "2" } });
  });

  it("puts a server's own env back before new overrides, unless it was edited by hand since", () => {
    const servers: Record<string, Record<string, unknown>> = { gh: { env: { TOKEN: "${GH}" } }, other: {} };
    const state = overrideEnv(servers, { gh: { GITHUB_HOST: "ghe.example" }, other: { X: "1" } });
    expect(servers.gh?.env).toEqual({ TOKEN: "${GH}", GITHUB_HOST: "ghe.example" });
    restoreEnv(servers, state);
    expect(servers).toEqual({ gh: { env: { TOKEN: "${GH}" } }, other: {} });
    const again = overrideEnv(servers, { gh: { GITHUB_HOST: "x" } });
    (servers.gh as { env: Record<string, string> }).env = { TOKEN: "edited" };
    restoreEnv(servers, again);
    expect(servers.gh?.env).toEqual({ TOKEN: "edited" });
  });
});

describe("applying profiles to a config home", () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it("writes server switches, env overrides, limits and activeProfiles, and undoes overrides on the next apply", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const config = {
      mcpServers: { memory: { command: "node", args: ["m.js"], env: { MEMORY_FILE_PATH: "/a" } }, other: { command: "node", args: ["o.js"] } },
      profiles: { notes: { description: "memory with a scratch file", mcpServers: ["memory"], env: { memory: { MEMORY_FILE_PATH: "/scratch" } }, limits: { wallMs: 15_000 } } },
    };
    await writeFile(join(home.dir, "config.json"), JSON.stringify(config));
    const host = await McpvmHost.open({ env: { MCPVM_HOME: home.dir } });
    try {
      const target = { configFile: host.paths.configFile, home: host.paths.home, plugins: host.plugins, reload: () => host.reload() };
      expect(availableProfiles(host.config, host.paths.configFile).map((p) => `${p.name}:${p.source}`)).toEqual(["default:built-in", "strict:built-in", "long-running:built-in", "notes:user"]);
      const report = await applyProfiles(target, ["notes", "strict"]);
      expect(report).toMatchObject({ active: ["notes", "strict"], enabledServers: ["memory"], disabledServers: ["other"], envOverrides: ["memory"], pluginsEnabled: [] });
      // strict lists plugins, and servers need the mcp plugin, so it is asked for; unapproved, it is reported, not enabled.
      expect(report.pluginsRefused.map((r) => `${r.plugin}:${r.code}`)).toEqual(["mcp:PLUGIN_NOT_APPROVED"]);
      expect(report.limits).toMatchObject({ wallMs: 10_000, cpuMs: 2_000 });
      let written = JSON.parse(await readFile(host.paths.configFile, "utf8"));
      expect(written.mcpServers.memory).toMatchObject({ enabled: true, env: { MEMORY_FILE_PATH: "/scratch" } });
      expect(written.mcpServers.other.enabled).toBe(false);
      expect(written.activeProfiles).toEqual(["notes", "strict"]);
      expect(host.limits().wallMs).toBe(10_000);

      await applyProfiles(target, ["default"]);
      written = JSON.parse(await readFile(host.paths.configFile, "utf8"));
      expect(written.mcpServers.memory).toMatchObject({ enabled: false, env: { MEMORY_FILE_PATH: "/a" } });
      expect(written.limits).toBeUndefined();
      expect(host.limits().wallMs).toBe(30_000);
    } finally {
      await host.close();
    }
  });

  it("refuses unknown profiles and unconfigured servers without writing anything", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    await writeFile(join(home.dir, "config.json"), JSON.stringify({ profiles: { bad: { mcpServers: ["ghost"] } } }));
    const host = await McpvmHost.open({ env: { MCPVM_HOME: home.dir } });
    try {
      const target = { configFile: host.paths.configFile, home: host.paths.home, plugins: host.plugins, reload: () => host.reload() };
      const codes = await Promise.all([applyProfiles(target, ["nope"]), applyProfiles(target, ["bad"]), applyProfiles(target, [])].map((p) => p.then(() => "ok", (e: ProfileError) => e.code)));
      expect(codes).toEqual(["PROFILE_UNKNOWN", "PROFILE_SERVER_UNKNOWN", "PROFILE_NONE_GIVEN"]);
      expect(JSON.parse(await readFile(host.paths.configFile, "utf8")).activeProfiles).toBeUndefined();
    } finally {
      await host.close();
    }
  });

  // An env override is written into mcpServers.<name>.env, where such a name makes config.json invalid
  // (exit 3 for every mcp command until edited by hand): the profile is refused when read instead.
  it("refuses a profile env name the server schema would refuse (control characters, '='), naming its JSON path, and writes nothing", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    const servers = { memory: { command: "node", args: ["m.js"] } };
    await writeFile(join(home.dir, "config.json"), JSON.stringify({ mcpServers: servers, profiles: { bad: { mcpServers: ["memory"], env: { memory: { "X\u001b[2K": "1" } } } } }));
    const host = await McpvmHost.open({ env: { MCPVM_HOME: home.dir } });
    try {
      const target = { configFile: host.paths.configFile, home: host.paths.home, plugins: host.plugins, reload: () => host.reload() };
      const error = await applyProfiles(target, ["bad"]).then(() => undefined, (caught: unknown) => caught);
      expect(error).toMatchObject({ code: "PROFILE_INVALID", message: expect.stringContaining('profiles.bad.env.memory["X\\u001b[2K"]') });
      expect(JSON.parse(await readFile(host.paths.configFile, "utf8")).mcpServers).toEqual(servers);
    } finally {
      await host.close();
    }
  });

  it("reports an invalid user profile with its JSON path", async () => {
    const home = await tempHome();
    cleanup = home.cleanup;
    await writeFile(join(home.dir, "config.json"), JSON.stringify({ profiles: { x: { mcpServer: ["typo"] } } }));
    const host = await McpvmHost.open({ env: { MCPVM_HOME: home.dir } });
    try {
      expect(() => availableProfiles(host.config, host.paths.configFile)).toThrow(/profiles\.x/);
    } finally {
      await host.close();
    }
  });
});
