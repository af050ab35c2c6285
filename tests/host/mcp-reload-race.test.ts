import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditLog } from "../../src/audit-log/index.js";
import { loadConfigFile, type ConfigFile } from "../../src/config/config-file.js";
import { resolveConfigPaths } from "../../src/config/paths.js";
import { HostError, HostMcp } from "../../src/host/host-mcp.js";
import { ActivityLog } from "../../src/logging/activity-log.js";
import { silentLogger } from "../../src/logging/logger.js";
import { Redactor } from "../../src/logging/redact.js";
import type { McpService } from "../../src/mcp/service/index.js";
import { isLazyHostModule, type HostModules } from "../../src/sandbox/types.js";
import { fixtureServer, makeHome, readStarts, type E2eHome } from "../e2e/helpers.js";

/**
 * A reload (config or plugins changed) that lands while the MCP service is being built must not
 * leave a service behind that nobody owns, nor hand the old configuration's service to a run of the
 * new one. These cases drive HostMcp directly so the reload falls exactly inside the build: the
 * build yields while it loads the service's code, and `forget()` runs in that gap.
 */

let home: E2eHome;
let config: ConfigFile;

beforeAll(async () => {
  home = await makeHome({ servers: (dir) => ({ alpha: fixtureServer(join(dir, "alpha.starts")) }), approve: ["alpha"] });
  config = await loadConfigFile(resolveConfigPaths(home.env).configFile);
});

afterAll(async () => home?.cleanup());

interface Watched {
  readonly mcp: HostMcp;
  readonly prepared: McpService[];
  readonly told: McpService[];
}

function hostMcp(): Watched {
  const paths = resolveConfigPaths(home.env);
  const redactor = new Redactor();
  const prepared: McpService[] = [];
  const told: McpService[] = [];
  const mcp = new HostMcp({
    paths,
    env: home.env,
    configFile: () => config,
    validate: () => undefined,
    activity: { log: new ActivityLog(paths.activityFile, () => undefined), face: () => "cli" },
    audit: new AuditLog({ file: paths.auditLogFile, headFile: paths.auditHeadFile, user: "tester", face: "cli", redactor }),
    redactor,
    logger: silentLogger(),
    prepare: (service) => prepared.push(service),
  });
  mcp.onService((service) => told.push(service));
  return { mcp, prepared, told };
}

const pluginOptions = { confirmCall: () => Promise.resolve(true), scrubError: (text: string) => text };

function lazyLoad(modules: HostModules, name: string) {
  const module = modules[name];
  if (module === undefined || !isLazyHostModule(module)) throw new Error(`${name} is not a lazy module`);
  return module.load({ signal: new AbortController().signal, deadline: Date.now() + 30_000 });
}

async function rejection(promise: Promise<unknown> | undefined): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("a reload while the MCP service is being built", () => {
  it("the build in flight fails with MCP_RELOADED, and its service is given to nobody", async () => {
    const { mcp, prepared, told } = hostMcp();
    await mcp.modules({}, pluginOptions);
    const building = mcp.build();
    // The build is now waiting for the service's code; the reload falls into that gap.
    const forgotten = mcp.forget();
    const error = await rejection(building);
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).code).toBe("MCP_RELOADED");
    expect((error as HostError).message).toContain("run it again");
    // forget() hands back what was being built; here the build refused, so there is nothing to close.
    expect(await forgotten).toBeUndefined();
    expect(prepared).toEqual([]);
    expect(told).toEqual([]);
    expect(mcp.service()).toBeUndefined();
    // With the plugin unloaded there is no service to build until it loads again.
    expect(mcp.build()).toBeUndefined();
  });

  it("a module loader of the old load refuses with MCP_RELOADED, without building or starting anything", async () => {
    const { mcp, prepared } = hostMcp();
    const oldModules = await mcp.modules({}, pluginOptions);
    const startsBefore = readStarts(home.startsFile("alpha")).length;
    await mcp.forget();
    const error = await rejection(lazyLoad(oldModules, "mcp-alpha"));
    expect((error as HostError).code).toBe("MCP_RELOADED");
    expect(prepared).toEqual([]);
    expect(mcp.service()).toBeUndefined();
    expect(readStarts(home.startsFile("alpha")).length).toBe(startsBefore);
  });

  it("after the reload, the new load builds one working service, and the old load's loader still refuses", async () => {
    const { mcp, prepared, told } = hostMcp();
    const oldModules = await mcp.modules({}, pluginOptions);
    const first = mcp.build();
    void mcp.forget();
    expect(((await rejection(first)) as HostError).code).toBe("MCP_RELOADED");

    const newModules = await mcp.modules({}, pluginOptions);
    const loaded = await lazyLoad(newModules, "mcp-alpha");
    expect(Object.keys(loaded)).toContain("echo");
    const service = mcp.service();
    expect(service).toBeDefined();
    expect(prepared).toEqual([service]);
    expect(told).toEqual([service]);
    expect(((await rejection(lazyLoad(oldModules, "mcp-alpha"))) as HostError).code).toBe("MCP_RELOADED");
    // The reload after a finished build hands the service back for its owner to close.
    expect(await mcp.forget()).toBe(service);
    await service?.close();
  });
});
