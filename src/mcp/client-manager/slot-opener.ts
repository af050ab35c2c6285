import type { Implementation, Tool } from "@modelcontextprotocol/client";
import { McpOAuthError } from "../oauth/errors.js";
import type { McpServerLaunch } from "../types.js";
import { waitForRoom } from "./capacity.js";
import { defaultChildEnv } from "./child-env.js";
import { currentCall, resolveOrigin, type InFlightCall } from "./call-origin.js";
import type { ServerRequestHooks } from "./server-requests.js";
// The connection (and with it the MCP client SDK) is loaded on the first connect: a run that calls no
// server never loads the SDK (docs/ARCHITECTURE.md, "How the CLI is built and loaded").
import type { Connection, ConnectionDeps } from "./connection.js";
import { closedError, foreignError, retiredError } from "./manager-errors.js";
import type { ClientManagerEvent } from "./events.js";
import type { ClientManagerLimits, ClientManagerOptions } from "./options.js";
import type { ServerSlot } from "./slot.js";

const DEFAULT_CLIENT_INFO: Implementation = { name: "mcpvm", version: "0.1.0" };
const STDERR_TAIL_LINES = 10;

/** What opening a server's connection needs of the ClientManager that owns the slot. */
export interface SlotOpenerDeps {
  readonly options: ClientManagerOptions;
  readonly limits: ClientManagerLimits;
  readonly now: () => number;
  readonly inFlight: ReadonlySet<InFlightCall>;
  readonly emit: (event: ClientManagerEvent) => void;
  readonly slots: () => ServerSlot[];
  readonly isClosed: () => boolean;
  /** Read at each connect: the hooks and the protocol generation apply from a server's next connect. */
  readonly serverRequests: () => ServerRequestHooks | undefined;
  readonly protocol: () => "legacy" | "auto";
}

/**
 * One connect of a slot, start to finish: resolve its launch, the beforeConnect hook (approval), room
 * under the live-connection cap, the connection itself, onToolsListed; a failure counts toward the
 * reconnect limit only when the server itself failed.
 */
export async function openSlot(deps: SlotOpenerDeps, slot: ServerSlot): Promise<Connection> {
  const abort = new AbortController();
  slot.connectAbort = abort;
  slot.clearIdleTimer();
  slot.setState("connecting");
  let countsAsFailure = false;
  try {
    const launch = await resolveLaunch(slot);
    slot.useLaunch(launch);
    await beforeConnect(deps, slot, launch);
    await waitForRoom(deps.slots, slot, deps.limits.maxLiveConnections, abort.signal);
    if (abort.signal.aborted) throw closedError(slot.name, deps.isClosed());
    countsAsFailure = true;
    const { Connection } = await import("./connection.js");
    const connection = await Connection.open(slot.name, launch, connectionDeps(deps, slot), {
      timeoutMs: launch.limits.connectTimeoutMs,
      signal: abort.signal,
    });
    countsAsFailure = false;
    const tools = await expose(deps, slot, connection).catch(async (error: unknown) => {
      await connection.close();
      throw error;
    });
    if (abort.signal.aborted) {
      await connection.close();
      throw closedError(slot.name, deps.isClosed());
    }
    slot.connection = connection;
    slot.connectedAt = deps.now();
    slot.tools = tools;
    slot.lastUsed = deps.now();
    slot.setState("connected");
    deps.emit({ type: "tools", server: slot.name, tools, reason: "connect" });
    slot.scheduleIdle(deps.limits.idleTimeoutMs);
    return connection;
  } catch (error) {
    const failure = abort.signal.aborted ? closedError(slot.name, deps.isClosed()) : foreignError(slot.name, slot.redact, error, "MCP_CONNECT_FAILED");
    // A server waiting for a login is not broken: `mcpvm mcp login` in another terminal fixes it for the next call.
    if (countsAsFailure && !abort.signal.aborted && !(failure instanceof McpOAuthError)) slot.failures += 1;
    // Ctrl-C at a question it asked on the way (an ${input:…} value) stopped it: not a broken server.
    const stoppedByPerson = failure.code === "CANCELLED";
    slot.setState(abort.signal.aborted || stoppedByPerson ? "closed" : "error", stoppedByPerson ? undefined : failure);
    throw failure;
  } finally {
    // Connected (live by its connection) or failed: either way the place it held while opening is given back.
    slot.admitted = false;
  }
}

