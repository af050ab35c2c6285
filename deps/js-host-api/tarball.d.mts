export type AddonSetupErrorCode =
  | "HYPERLIGHT_ARCHIVE_INVALID"
  | "HYPERLIGHT_ADDON_FILE_MISSING"
  | "HYPERLIGHT_DIGEST_MISMATCH"
  | "HYPERLIGHT_MANIFEST_INVALID"
  | "HYPERLIGHT_PACK_FAILED";

export declare class AddonSetupError extends Error {
  readonly code: AddonSetupErrorCode;
  readonly data: Record<string, unknown> | undefined;
  constructor(code: AddonSetupErrorCode, message: string, data?: Record<string, unknown>);
}

export interface AddonManifest {
  readonly package: string;
  readonly version: string;
  /** Folder inside the npm tarball that holds the addon, with a trailing slash. */
  readonly addonDir: string;
  readonly addonVersion: string;
  /** The file to `require` (the error-enriching wrapper around the napi-rs loader). */
  readonly entry: string;
  /** file name -> lowercase hex SHA-256 */
  readonly files: Readonly<Record<string, string>>;
}

export interface TarEntry {
  readonly name: string;
  /** tar type flag: "0" file, "5" directory, … */
  readonly type: string;
  readonly data: Buffer;
}

export declare function readTarEntries(tar: Buffer): TarEntry[];
export declare function parseManifest(value: unknown): AddonManifest;
export declare function sha256(data: Buffer): string;
export declare function extractAddonFiles(tgz: Buffer, manifest: AddonManifest): Map<string, Buffer>;
export declare function verifyAddonFiles(files: ReadonlyMap<string, Buffer>, manifest: AddonManifest): void;
export declare function installAddonFromTarball(tgzPath: string, vendorDir: string, manifest: AddonManifest): Promise<string[]>;
