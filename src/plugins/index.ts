// The shared code of the native fs and fetch plugins. Plugins import the individual files, not this
// index: the plugin audit follows imports, and fs-read must not pull jail-write.ts (write calls)
// into its audited graph, nor fetch any fs code at all.
export { parseArgs } from "./args.js";
export type { ArgSpec } from "./args.js";
export { textEncodingSchema } from "./encoding.js";
export type { TextEncoding } from "./encoding.js";
export { FsError, fsErrorFrom, guardFs, hasErrno, invalidFsArgument, outsideBase } from "./fs-errors.js";
export type { FsErrorCode } from "./fs-errors.js";
export { Jail } from "./jail.js";
export type { OpenedFile } from "./jail.js";
export { MAX_GUEST_PATH_LENGTH, isInside, parseGuestPath } from "./jail-path.js";
export type { GuestPath } from "./jail-path.js";
export { makeDirectories, openForWrite } from "./jail-write.js";
export type { WriteOpenOptions } from "./jail-write.js";
