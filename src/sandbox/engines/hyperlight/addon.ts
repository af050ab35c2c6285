import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { z } from "zod";
import { errorMessage } from "../../../util/errors.js";
import { packageRoot } from "../../../util/package-root.js";
import type { HyperlightApi } from "./addon-types.js";
import { HyperlightError } from "./errors.js";

/** Mirrors deps/js-host-api/addon-manifest.json, the pinned digests written by the setup script's author. */
export const AddonManifestSchema = z.object({
  package: z.string().min(1),
  version: z.string().min(1),
  addonDir: z.string().min(1),
  addonVersion: z.string().min(1),
  entry: z.string().regex(/^[A-Za-z0-9._-]+$/),
  files: z.record(z.string().regex(/^[A-Za-z0-9._-]+$/), z.string().regex(/^[0-9a-f]{64}$/)),
});
export type AddonManifest = z.infer<typeof AddonManifestSchema>;

/** Platforms for which the pinned package ships a prebuilt binary. */
const SHIPPED_PLATFORMS: ReadonlySet<string> = new Set(["linux-x64", "win32-x64"]);

export interface AddonLocation {
  /** Where setup:hyperlight put the verified files; defaults to <package>/deps/js-host-api/vendor. */
  readonly vendorDir?: string;
  /** The digests to check; defaults to <package>/deps/js-host-api/addon-manifest.json. */
  readonly manifestPath?: string;
  /**
   * A js-host-api folder built from the hyperlight-js sources (the documented alternative). Loaded
   * as-is, without digest checks, because the user built it themselves.
   */
  readonly sourceBuildDir?: string;
  /** `${process.platform}-${process.arch}`; injectable so the refusal path is testable. */
  readonly platform?: string;
}

export type AddonLoadResult =
  | { readonly ok: true; readonly api: HyperlightApi; readonly from: string; readonly version: string }
  | { readonly ok: false; readonly error: HyperlightError };

export function defaultAddonDir(): string {
  return join(packageRoot(), "deps", "js-host-api");
}

const cache = new Map<string, Promise<AddonLoadResult>>();

/**
 * Loads the Hyperlight addon once per location and process. Never throws: a missing, tampered or
 * unloadable addon is a typed error the caller reports (auto selection falls back to quickjs).
 */
export function loadHyperlightAddon(location: AddonLocation = {}): Promise<AddonLoadResult> {
  const key = JSON.stringify([location.vendorDir, location.manifestPath, location.sourceBuildDir, location.platform]);
  let pending = cache.get(key);
  if (pending === undefined) {
    pending = load(location).catch((cause: unknown) => failure("HYPERLIGHT_LOAD_FAILED", `Loading the Hyperlight addon failed: ${errorMessage(cause)}`, cause));
    cache.set(key, pending);
  }
  return pending;
}

function failure(code: HyperlightError["code"], message: string, cause?: unknown): AddonLoadResult {
  return { ok: false, error: new HyperlightError(code, message, cause === undefined ? undefined : { cause }) };
}

async function load(location: AddonLocation): Promise<AddonLoadResult> {
  const platform = location.platform ?? `${process.platform}-${process.arch}`;
  if (location.sourceBuildDir !== undefined) {
    return requireAddon(location.sourceBuildDir, `source build at ${location.sourceBuildDir}`, "source build");
  }
  const manifestPath = location.manifestPath ?? join(defaultAddonDir(), "addon-manifest.json");
  const vendorDir = location.vendorDir ?? join(defaultAddonDir(), "vendor");
  let manifest: AddonManifest;
  try {
    manifest = AddonManifestSchema.parse(JSON.parse(await readFile(manifestPath, "utf8")));
  } catch (cause) {
    return failure("HYPERLIGHT_MANIFEST_INVALID", `The pinned addon digests (${manifestPath}) are missing or malformed: ${errorMessage(cause)}. Restore the file from the repository.`, cause);
  }
  if (!existsSync(join(vendorDir, manifest.entry))) {
    return failure(
      "HYPERLIGHT_NOT_INSTALLED",
      `The Hyperlight addon is not installed (no ${join(vendorDir, manifest.entry)}). Run \`npm run setup:hyperlight\` (or \`just hyperlight\`) to fetch and verify it.`,
    );
  }
  if (!SHIPPED_PLATFORMS.has(platform)) {
    return failure(
      "HYPERLIGHT_UNSUPPORTED_PLATFORM",
      `No prebuilt Hyperlight addon for ${platform} (shipped: ${[...SHIPPED_PLATFORMS].join(", ")}). Build js-host-api from the hyperlight-js sources, or use the quickjs engine.`,
    );
  }
  const mismatched: string[] = [];
  for (const [name, expected] of Object.entries(manifest.files)) {
    const path = join(vendorDir, name);
    const actual = existsSync(path) ? createHash("sha256").update(await readFile(path)).digest("hex") : "missing";
    if (actual !== expected) mismatched.push(`${name} (${actual === "missing" ? "missing" : "digest differs"})`);
  }
  if (mismatched.length > 0) {
    return failure(
      "HYPERLIGHT_DIGEST_MISMATCH",
      `Refusing to load the Hyperlight addon: ${mismatched.join(", ")} in ${vendorDir} do not match the pinned SHA-256 digests. Run \`npm run setup:hyperlight\` again.`,
    );
  }
  return requireAddon(join(vendorDir, manifest.entry), vendorDir, manifest.addonVersion);
}

function requireAddon(entry: string, from: string, version: string): AddonLoadResult {
  let loaded: unknown;
  try {
    loaded = createRequire(import.meta.url)(entry);
  } catch (cause) {
    return failure("HYPERLIGHT_LOAD_FAILED", `The Hyperlight addon in ${from} could not be loaded: ${errorMessage(cause)}`, cause);
  }
  if (!isHyperlightApi(loaded)) {
    return failure("HYPERLIGHT_LOAD_FAILED", `${entry} loaded but does not export SandboxBuilder; it is not the js-host-api addon.`);
  }
  return { ok: true, api: loaded, from, version };
}

function isHyperlightApi(value: unknown): value is HyperlightApi {
  if (typeof value !== "object" || value === null || !("SandboxBuilder" in value)) return false;
  const builder = (value as { SandboxBuilder: unknown }).SandboxBuilder;
  return typeof builder === "function" && typeof (builder.prototype as { build?: unknown } | undefined)?.build === "function";
}
