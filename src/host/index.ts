export { McpvmHost, HostError, type HostOptions, type RunOptions } from "./host.js";
export { redactRunResult } from "./redact-result.js";
