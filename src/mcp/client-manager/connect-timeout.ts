/**
 * Connect timeouts. A server started through a package runner (`npx -y pkg`, `uvx pkg`, `docker run
 * image`) downloads itself on its first start, which takes far longer than a normal start-up (45 s
 * for a cold `npx -y @modelcontextprotocol/server-memory` was measured), so those commands get a
 * longer default. An explicit `connectTimeoutMs` always wins.
 */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
export const PACKAGE_RUNNER_CONNECT_TIMEOUT_MS = 60_000;

const RUNNERS = new Set(["npx", "uvx", "bunx", "pnpx"]);
/** `<tool> <sub>` pairs that fetch before they run. */
const RUNNER_SUBCOMMANDS: Readonly<Record<string, readonly string[]>> = {
  pnpm: ["dlx"],
  yarn: ["dlx"],
  npm: ["exec"],
  bun: ["x"],
  pipx: ["run"],
  uv: ["run", "tool"],
  docker: ["run"],
  podman: ["run"],
  deno: ["run"],
};

function baseName(command: string): string {
  const last = command.split(/[\\/]/).pop() ?? command;
  return last.replace(/\.(cmd|exe|bat|ps1)$/i, "").toLowerCase();
}

/**
 * The package runner a stdio command goes through ("npx", "pnpm dlx", "docker run"), or undefined
 * for a command that runs something already on this machine.
 */
export function packageRunner(command: string | undefined, args: readonly string[] = []): string | undefined {
  if (command === undefined) return undefined;
  const base = baseName(command);
  if (RUNNERS.has(base)) return base;
  const sub = args[0];
  if (sub !== undefined && RUNNER_SUBCOMMANDS[base]?.includes(sub) === true) return `${base} ${sub}`;
  return undefined;
}

/** The connect timeout of a server whose entry sets none. */
export function defaultConnectTimeoutMs(entry: { readonly type?: string; readonly command?: string | undefined; readonly args?: readonly string[] | undefined }): number {
  if (entry.type !== undefined && entry.type !== "stdio") return DEFAULT_CONNECT_TIMEOUT_MS;
  return packageRunner(entry.command, entry.args ?? []) === undefined ? DEFAULT_CONNECT_TIMEOUT_MS : PACKAGE_RUNNER_CONNECT_TIMEOUT_MS;
}
