import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  AddonSetupError,
  extractAddonFiles,
  installAddonFromTarball,
  parseManifest,
  readTarEntries,
  sha256,
  type AddonManifest,
} from "../../deps/js-host-api/tarball.mjs";

/** A minimal ustar writer, so the tests build their own archives (names over 100 chars use a pax header). */
function tar(files: ReadonlyArray<{ name: string; data: Buffer | string }>): Buffer {
  const blocks: Buffer[] = [];
  const header = (name: string, size: number, type: string): Buffer => {
    const h = Buffer.alloc(512);
    h.write(name.slice(0, 100), 0, "utf8");
    h.write("0000644\0", 100);
    h.write("0000000\0", 108);
    h.write("0000000\0", 116);
    h.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
    h.write("00000000000\0", 136);
    h.write("        ", 148);
    h.write(type, 156);
    h.write("ustar\0", 257);
    h.write("00", 263);
    let sum = 0;
    for (const byte of h) sum += byte;
    h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
    return h;
  };
  const pad = (data: Buffer): Buffer => Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
  for (const file of files) {
    const data = Buffer.from(file.data);
    if (file.name.length > 100) {
      const record = ` path=${file.name}\n`;
      let length = record.length + 2;
      if (String(length).length + record.length !== length) length += 1;
      const pax = Buffer.from(`${length}${record}`);
      blocks.push(header("PaxHeader", pax.length, "x"), pad(pax));
    }
    blocks.push(header(file.name, data.length, "0"), pad(data));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

const ADDON_DIR = "package/dist/lib/js-host-api/";
const addonFiles = { "lib.cjs": "module.exports = require('./index.cjs');\n", "index.cjs": "module.exports = {};\n", "js-host-api.linux-x64-gnu.node": "\x7fELF fake bytes" };

function manifestFor(files: Record<string, string>): AddonManifest {
  return parseManifest({
    package: "@hyperlight-dev/hyperagent",
    version: "0.7.0",
    addonDir: ADDON_DIR,
    addonVersion: "0.3.3",
    entry: "lib.cjs",
    files: Object.fromEntries(Object.entries(files).map(([name, data]) => [name, sha256(Buffer.from(data))])),
  });
}

function packageTarball(overrides: Record<string, string> = {}): Buffer {
  const contents = { ...addonFiles, ...overrides };
  return gzipSync(
    tar([
      { name: "package/package.json", data: "{}" },
      { name: "package/dist/lib/hyperagent.cjs", data: "console.log('not the addon')" },
      { name: "package/dist/other/lib.cjs", data: "same basename, wrong folder" },
      ...Object.entries(contents).map(([name, data]) => ({ name: `${ADDON_DIR}${name}`, data })),
    ]),
  );
}

const temps: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "mcpvm-hl-setup-"));
  temps.push(dir);
  return dir;
}
afterEach(async () => {
  await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function setupError(fn: () => unknown): AddonSetupError {
  try {
    fn();
  } catch (error) {
    if (error instanceof AddonSetupError) return error;
    throw error;
  }
  throw new Error("expected an AddonSetupError");
}

describe("the committed manifest", () => {
  it("pins a SHA-256 digest for every addon file of @hyperlight-dev/hyperagent@0.7.0", () => {
    const manifest = parseManifest(JSON.parse(readFileSync(new URL("../../deps/js-host-api/addon-manifest.json", import.meta.url), "utf8")));
    expect(manifest.package).toBe("@hyperlight-dev/hyperagent");
    expect(manifest.version).toBe("0.7.0");
    expect(Object.keys(manifest.files).sort()).toEqual(["index.cjs", "js-host-api.linux-x64-gnu.node", "js-host-api.linux-x64-musl.node", "js-host-api.win32-x64-msvc.node", "lib.cjs"]);
  });

  it("refuses a manifest whose file names could escape vendor/ or whose digests are not SHA-256", () => {
    const base = { package: "p", version: "1", addonDir: "a/", addonVersion: "1", entry: "lib.cjs" };
    expect(setupError(() => parseManifest({ ...base, files: { "lib.cjs": sha256(Buffer.from("x")), "../evil.node": sha256(Buffer.from("y")) } })).code).toBe("HYPERLIGHT_MANIFEST_INVALID");
    expect(setupError(() => parseManifest({ ...base, files: { "lib.cjs": "abc" } })).code).toBe("HYPERLIGHT_MANIFEST_INVALID");
  });
});

describe("reading the npm tarball", () => {
  it("reads ustar entries, including names longer than 100 characters from pax headers", () => {
    const long = `package/${"deep/".repeat(25)}file.txt`;
    const entries = readTarEntries(tar([{ name: "package/a.txt", data: "A" }, { name: long, data: "B" }]));
    expect(entries.map((e) => [e.name, e.data.toString()])).toEqual([["package/a.txt", "A"], [long, "B"]]);
  });

  it("rejects data that is not gzip", () => {
    expect(setupError(() => extractAddonFiles(Buffer.from("not a tarball"), manifestFor(addonFiles))).code).toBe("HYPERLIGHT_ARCHIVE_INVALID");
  });

  it("rejects a tar header whose checksum is wrong", () => {
    const archive = tar([{ name: "package/a.txt", data: "A" }]);
    archive[0] = 0x51;
    expect(setupError(() => readTarEntries(archive)).code).toBe("HYPERLIGHT_ARCHIVE_INVALID");
  });
});

describe("extracting and verifying the addon files", () => {
  it("returns only the pinned files from the addon folder, nothing else in the package", () => {
    const files = extractAddonFiles(packageTarball(), manifestFor(addonFiles));
    expect([...files.keys()].sort()).toEqual(["index.cjs", "js-host-api.linux-x64-gnu.node", "lib.cjs"]);
    expect(files.get("lib.cjs")?.toString()).toBe(addonFiles["lib.cjs"]);
  });

  it("refuses a tampered file and names it with both digests", () => {
    const manifest = manifestFor(addonFiles);
    const error = setupError(() => extractAddonFiles(packageTarball({ "js-host-api.linux-x64-gnu.node": "\x7fELF evil bytes" }), manifest));
    expect(error.code).toBe("HYPERLIGHT_DIGEST_MISMATCH");
    expect(error.message).toContain("js-host-api.linux-x64-gnu.node");
    expect(error.message).toContain(manifest.files["js-host-api.linux-x64-gnu.node"]);
    expect(error.message).toContain(sha256(Buffer.from("\x7fELF evil bytes")));
  });

  it("refuses a package that lacks a pinned file", () => {
    const manifest = manifestFor({ ...addonFiles, "js-host-api.darwin-arm64.node": "x" });
    const error = setupError(() => extractAddonFiles(packageTarball(), manifest));
    expect(error.code).toBe("HYPERLIGHT_ADDON_FILE_MISSING");
    expect(error.data).toEqual({ missing: ["js-host-api.darwin-arm64.node"] });
  });
});

describe("installing into vendor/", () => {
  it("writes exactly the verified files and deletes the downloaded tarball", async () => {
    const dir = await tempDir();
    const tgz = join(dir, "pkg.tgz");
    await writeFile(tgz, packageTarball());
    const vendor = join(dir, "vendor");
    const installed = await installAddonFromTarball(tgz, vendor, manifestFor(addonFiles));
    expect(installed.sort()).toEqual(["index.cjs", "js-host-api.linux-x64-gnu.node", "lib.cjs"]);
    expect((await readdir(vendor)).sort()).toEqual(installed.sort());
    expect(readFileSync(join(vendor, "index.cjs"), "utf8")).toBe(addonFiles["index.cjs"]);
    expect(existsSync(tgz)).toBe(false);
    expect((await readdir(dir)).sort()).toEqual(["vendor"]);
  });

  it("on a digest mismatch deletes the tarball, writes nothing and keeps the previous install", async () => {
    const dir = await tempDir();
    const vendor = join(dir, "vendor");
    const manifest = manifestFor(addonFiles);
    const good = join(dir, "good.tgz");
    await writeFile(good, packageTarball());
    await installAddonFromTarball(good, vendor, manifest);
    const bad = join(dir, "bad.tgz");
    await writeFile(bad, packageTarball({ "index.cjs": "require('child_process').exec('curl evil')" }));
    await expect(installAddonFromTarball(bad, vendor, manifest)).rejects.toMatchObject({ code: "HYPERLIGHT_DIGEST_MISMATCH" });
    expect(existsSync(bad)).toBe(false);
    expect(readFileSync(join(vendor, "index.cjs"), "utf8")).toBe(addonFiles["index.cjs"]);
    expect((await readdir(dir)).sort()).toEqual(["vendor"]);
  });
});
