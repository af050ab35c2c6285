/**
 * Where a package runner's arguments name the package (`npx -y pkg@1`, `npx -p pkg cmd`,
 * `npx --package=pkg cmd`, `npx -- pkg`), read by the pin at approval and rewritten at launch so
 * the runner fetches exactly the approved version, never a newer one it finds on the registry.
 */
export interface PackageSpecAt {
  /** `@scope/name@range` as written. */
  readonly spec: string;
  /** Index of the argument holding it. */
  readonly index: number;
  /** What precedes the spec inside that argument (`--package=`), else "". */
  readonly prefix: string;
}

/** A runner's flags: those that name the package (npx's -p), and those that take some other value. */
export interface RunnerFlags {
  readonly packageFlags: readonly string[];
  readonly valueFlags: readonly string[];
}

export const NPX_FLAGS: RunnerFlags = { packageFlags: ["-p", "--package"], valueFlags: ["--call", "-c", "--cache", "--registry", "--userconfig"] };
/** uvx names its package with --from (read apart); its -p is the Python version. */
export const UVX_FLAGS: RunnerFlags = { packageFlags: [], valueFlags: ["--with", "--python", "-p", "--index-url", "--index"] };

/** The package spec a runner runs: the value of a package flag, else the first argument that is not a flag. */
export function findPackageSpec(args: readonly string[], flags: RunnerFlags): PackageSpecAt | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") return args[i + 1] === undefined ? undefined : { spec: args[i + 1] as string, index: i + 1, prefix: "" };
    for (const flag of flags.packageFlags) {
      if (flag.startsWith("--") && arg.startsWith(`${flag}=`) && arg.length > flag.length + 1) return { spec: arg.slice(flag.length + 1), index: i, prefix: `${flag}=` };
    }
    if (flags.packageFlags.includes(arg)) return args[i + 1] === undefined ? undefined : { spec: args[i + 1] as string, index: i + 1, prefix: "" };
    if (flags.valueFlags.includes(arg)) {
      i++;
      continue;
    }
    if (!arg.startsWith("-")) return { spec: arg, index: i, prefix: "" };
  }
  return undefined;
}

/** `@scope/name@range` → name and range. */
export function splitNpmSpec(spec: string): { name: string; range: string | undefined } {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
  return at === -1 ? { name: spec, range: undefined } : { name: spec.slice(0, at), range: spec.slice(at + 1) };
}

export const EXACT_VERSION = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** A registry package name (`name`, `@scope/name`): not a path, a URL, a git or tarball spec, which no version pins. */
const REGISTRY_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i;

/**
 * The npx arguments with the package spec replaced by `name@version`; undefined when there is nothing
 * to pin (no spec, another package, a version already exact, a spec that is not a registry package).
 */
export function pinNpxSpec(args: readonly string[], name: string, version: string): readonly string[] | undefined {
  const at = findPackageSpec(args, NPX_FLAGS);
  if (at === undefined) return undefined;
  const written = splitNpmSpec(at.spec);
  if (written.name !== name || !REGISTRY_NAME.test(name) || !EXACT_VERSION.test(version)) return undefined;
  if (written.range !== undefined && EXACT_VERSION.test(written.range)) return undefined;
  const pinned = [...args];
  pinned[at.index] = `${at.prefix}${name}@${version}`;
  return pinned;
}
