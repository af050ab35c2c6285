import { homedir, tmpdir } from "node:os";

/**
 * Errors that reach the guest or the model must not reveal where things live on the host (user
 * name, project layout). Known roots are replaced by placeholders, longest first so the most
 * specific one wins; any other absolute path keeps only its last component.
 */
export function createHostPathStripper(roots: Readonly<Record<string, string>> = defaultRoots()): (text: string) => string {
  const entries = Object.entries(roots)
    .filter(([, path]) => path.length > 1)
    .sort(([, a], [, b]) => b.length - a.length);
  return (text: string) => {
    let out = text;
    for (const [label, path] of entries) out = out.split(path).join(label);
    // Any remaining absolute POSIX or Windows path: keep the file name only.
    return out.replace(/(?<![\w.<>~:/-])(?:\/(?:[\w.@+-]+\/)+|[A-Za-z]:\\(?:[^\\\s"']+\\)+)([\w.@+-]+)/g, "…/$1");
  };
}

function defaultRoots(): Record<string, string> {
  return { "<cwd>": process.cwd(), "<tmp>": tmpdir(), "~": homedir() };
}
