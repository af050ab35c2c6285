import { resolve } from "node:path";
import { z } from "zod";
import { auditLaunchEnv } from "../../mcp/approval/index.js";
import { addMcpServer, checkServerArgument, DEFAULT_NATIVE_PLUGIN_NAMES, importMcpServers, mcpOffWarning, parseImportText, readImportFile, removeMcpServer, setMcpServerEnabled } from "../../mcp/config/index.js";
import { KNOWN_SERVERS } from "../../mcp/known-servers.js";
import { enabledIn } from "../../plugin-system/plan.js";
import type { McpServerEntry } from "../../mcp/config/index.js";
import type { ServerSummary } from "../../mcp/service/index.js";
import { describeLogin } from "../../terminal/render/login.js";
import { maskedEntry } from "../../terminal/render/mcp.js";
import { errorMessage } from "../../util/errors.js";
import { addArguments, addFormSchema } from "../add-form.js";
import type { UiBridge } from "../bridge.js";
import { UiError } from "../errors.js";
import type { HostState } from "../host-state.js";
import { parseBody } from "./body.js";
import type { Router } from "./router.js";

const MCP_STORE = { nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES };

const importSchema = z
  .object({
    /** A path on this machine (relative to where `mcpvm ui` was started), or… */
    path: z.string().optional(),
    /** …the text of an uploaded file, with its file name (the format is detected from both). */
    text: z.string().optional(),
    fileName: z.string().optional(),
    only: z.array(z.string()).optional(),
    overwrite: z.boolean().optional(),
    dryRun: z.boolean().optional(),
  })
  .strict();

/**
 * Whether the page offers "Log in" for a server, and its stored login in the CLI's words. Only
 * http/sse servers without their own Authorization header can log in (a fixed header is used as
 * given); the button is shown for those with an `oauth` block, a stored login, or a server that
 * answered "needs login".
 */
function loginFacts(summary: ServerSummary, entry: McpServerEntry, now: number): { loginOffered: boolean; loginLine?: string } {
  const remote = entry.type !== "stdio" && !Object.keys(entry.headers ?? {}).some((name) => name.toLowerCase() === "authorization");
  const stored = summary.login !== undefined && summary.login.state !== "none";
  const loginOffered = remote && (entry.oauth !== undefined || stored || summary.state === "needs-login");
  return { loginOffered, ...(loginOffered && summary.login !== undefined ? { loginLine: describeLogin(summary.name, summary.login, now) } : {}) };
}

