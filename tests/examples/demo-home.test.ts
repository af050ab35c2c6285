import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseDemoHome, DEMO_MARKER, demoHomeRefusal } from "../../src/cli/demo/demo-home.js";
import { embeddedDemoServers } from "../../src/cli/demo/embedded-config.js";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";
import { ROOT } from "../e2e/helpers.js";

/**
 * `mcpvm demo` never touches a real config home: its default home is a fresh mkdtemp folder
 * (removed at the end unless --keep), and `--home` refuses a folder holding anything but the
 * demo's own config.
 */

let scratch: string;
let tiny: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "mcpvm-demo-home-test-"));
  tiny = join(scratch, "tiny.js");
  await writeFile(tiny, "return 6 * 7;\n");
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function demo(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIo({ PATH: process.env.PATH, HOME: scratch }, "", scratch);
  const code = await runCli(["demo", ...args], io);
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

/** Every file under `dir` with its bytes, so "untouched" can be checked exactly. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path] = entry.isFile() ? (await readFile(path)).toString("base64") : "(dir)";
  }
  return out;
}

describe("choosing the demo home", () => {
  it("is a fresh private folder on every run, not a fixed, guessable path", async () => {
    const servers = (dir: string) => embeddedDemoServers(dir);
    const first = await chooseDemoHome(undefined, scratch, servers, scratch);
    const second = await chooseDemoHome(undefined, scratch, servers, scratch);
    expect(first.temporary).toBe(true);
    expect(second.temporary).toBe(true);
    expect(first.dir).not.toBe(second.dir);
    for (const home of [first, second]) {
      expect(home.dir.startsWith(join(scratch, "mcpvm-demo-"))).toBe(true);
      expect((await stat(home.dir)).mode & 0o777).toBe(0o700);
      expect(await readdir(home.dir)).toEqual([]);
    }
  });

  it("accepts a new or empty folder or an earlier demo's, and refuses any other", () => {
    const demoServers = embeddedDemoServers("/h");
    expect(demoHomeRefusal({ entries: [], hasMarker: false, servers: undefined }, demoServers)).toBeUndefined();
    expect(demoHomeRefusal({ entries: [DEMO_MARKER, "config.json"], hasMarker: true, servers: { memory: {} } }, demoServers)).toBeUndefined();
    // A demo home from before the marker existed: exactly the demo's servers.
    expect(demoHomeRefusal({ entries: ["config.json"], hasMarker: false, servers: structuredClone(demoServers) }, demoServers)).toBeUndefined();

    expect(demoHomeRefusal({ entries: [DEMO_MARKER, "config.json"], hasMarker: true, servers: { memory: {}, github: {} } }, demoServers)).toContain("(memory, github)");
    expect(demoHomeRefusal({ entries: ["config.json"], hasMarker: false, servers: { memory: { command: "node", args: ["mine.js"] } } }, demoServers)).toContain("files the demo did not make");
    expect(demoHomeRefusal({ entries: ["config.json"], hasMarker: false, servers: {} }, demoServers)).toContain("files the demo did not make (config.json)");
    expect(demoHomeRefusal({ entries: ["notes.txt"], hasMarker: false, servers: undefined }, demoServers)).toContain("files the demo did not make (notes.txt)");
    expect(demoHomeRefusal({ entries: ["config.json"], hasMarker: true, servers: "unreadable" }, demoServers)).toContain("cannot read");
  });
});

describe("mcpvm demo and the homes it uses", () => {
  it("refuses --home on a real config home with three servers (exit 3) and leaves every byte as it was", async () => {
    const home = join(scratch, "real-home");
    await mkdir(home);
    const config = {
      mcpServers: {
        github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } },
        memory: { command: "node", args: ["/opt/memory.js"] },
        notes: { type: "http", url: "https://notes.example/mcp" },
      },
    };
    await writeFile(join(home, "config.json"), `${JSON.stringify(config, null, 4)}\n`);
    await writeFile(join(home, "approved-mcp.json"), "{}\n");
    const before = await snapshot(home);

    const out = await demo(["--home", home, "--script", tiny]);
    expect(out.code).toBe(3);
    expect(out.stderr).toContain("CONFIG_DEMO_HOME_IN_USE");
    expect(out.stderr).toContain(`${home} is not a demo home`);
    expect(out.stderr).toContain("3 MCP servers (github, memory, notes)");
    expect(out.stderr).toContain("nothing was changed");
    expect(await snapshot(home)).toEqual(before);

    const aFile = join(home, "approved-mcp.json");
    const onFile = await demo(["--home", aFile, "--script", tiny]);
    expect(onFile.code).toBe(3);
    expect(onFile.stderr).toContain(`${aFile} is a file, not a folder`);
    expect(await snapshot(home)).toEqual(before);
  });

  it("removes its temporary home at the end; --keep keeps it (and says where), and a later --home run may reuse it", async () => {
    const kept = await demo(["--keep", "--script", tiny]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toBe("42\n");
    expect(kept.stderr).toContain("Next: `npx mcpvm --help`");
    const keptHome = /config home (\S+)/.exec(kept.stderr)?.[1];
    expect(keptHome).toBeDefined();
    expect(kept.stderr).toContain(`The demo home is kept at ${keptHome}`);
    expect(existsSync(join(keptHome!, DEMO_MARKER))).toBe(true);

    try {
      const again = await demo(["--home", keptHome!, "--script", tiny]);
      expect(again.code, again.stderr).toBe(0);
      expect(existsSync(keptHome!)).toBe(true); // a --home folder is never removed

      const removed = await demo(["--script", tiny]);
      expect(removed.code, removed.stderr).toBe(0);
      const removedHome = /config home (\S+)/.exec(removed.stderr)?.[1];
      expect(removedHome).toBeDefined();
      expect(removedHome).not.toBe(keptHome);
      expect(existsSync(removedHome!)).toBe(false);
      expect(removed.stderr).not.toContain("is kept at");
    } finally {
      await rm(keptHome!, { recursive: true, force: true });
    }
  }, 60_000);

  it("Ctrl-C during the tour (a real process): exit 130, and the temporary home is removed all the same", async () => {
    const tmp = await mkdtemp(join(scratch, "tmpdir-"));
    const forever = join(scratch, "forever.js");
    await writeFile(forever, "while (true) {}\n");
    const child = spawn(process.execPath, [join(ROOT, "node_modules", "vite-node", "vite-node.mjs"), join(ROOT, "tests", "e2e", "fixtures", "cli-entry.ts"), "--", "demo", "--script", forever], {
      cwd: scratch,
      // TMPDIR: os.tmpdir(), where the demo makes its home, is this test's own folder.
      env: { PATH: process.env.PATH ?? "", HOME: scratch, TMPDIR: tmp },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the tour did not start; stderr:\n${stderr}`)), 90_000);
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes(`running ${forever}`)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const home = /config home (\S+)/.exec(stderr)?.[1];
    expect(home?.startsWith(join(tmp, "mcpvm-demo-"))).toBe(true);
    expect(existsSync(home!)).toBe(true);
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    expect(existsSync(home!)).toBe(false);
    expect(await readdir(tmp)).toEqual([]);
  }, 120_000);
});
