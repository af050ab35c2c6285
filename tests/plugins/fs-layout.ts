import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A real directory tree for the fs plugins:
 *   base/            the jail (baseDir)
 *     hello.txt      "hello wörld" (12 bytes)
 *     sub/nested.txt "nested"
 *     link-inside    -> hello.txt
 *     dirlink-inside -> sub
 *     link-outside   -> ../outside/secret.txt
 *     dirlink-outside-> ../outside
 *     dangling       -> ../outside/missing.txt
 *   outside/secret.txt "top secret"
 */
export interface FsLayout {
  readonly root: string;
  readonly base: string;
  readonly outside: string;
  /** Host paths no error message may reveal. */
  readonly hidden: readonly string[];
  cleanup(): Promise<void>;
}

export async function createFsLayout(): Promise<FsLayout> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "mcpvm-fs-")));
  const base = join(root, "base");
  const outside = join(root, "outside");
  await mkdir(join(base, "sub"), { recursive: true });
  await mkdir(outside);
  await writeFile(join(base, "hello.txt"), "hello wörld");
  await writeFile(join(base, "sub", "nested.txt"), "nested");
  await writeFile(join(outside, "secret.txt"), "top secret");
  await symlink("hello.txt", join(base, "link-inside"));
  await symlink("sub", join(base, "dirlink-inside"));
  await symlink("../outside/secret.txt", join(base, "link-outside"));
  await symlink("../outside", join(base, "dirlink-outside"));
  await symlink("../outside/missing.txt", join(base, "dangling"));
  return { root, base, outside, hidden: [root, tmpdir()], cleanup: () => rm(root, { recursive: true, force: true }) };
}
