/** What to install when a well-known launcher is missing; shared by spawn errors and `mcpvm doctor`. */
const INSTALL_HINTS: Readonly<Record<string, string>> = {
  npx: "npx comes with npm: install Node.js (https://nodejs.org) and check that its bin folder is on PATH",
  npm: "install Node.js (https://nodejs.org), which brings npm",
  node: "install Node.js (https://nodejs.org) and check that it is on PATH",
  uvx: "uvx comes with uv: install it (https://docs.astral.sh/uv/getting-started/installation/) and open a new shell",
  uv: "install uv (https://docs.astral.sh/uv/getting-started/installation/)",
  python: "install Python 3, or point the command at your interpreter (python3?)",
  docker: "install Docker (https://docs.docker.com/get-docker/) and start it",
  podman: "install Podman (https://podman.io)",
  bunx: "bunx comes with Bun: install it (https://bun.sh)",
  pnpm: "install pnpm (https://pnpm.io/installation)",
  deno: "install Deno (https://deno.com)",
};

function baseName(command: string): string {
  return (command.split(/[\\/]/).pop() ?? command).replace(/\.(cmd|exe|bat)$/i, "").toLowerCase();
}

/**
 * The next step for a command that was not found; a generic PATH hint for others. `ownPath`: the
 * server's env sets its PATH, which is then the one searched (not the one mcpvm was started with).
 */
export function missingCommandHint(command: string, ownPath = false): string {
  const hint = INSTALL_HINTS[baseName(command)];
  if (hint !== undefined) return `${hint}.`;
  if (/[\\/]/.test(command)) return "Check that the file exists and is executable (a relative path is resolved from the server's `cwd`, else from the config home, where servers start).";
  return ownPath ? "Check the command name and that it is in a folder of the PATH the server's env sets." : "Check the command name and that it is on PATH (the PATH mcpvm was started with).";
}
