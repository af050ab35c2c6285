import type { LoginStatus } from "../oauth/index.js";
import type { ApprovalStatus } from "../approval/index.js";
import type { ServerStatus } from "../client-manager/index.js";
import type { McpServerEntry } from "../config/index.js";
import type { McpPinStore } from "../pins/index.js";
import { errorMessage, isMcpvmError } from "../../util/errors.js";
import { definitionHash, type ServerStatusStore } from "./server-status.js";
import { inputIds, missingVariables, serverState, type ServerStateName } from "./server-state.js";

export interface ServerSummary {
  readonly name: string;
  readonly transport: McpServerEntry["type"];
  readonly enabled: boolean;
  readonly description: string | undefined;
  readonly approval: ApprovalStatus["state"] | "error";
  /** See ServerStateName: disabled, needs-approval, connecting, connected, held, failed, needs-variable, needs-input, idle, … */
  readonly state: ServerStateName;
  /** Why, in one line (the error of a failed start, the unset variables, …). */
  readonly detail: string | undefined;
  /** The command that fixes or moves it on. */
  readonly next: string | undefined;
  /** Trusted tools: this session's listing, else the last recorded connect, else the pins. */
  readonly toolCount: number | undefined;
  readonly heldCount: number | undefined;
  /** The last connect result recorded in server-status.json (any process), for this definition. */
  readonly lastConnect: { readonly result: "connected" | "failed"; readonly at: string; readonly error?: { readonly code: string; readonly message: string } } | undefined;
  readonly missingVariables: readonly string[];
  readonly inputs: readonly string[];
  /** The stored OAuth login of an http/sse server (state none when there is none). */
  readonly login?: LoginStatus;
  /** A state file this row needed (approvals, pins, logins) that is corrupt or cannot be read: `mcp list` fails with it (exit 3). */
  readonly stateError?: { readonly code: string; readonly message: string };
}

/** The first error of a state file (STORE_*) among `errors`, kept so a command can fail with it rather than show a row with a gap. */
function stateFileError(errors: readonly unknown[]): ServerSummary["stateError"] {
  const found = errors.find((error) => isMcpvmError(error) && error.code.startsWith("STORE_"));
  return isMcpvmError(found) ? { code: found.code, message: found.message } : undefined;
}

export interface SummarySources {
  readonly names: readonly string[];
  entry(name: string): McpServerEntry;
  approvalStatus(name: string): Promise<ApprovalStatus>;
  /** This process's connection state, for enabled servers it manages. */
  live(name: string): ServerStatus | undefined;
  /** Trusted/held counts of this process's catalog, when one is built. */
  catalog(name: string): Promise<{ tools: number; held: number } | undefined>;
  readonly pins: McpPinStore;
  readonly status: ServerStatusStore | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  answered(id: string): boolean;
  /** The stored OAuth login of an http/sse server. */
  login?(name: string): Promise<LoginStatus>;
}

/** Every server's state for `mcp list`, the REPL and the gateway's /health; starts nothing. */
export async function summarizeServers(sources: SummarySources): Promise<ServerSummary[]> {
  const recorded = sources.status === undefined ? {} : await sources.status.readAll();
  return Promise.all(
    sources.names.map(async (name) => {
      const entry = sources.entry(name);
      let approvalError: string | undefined;
      const failures: unknown[] = [];
      const approval = await sources.approvalStatus(name).then(
        (s) => s.state,
        (error: unknown) => {
          approvalError = errorMessage(error);
          failures.push(error);
          return "error" as const;
        },
      );
      const pinned = await sources.pins.get(name).then(
        (pins) => (pins === undefined ? undefined : Object.keys(pins.tools).length),
        (error: unknown) => void failures.push(error),
      );
      const record = recorded[name];
      const matching = record?.definition === definitionHash(entry) ? record : undefined;
      const inputs = inputIds(entry);
      const login = entry.type === "stdio" || sources.login === undefined ? undefined : await sources.login(name).catch((error: unknown) => void failures.push(error));
      const state = serverState({
        ...(login === undefined ? {} : { loggedIn: login.state !== "none" }),
        name,
        entry,
        approval,
        ...(approvalError === undefined ? {} : { approvalError }),
        live: sources.live(name),
        catalog: await sources.catalog(name),
        recorded: matching,
        pinnedTools: pinned,
        env: sources.env,
        answeredInputs: new Set(inputs.filter((id) => sources.answered(id))),
      });
      return {
        name,
        transport: entry.type,
        enabled: entry.enabled,
        description: entry.description,
        approval,
        state: state.state,
        detail: state.detail,
        next: state.next,
        toolCount: state.toolCount,
        heldCount: state.heldCount,
        lastConnect: matching === undefined ? undefined : { result: matching.result, at: matching.at, ...(matching.error === undefined ? {} : { error: matching.error }) },
        missingVariables: missingVariables(entry, sources.env),
        inputs,
        ...(login === undefined ? {} : { login }),
        ...(stateFileError(failures) === undefined ? {} : { stateError: stateFileError(failures) }),
      };
    }),
  );
}
