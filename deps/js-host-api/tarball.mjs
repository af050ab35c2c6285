// Pure pieces of the Hyperlight addon setup: read an npm tarball, pick out only the addon files,
// check them against the pinned digests, and install them. Kept free of network and npm so the
// tests can drive it with tarballs they build themselves. Plain ESM so `node` runs it without a build.
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";

/** A setup failure with a stable code; deps/js-host-api/README.md says what to do for each. */
export class AddonSetupError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {Record<string, unknown>} [data]
   */
  constructor(code, message, data) {
    super(message);
    this.name = "AddonSetupError";
    this.code = code;
    this.data = data;
  }
}

const BLOCK = 512;
const SHA256_HEX = /^[0-9a-f]{64}$/;
// Only plain file names: a manifest entry must never steer a write outside vendor/.
const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

/** @param {Buffer} block @param {number} start @param {number} end */
function field(block, start, end) {
  const raw = block.subarray(start, end);
  const nul = raw.indexOf(0);
  return raw.subarray(0, nul === -1 ? raw.length : nul).toString("utf8");
}

/** @param {Buffer} block */
function headerChecksumOk(block) {
  const stored = parseInt(field(block, 148, 156).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : block[i];
  return stored === sum;
}

/** pax extended header records: "<len> key=value\n" */
function paxPath(/** @type {Buffer} */ data) {
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = parseInt(data.subarray(offset, space).toString("utf8"), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString("utf8");
    if (record.startsWith("path=")) return record.slice("path=".length);
    offset += length;
  }
  return undefined;
}

/**
 * Reads the entries of an uncompressed tar archive (ustar, with pax and GNU long names).
 * @param {Buffer} tar
 * @returns {Array<{ name: string, type: string, data: Buffer }>}
 */
export function readTarEntries(tar) {
  /** @type {Array<{ name: string, type: string, data: Buffer }>} */
  const entries = [];
  let offset = 0;
  /** @type {string | undefined} */
  let longName;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    if (!headerChecksumOk(header)) {
      throw new AddonSetupError("HYPERLIGHT_ARCHIVE_INVALID", `The package archive is damaged (bad tar header at byte ${offset}).`);
    }
    const size = parseInt(field(header, 124, 136).trim() || "0", 8);
    const type = String.fromCharCode(header[156] || 0x30);
    const dataStart = offset + BLOCK;
    if (!Number.isFinite(size) || size < 0 || dataStart + size > tar.length) {
      throw new AddonSetupError("HYPERLIGHT_ARCHIVE_INVALID", `The package archive is truncated (entry at byte ${offset}).`);
    }
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === "x") {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (type === "L") {
      longName = field(data, 0, data.length);
      continue;
    }
    if (type === "g") continue;
    const prefix = field(header, 257, 263) === "ustar" ? field(header, 345, 500) : "";
    const shortName = field(header, 0, 100);
    const name = longName ?? (prefix === "" ? shortName : `${prefix}/${shortName}`);
    longName = undefined;
    entries.push({ name, type: type === "\0" ? "0" : type, data });
  }
  return entries;
}

/**
 * Checks the manifest's shape: the digests are the trust anchor, so a malformed one is refused.
 * @param {unknown} value
 * @returns {{ package: string, version: string, addonDir: string, addonVersion: string, entry: string, files: Record<string, string> }}
 */
export function parseManifest(value) {
  const m = /** @type {Record<string, unknown>} */ (value ?? {});
  const strings = ["package", "version", "addonDir", "addonVersion", "entry"];
  const files = /** @type {Record<string, unknown>} */ (m.files ?? {});
  const ok =
    typeof value === "object" &&
    value !== null &&
    strings.every((key) => typeof m[key] === "string" && m[key] !== "") &&
    typeof m.files === "object" &&
    Object.keys(files).length > 0 &&
    Object.entries(files).every(([name, digest]) => SAFE_NAME.test(name) && typeof digest === "string" && SHA256_HEX.test(digest)) &&
    typeof m.entry === "string" &&
    Object.hasOwn(files, m.entry);
  if (!ok) {
    throw new AddonSetupError("HYPERLIGHT_MANIFEST_INVALID", "deps/js-host-api/addon-manifest.json is malformed; restore it from the repository.");
  }
  return /** @type {ReturnType<typeof parseManifest>} */ (value);
}

