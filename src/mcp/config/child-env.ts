/**
 * The environment of a stdio MCP server: a short allowlist of the host's variables (enough to
 * find executables, a home, a temp dir, a locale and a terminal) plus the server's configured
 * env. Tokens, cloud credentials and the like in the host's environment never reach a server
 * unless its config names them (`"env": { "GITHUB_TOKEN": "${GITHUB_TOKEN}" }`).
 */
export const INHERITED_ENV_NAMES: readonly string[] = [
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "TZ", "TMPDIR", "TEMP", "TMP",
  // TLS trust paths, not secrets: without them `npx`-launched servers fail behind a TLS-inspecting
  // proxy. The rest of NODE_* is not inherited: NODE_OPTIONS can --require arbitrary code, and
  // mcpvm's own Node settings (inspector, loaders) are not the server's business.
  "NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR",
];

/** What Windows needs to start processes and locate the profile; names compared case-insensitively. */
export const INHERITED_WINDOWS_ENV_NAMES: readonly string[] = [
  "SystemRoot", "SystemDrive", "windir", "ComSpec", "PATHEXT", "USERPROFILE", "USERNAME", "USERDOMAIN",
  "HOMEDRIVE", "HOMEPATH", "APPDATA", "LOCALAPPDATA", "ProgramData", "ProgramFiles", "ProgramFiles(x86)",
  "ProgramW6432", "CommonProgramFiles", "PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS", "OS",
];

const LOCALE = /^LC_[A-Z]+$/;

/** Whether a host variable reaches stdio children without being configured. */
export function isInheritedEnvName(name: string, platform: NodeJS.Platform): boolean {
  if (LOCALE.test(name)) return true;
  if (platform !== "win32") return INHERITED_ENV_NAMES.includes(name);
  const upper = name.toUpperCase();
  return [...INHERITED_ENV_NAMES, ...INHERITED_WINDOWS_ENV_NAMES].some((allowed) => allowed.toUpperCase() === upper);
}

/**
 * @param hostEnv the mcpvm process environment (passed in, never read here)
 * @param configuredEnv the server's env after `${VAR}` substitution; it wins over inherited values
 * @param platform decides whether names compare case-insensitively (Windows)
 */
export function buildChildEnv(
  hostEnv: Readonly<Record<string, string | undefined>>,
  configuredEnv: Readonly<Record<string, string>>,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  // Object.fromEntries defines own properties, so even a "__proto__" name cannot touch a prototype.
  const out: [string, string][] = [];
  const configured = new Set(Object.keys(configuredEnv).map((name) => (platform === "win32" ? name.toUpperCase() : name)));
  for (const [name, value] of Object.entries(hostEnv)) {
    if (value === undefined || !isInheritedEnvName(name, platform)) continue;
    if (configured.has(platform === "win32" ? name.toUpperCase() : name)) continue;
    // Exported bash functions ("() { …") are code, and were the Shellshock vector.
    if (value.startsWith("()")) continue;
    out.push([name, value]);
  }
  out.push(...Object.entries(configuredEnv));
  return Object.fromEntries(out);
}