async function resolveLaunch(slot: ServerSlot): Promise<McpServerLaunch> {
  try {
    return await slot.resolver();
  } catch (error) {
    throw foreignError(slot.name, slot.redact, error, "MCP_LAUNCH_FAILED");
  }
}

async function beforeConnect(deps: SlotOpenerDeps, slot: ServerSlot, launch: McpServerLaunch): Promise<void> {
  const hook = deps.options.hooks?.beforeConnect ?? (async () => undefined);
  try {
    await hook(launch);
  } catch (error) {
    throw foreignError(slot.name, slot.redact, error, "MCP_CONNECT_REFUSED");
  }
}

async function expose(deps: SlotOpenerDeps, slot: ServerSlot, connection: Connection): Promise<readonly Tool[]> {
  // Retired while connecting (config.json removed or changed it): its listing would be taken for the new definition's.
  if (slot.retired) throw retiredError(slot.name);
  const hook = deps.options.hooks?.onToolsListed ?? (async (_name: string, tools: readonly Tool[]) => tools);
  return hook(slot.name, connection.tools, connection.identity);
}

function connectionDeps(deps: SlotOpenerDeps, slot: ServerSlot): ConnectionDeps {
  const { options, limits } = deps;
  return {
    clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
    maxToolPages: limits.maxToolPages,
    childEnv: options.childEnv ?? defaultChildEnv,
    spawn: options.spawn,
    killGraceMs: limits.killGraceMs,
    redact: slot.redact,
    onStderr: (chunk) => slot.stderr.write(chunk, slot.redact),
    onStderrEnd: () => slot.stderr.flush(slot.redact),
    stderrTail: () => slot.stderr.tail(STDERR_TAIL_LINES),
    onDied: (connection) => slot.markDead(connection, deps.now()),
    onToolListChanged: (connection) => refreshSlotTools(deps, slot, connection),
    onPhase: (phase, ms, detail) => deps.emit({ type: "timing", server: slot.name, phase, ms, detail }),
    emit: deps.emit,
    maxNotificationsPerSecond: limits.maxNotificationsPerSecond,
    serverRequests: deps.serverRequests(),
    resolveOrigin: () => resolveOrigin(slot.name, currentCall(), deps.inFlight),
    protocol: deps.protocol(),
    ...(options.configFile === undefined ? {} : { configFile: options.configFile }),
    ...(options.login === undefined ? {} : { login: options.login }),
  };
}

/** notifications/tools/list_changed: list again, run onToolsListed again, tell subscribers. */
function refreshSlotTools(deps: SlotOpenerDeps, slot: ServerSlot, connection: Connection): void {
  const previous = slot.relisting ?? Promise.resolve();
  const launch = slot.launch as McpServerLaunch;
  const run = previous.then(async () => {
    if (slot.connection !== connection) return;
    try {
      await connection.relist(launch.limits.connectTimeoutMs);
      const tools = await expose(deps, slot, connection);
      if (slot.connection !== connection) return;
      slot.tools = tools;
      deps.emit({ type: "tools", server: slot.name, tools, reason: "list_changed" });
    } catch (error) {
      deps.emit({ type: "toolsRefreshFailed", server: slot.name, error: foreignError(slot.name, slot.redact, error, "MCP_CONNECT_FAILED") });
    }
  });
  slot.relisting = run;
  void run.finally(() => {
    if (slot.relisting === run) slot.relisting = undefined;
  });
}