/** Servers page: the state of every server, its definition and tools, and the CLI's add/import/enable/disable/remove. */
export function serverRoutes(router: Router, state: HostState, bridge: UiBridge, cwd: string): void {
  router.get("/api/state", async () => {
    const host = await state.fresh();
    try {
      const service = await host.requireMcp();
      const now = Date.now();
      const servers = (await service.summaries()).map((summary) => ({ ...summary, ...loginFacts(summary, service.entry(summary.name), now) }));
      return { configFile: host.paths.configFile, servers };
    } catch (error) {
      // MCP off (plugin not enabled): the page says why and what to run, like `mcpvm mcp list`.
      return { configFile: host.paths.configFile, servers: [], mcpOff: errorMessage(error) };
    }
  });

  router.get("/api/catalog", async () => ({
    servers: KNOWN_SERVERS.map((s) => ({
      name: s.name,
      description: s.description,
      transport: s.transport,
      requiredEnv: s.requiredEnv,
      takesDir: s.args.some((arg) => arg.includes("{dir}")),
      archived: s.archived === true,
    })),
  }));

  router.get("/api/servers/:name", async ({ params }) => {
    const service = await state.service();
    const name = params.name as string;
    const entry = service.entry(name);
    const summary = (await service.summaries()).find((s) => s.name === name);
    return {
      name,
      summary,
      definition: maskedEntry(entry),
      approvalPrompt: await service.approvalPrompt(name),
      launchFindings: auditLaunchEnv(entry.env),
    };
  });

  /** Connects (an approved, enabled server only: the service refuses anything else) and lists tools with signatures. */
  router.get("/api/servers/:name/tools", async ({ params }) => {
    const service = await state.service();
    const catalog = await service.catalog(params.name as string);
    return {
      server: catalog.server,
      module: `host:${catalog.module}`,
      tools: catalog.tools.map((tool) => ({ name: tool.originalName, jsName: tool.jsName, description: tool.description, signature: catalog.signature(tool) })),
      held: catalog.held.map((h) => ({ name: h.name, reason: h.reason })),
      declarations: await catalog.declarations(),
    };
  });

  for (const action of ["enable", "disable"] as const) {
    router.post(`/api/servers/:name/${action}`, async ({ params }) => {
      const host = await state.fresh();
      await setMcpServerEnabled(host.paths.configFile, params.name as string, action === "enable", MCP_STORE);
      await state.reloaded();
      return { [`${action}d`]: params.name };
    });
  }

  router.post("/api/servers/:name/remove", async ({ params }) => {
    const name = params.name as string;
    const host = await state.fresh();
    const service = await host.requireMcp();
    await removeMcpServer(host.paths.configFile, name, MCP_STORE);
    await service.revoke(name);
    await state.reloaded();
    return { removed: name };
  });

  /** Reconnects and lists again: how the page finds out that a running server changed its tools. */
  router.post("/api/servers/:name/recheck", async ({ params }) => {
    const service = await state.service();
    const name = params.name as string;
    service.entry(name);
    if (service.clients.serverNames().includes(name)) {
      await service.clients.close(name);
      // A person asked for this start: not a crash loop, so earlier failures do not stop it (MCP_RECONNECT_LIMIT).
      service.clients.forgetFailures(name);
    }
    const catalog = await service.catalog(name);
    return { tools: catalog.tools.length, held: catalog.held.length };
  });

  router.post("/api/servers", async ({ body }) => {
    const form = parseBody(addFormSchema, body, "the add-server form");
    const host = await state.fresh();
    const built = bridge.buildAddEntry(addArguments(form), cwd, host.paths.home);
    checkServerArgument(built.name, built.entry, DEFAULT_NATIVE_PLUGIN_NAMES);
    const saved = await addMcpServer(host.paths.configFile, built.name, built.entry, { ...MCP_STORE, overwrite: form.overwrite === true });
    await state.reloaded();
    // As `mcp add` says on stderr: added anyway (it may be installed later), but said now, not at the first call.
    const missing = await bridge.missingCommandWarning(built.name, built.entry, host.env, host.paths.home);
    // As `mcp add`: a home whose mcp plugin is off starts no server, so the page says so with what to run, not "approve it".
    const mcpOff = enabledIn(host.config)("mcp") ? {} : { mcpOff: mcpOffWarning((words) => `mcpvm ${words}`) };
    return { added: built.name, entry: maskedEntry(saved), notes: missing === undefined ? built.notes : [...built.notes, missing], ...mcpOff };
  });

  router.post("/api/import", async ({ body }) => {
    const request = parseBody(importSchema, body, "the import form");
    const options = { ...MCP_STORE, ...(request.only === undefined || request.only.length === 0 ? {} : { only: request.only }) };
    const given = request.text !== undefined ? "upload" : request.path !== undefined && request.path.trim() !== "" ? "path" : undefined;
    if (given === undefined) throw new UiError("UI_BAD_REQUEST", "Give a file path or choose a file to upload.");
    const typedPath = given === "upload" ? (request.fileName ?? "uploaded.json") : (request.path as string);
    const report = given === "upload" ? parseImportText(typedPath, request.text as string, options) : await readImportFile(resolve(cwd, typedPath), options);
    if (report.unmatchedOnly.length > 0) {
      throw new UiError("UI_BAD_REQUEST", `No server ${report.unmatchedOnly.map((n) => `"${n}"`).join(", ")} in ${typedPath}. The file has: ${report.selectableNames.join(", ") || "no servers"}. Nothing was written.`);
    }
    const host = await state.fresh();
    const dryRun = request.dryRun === true;
    const merged = await importMcpServers(host.paths.configFile, report, { ...MCP_STORE, overwrite: request.overwrite === true, dryRun });
    if (!dryRun && merged.added.length + merged.overwritten.length > 0) await state.reloaded();
    return bridge.importJson({ report, merged, dryRun, typedPath });
  });
}
