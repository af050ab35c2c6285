export { createHyperlightEngine, type HyperlightEngineOptions } from "./engine.js";
export { probeHyperlight, type ProbeOptions, type ProbeResult } from "./probe.js";
export { loadHyperlightAddon, defaultAddonDir, AddonManifestSchema, type AddonLocation, type AddonLoadResult, type AddonManifest } from "./addon.js";
export { HyperlightError, type HyperlightErrorCode } from "./errors.js";
export type { HyperlightApi } from "./addon-types.js";