/** @param {Buffer} data */
export function sha256(data) {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Picks only the addon files out of a gzipped npm tarball and checks every one against its pinned
 * digest. Nothing else in the package is returned, so nothing else can be installed.
 * @param {Buffer} tgz
 * @param {ReturnType<typeof parseManifest>} manifest
 * @returns {Map<string, Buffer>}
 */
export function extractAddonFiles(tgz, manifest) {
  let tar;
  try {
    tar = gunzipSync(tgz);
  } catch (cause) {
    throw new AddonSetupError("HYPERLIGHT_ARCHIVE_INVALID", `The package archive is not a gzip file: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
  /** @type {Map<string, Buffer>} */
  const found = new Map();
  for (const entry of readTarEntries(tar)) {
    if (entry.type !== "0" || !entry.name.startsWith(manifest.addonDir)) continue;
    const relative = entry.name.slice(manifest.addonDir.length);
    if (Object.hasOwn(manifest.files, relative)) found.set(relative, entry.data);
  }
  const missing = Object.keys(manifest.files).filter((name) => !found.has(name));
  if (missing.length > 0) {
    throw new AddonSetupError(
      "HYPERLIGHT_ADDON_FILE_MISSING",
      `${manifest.package}@${manifest.version} does not contain ${missing.join(", ")} under ${manifest.addonDir}; the package is not the pinned one.`,
      { missing },
    );
  }
  verifyAddonFiles(found, manifest);
  return found;
}

/**
 * @param {Map<string, Buffer>} files
 * @param {ReturnType<typeof parseManifest>} manifest
 */
export function verifyAddonFiles(files, manifest) {
  const mismatched = [];
  for (const [name, expected] of Object.entries(manifest.files)) {
    const data = files.get(name);
    const actual = data === undefined ? "missing" : sha256(data);
    if (actual !== expected) mismatched.push({ name, expected, actual });
  }
  if (mismatched.length > 0) {
    const list = mismatched.map((m) => `${m.name} (expected ${m.expected}, got ${m.actual})`).join("; ");
    throw new AddonSetupError(
      "HYPERLIGHT_DIGEST_MISMATCH",
      `Refusing to install the Hyperlight addon: SHA-256 mismatch for ${list}. The downloaded package was deleted; nothing was installed.`,
      { mismatched },
    );
  }
}

/**
 * Installs the addon from a downloaded tarball into vendorDir. The tarball is deleted afterwards
 * in every case (it is only a transport); a digest mismatch leaves vendorDir untouched.
 * @param {string} tgzPath
 * @param {string} vendorDir
 * @param {ReturnType<typeof parseManifest>} manifest
 * @returns {Promise<string[]>} the installed file names
 */
export async function installAddonFromTarball(tgzPath, vendorDir, manifest) {
  let files;
  try {
    files = extractAddonFiles(await readFile(tgzPath), manifest);
  } finally {
    await rm(tgzPath, { force: true });
  }
  // Stage next to vendor/ and swap, so a crash never leaves a half-written addon behind.
  const staging = join(dirname(vendorDir), `.vendor-staging-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    for (const [name, data] of files) await writeFile(join(staging, name), data, { mode: name.endsWith(".node") ? 0o755 : 0o644 });
    const written = new Map();
    for (const name of files.keys()) written.set(name, await readFile(join(staging, name)));
    verifyAddonFiles(written, manifest);
    await rm(vendorDir, { recursive: true, force: true });
    await rename(staging, vendorDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  return [...files.keys()];
}
