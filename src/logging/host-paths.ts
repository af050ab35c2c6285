import { tmpdir } from "node:os";
import { userHome } from "../util/user-home.js";

/**
 * Errors that reach the guest or the model must not reveal where things live on the host (user
 * name, project layout). Known roots are replaced by placeholders, longest first so the most
 * specific one wins; any other absolute path keeps only its last component. A root matches only as
 * whole path components: with the cwd at /tmp/ft, /tmp/ft-data/a.txt is not under it, and writing
 * it as <cwd>-data/a.txt would send the reader to the wrong folder.
 */
export function createHostPathStripper(roots: Readonly<Record<string, string>> = defaultRoots()): (text: string) => string {
  const entries = Object.entries(roots)
    .filter(([, path]) => path.length > 1)
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([label, path]) => [label, componentsOf(path)] as const);
  return (text: string) => {
    let out = text;
    for (const [label, pattern] of entries) out = out.replace(pattern, label);
    // Any remaining absolute POSIX or Windows path: keep the file name only.
    return out.replace(/(?<![\w.<>~:/-])(?:\/(?:[\w.@+-]+\/)+|[A-Za-z]:\\(?:[^\\\s"']+\\)+)([\w.@+-]+)/g, "…/$1");
  };
}

/** Where `root` begins and ends a path (no name character joined to either end; a trailing "." only as punctuation). */
function componentsOf(root: string): RegExp {
  const escaped = root.replace(/[\\/]+$/, "").replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(?<![\\w.@+-])${escaped}(?![\\w@+-]|\\.[\\w.@+-])`, "g");
}

function defaultRoots(): Record<string, string> {
  const home = userHome();
  return { "<cwd>": process.cwd(), "<tmp>": tmpdir(), ...(home === undefined ? {} : { "~": home }) };
}
