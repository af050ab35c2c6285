import type { ChildProcess } from "node:child_process";

/** How the authorization URL reaches a browser: `$BROWSER`, the platform's opener, or nothing (print it). */
export interface BrowserOpener {
  /** What was used ("$BROWSER", "xdg-open", …), or undefined when nothing could be started. */
  open(url: string): Promise<string | undefined>;
}

function quote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** The platform's opener: open on macOS, xdg-open elsewhere on Unix, start on Windows. */
function platformOpener(platform: NodeJS.Platform): { command: string; args: (url: string) => string[] } | undefined {
  if (platform === "darwin") return { command: "open", args: (url) => [url] };
  if (platform === "win32") return { command: "cmd", args: (url) => ["/c", "start", '""', url.replaceAll("&", "^&")] };
  return { command: "xdg-open", args: (url) => [url] };
}

/** How long an opener may take to fail before it counts as having opened the page. */
const EARLY_FAILURE_MS = 1500;

/**
 * Whether the command opened something: it started, and did not exit with a failure at once.
 * xdg-open on a machine without a display (an SSH session, a server) starts fine, then exits 3
 * ("no method available"); taken as opened, the person was told a browser had been opened.
 * An opener that exits 0, or is still running after EARLY_FAILURE_MS (a browser in the
 * foreground), opened it.
 */
function started(child: ChildProcess): Promise<boolean> {
  return new Promise((resolve) => {
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      const timer = setTimeout(() => resolve(true), EARLY_FAILURE_MS);
      timer.unref();
      child.once("exit", (code) => {
        clearTimeout(timer);
        resolve(code === 0);
      });
    });
  });
}

/**
 * `$BROWSER` follows the usual convention: a list of commands separated by ":", each run with the
 * URL (in place of `%s`, else appended); the first that starts is used. The command runs in the
 * background, detached from mcpvm's terminal input.
 */
export function browserOpener(env: Readonly<Record<string, string | undefined>>, platform: NodeJS.Platform = process.platform): BrowserOpener {
  return {
    async open(url) {
      // Imported on the first login only: `mcpvm run` installs this opener before every run, and
      // node:child_process (with net and dgram under it) is ~2 ms of a start that never logs in.
      const { spawn } = await import("node:child_process");
      const configured = env.BROWSER?.trim();
      if (configured) {
        for (const command of configured.split(":").map((c) => c.trim()).filter((c) => c !== "")) {
          const line = command.includes("%s") ? command.replaceAll("%s", quote(url)) : `${command} ${quote(url)}`;
          const child = spawn(line, { shell: true, stdio: "ignore", detached: platform !== "win32" });
          if (await started(child)) {
            child.unref();
            return "$BROWSER";
          }
        }
        return undefined;
      }
      const opener = platformOpener(platform);
      if (opener === undefined) return undefined;
      const child = spawn(opener.command, opener.args(url), { stdio: "ignore", detached: platform !== "win32" });
      if (!(await started(child))) return undefined;
      child.unref();
      return opener.command;
    },
  };
}
