#!/usr/bin/env node
// Installs the prebuilt Hyperlight JS host addon into deps/js-host-api/vendor/.
// The addon is not published under its own name; it ships inside @hyperlight-dev/hyperagent.
// The only download path is the npm client (`npm pack`), and every file is checked against the
// SHA-256 digests pinned in addon-manifest.json before anything is written.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AddonSetupError, installAddonFromTarball, parseManifest } from "./tarball.mjs";

const here = dirname(fileURLToPath(import.meta.url));

/** @param {string} cwd @param {string} spec */
function npmPack(cwd, spec) {
  // npm is a .cmd shim on Windows, which execFile can only start through a shell.
  const windows = process.platform === "win32";
  return new Promise((resolve, reject) => {
    execFile(
      windows ? "npm.cmd" : "npm",
      ["pack", spec, "--silent", "--ignore-scripts", "--pack-destination", cwd],
      { cwd, shell: windows, timeout: 300_000, maxBuffer: 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (error) {
          reject(new AddonSetupError("HYPERLIGHT_PACK_FAILED", `\`npm pack ${spec}\` failed: ${String(stderr).trim() || error.message}`));
        } else resolve(undefined);
      },
    );
  });
}

/** `--vendor-dir <dir>` installs elsewhere (the tests use a temp dir); the default is ./vendor. */
function vendorDirFromArgs(/** @type {string[]} */ args) {
  const at = args.indexOf("--vendor-dir");
  if (at === -1) return join(here, "vendor");
  const dir = args[at + 1];
  if (dir === undefined || dir.startsWith("--")) throw new Error("--vendor-dir needs a directory");
  return resolve(dir);
}

async function main() {
  const manifest = parseManifest(JSON.parse(await readFile(join(here, "addon-manifest.json"), "utf8")));
  const spec = `${manifest.package}@${manifest.version}`;
  const vendorDir = vendorDirFromArgs(process.argv.slice(2));
  const work = await mkdtemp(join(tmpdir(), "mcpvm-hyperlight-"));
  try {
    console.log(`Fetching ${spec} with npm pack …`);
    await npmPack(work, spec);
    const tarballs = (await readdir(work)).filter((name) => name.endsWith(".tgz"));
    if (tarballs.length !== 1 || tarballs[0] === undefined) {
      throw new AddonSetupError("HYPERLIGHT_PACK_FAILED", `npm pack produced ${tarballs.length} tarballs in ${work}; expected exactly one.`);
    }
    const installed = await installAddonFromTarball(join(work, tarballs[0]), vendorDir, manifest);
    console.log(`Installed Hyperlight JS host addon ${manifest.addonVersion} (${installed.length} files, SHA-256 verified) into ${vendorDir}`);
    console.log("Check that a micro-VM boots on this machine with: mcpvm doctor");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  const code = error instanceof AddonSetupError ? error.code : "HYPERLIGHT_SETUP_FAILED";
  console.error(`setup:hyperlight failed [${code}]: ${error instanceof Error ? error.message : String(error)}`);
  console.error("See deps/js-host-api/README.md for what to do.");
  process.exitCode = 1;
});
