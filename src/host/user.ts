import { userInfo } from "node:os";

/** Who is acting, as the audit log records it: the OS account (a uid without a passwd entry by number). */
export function currentUserName(env: Readonly<Record<string, string | undefined>>): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? (typeof process.getuid === "function" ? String(process.getuid()) : "unknown");
  }
}
