import { spawn } from "node:child_process";

/**
 * How to open the dashboard: `$BROWSER` (the convention of xdg-utils and git: a command, `%s`
 * standing for the URL, else the URL appended; the first of a colon-separated list), else the
 * platform's opener. Pure, so the choice is tested without opening anything.
 */
export function browserCommand(url: string, env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform): { command: string; args: string[] } {
  const browser = env.BROWSER?.split(":")[0]?.trim();
  if (browser !== undefined && browser !== "") {
    const words = browser.split(/\s+/);
    const [command = "", ...rest] = words;
    return rest.some((w) => w.includes("%s")) ? { command, args: rest.map((w) => w.replaceAll("%s", url)) } : { command, args: [...rest, url] };
  }
  if (platform === "darwin") return { command: "open", args: [url] };
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", '""', url] };
  return { command: "xdg-open", args: [url] };
}

/** Starts the opener detached; resolves false (never throws) when it cannot be started, so the printed URL is the fallback. */
export function openBrowser(url: string, env: Readonly<Record<string, string | undefined>>): Promise<boolean> {
  const { command, args } = browserCommand(url, env, process.platform);
  return new Promise((resolve) => {
    try {
      const child = spawn(command, args, { detached: true, stdio: "ignore", env: { ...process.env, ...env } as NodeJS.ProcessEnv });
      child.once("error", () => resolve(false));
      child.once("spawn", () => {
        child.unref();
        resolve(true);
      });
    } catch {
      resolve(false);
    }
  });
}
