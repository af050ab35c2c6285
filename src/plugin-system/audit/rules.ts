import { z } from "zod";
import type { Capability } from "../manifest.js";

export const riskLevelSchema = z.enum(["low", "medium", "high", "critical"]);
export type RiskLevel = z.infer<typeof riskLevelSchema>;
export const RISK_ORDER: readonly RiskLevel[] = ["low", "medium", "high", "critical"];

export const auditRuleIdSchema = z.enum([
  "child-process",
  "worker-threads",
  "worker-eval",
  "eval",
  "function-constructor",
  "vm",
  "dynamic-require",
  "dynamic-import",
  "dynamic-member",
  "network",
  "fs-write",
  "fs-read",
  "env",
  "native-binding",
  "external-dependency",
  "unaudited-dependency",
  "unpinned-dependencies",
  "import-outside-plugin",
  "unresolved-import",
  "parse-error",
]);
export type AuditRuleId = z.infer<typeof auditRuleIdSchema>;

export interface AuditRule {
  readonly id: AuditRuleId;
  readonly summary: string;
  /** The manifest capability that covers it; null when no declaration can make it acceptable. */
  readonly capability: Capability | null;
  readonly risk: RiskLevel;
  /** Risk when the capability is not declared (equal to `risk` for rules without a capability). */
  readonly undeclaredRisk: RiskLevel;
  /** A blocking finding makes the plugin impossible to approve. */
  readonly blocking: boolean;
}

function rule(id: AuditRuleId, summary: string, capability: Capability | null, risk: RiskLevel, undeclaredRisk: RiskLevel = risk, blocking = false): AuditRule {
  return { id, summary, capability, risk, undeclaredRisk, blocking };
}

/** The rule table (docs/PLUGINS.md reproduces it). */
export const AUDIT_RULES: Readonly<Record<AuditRuleId, AuditRule>> = {
  "child-process": rule("child-process", "starts OS processes (child_process, cluster)", "process", "high", "critical"),
  "worker-threads": rule("worker-threads", "uses worker_threads", "process", "medium", "high"),
  "worker-eval": rule("worker-eval", "runs a string as code in a Worker (eval: true)", null, "critical"),
  eval: rule("eval", "eval()", null, "critical"),
  "function-constructor": rule("function-constructor", "builds functions from strings (Function, .constructor(...))", null, "critical"),
  vm: rule("vm", "compiles or loads code the audit does not see (vm, inspector, repl, Node's module loader)", null, "critical"),
  "dynamic-require": rule("dynamic-require", "require() with a specifier that cannot be resolved statically", null, "high"),
  "dynamic-import": rule("dynamic-import", "import() with a specifier that cannot be resolved statically", null, "high"),
  "dynamic-member": rule("dynamic-member", "computed access to a sensitive object that cannot be resolved statically", null, "high"),
  network: rule("network", "raw network access (net, dgram, tls, http(s), http2, dns, undici, fetch, WebSocket)", "network", "medium", "high"),
  "fs-write": rule("fs-write", "writes, deletes, renames or changes files (fs)", "fs.write", "medium", "high"),
  "fs-read": rule("fs-read", "reads files or folders (fs)", "fs.read", "low", "medium"),
  env: rule("env", "reads the environment (process.env)", "env", "low", "medium"),
  "native-binding": rule("native-binding", "loads native code (process.binding, process.dlopen)", null, "critical"),
  "external-dependency": rule("external-dependency", "a native plugin imports one of mcpvm's own dependencies (not audited here)", null, "low"),
  "unaudited-dependency": rule("unaudited-dependency", "imports a package whose code is not audited (a user plugin's node_modules is pinned by the approval, not read)", null, "high"),
  "unpinned-dependencies": rule("unpinned-dependencies", "imports packages whose files the approval cannot pin", null, "critical", "critical", true),
  "import-outside-plugin": rule("import-outside-plugin", "imports a file outside the plugin's folder", null, "critical", "critical", true),
  "unresolved-import": rule("unresolved-import", "imports a relative file that does not exist", null, "high", "high", true),
  "parse-error": rule("parse-error", "a source file cannot be parsed", null, "high", "high", true),
};

/** Importing one of these is the capability itself (normalised names, without `node:`). */
export const MODULE_RULES: Readonly<Record<string, AuditRuleId>> = {
  child_process: "child-process",
  cluster: "child-process",
  worker_threads: "worker-threads",
  vm: "vm",
  inspector: "vm",
  "inspector/promises": "vm",
  repl: "vm",
  net: "network",
  dgram: "network",
  tls: "network",
  http: "network",
  https: "network",
  http2: "network",
  dns: "network",
  "dns/promises": "network",
  undici: "network",
  ws: "network",
  "node-fetch": "network",
  axios: "network",
  got: "network",
};

/** Modules whose members decide the finding (fs.writeFile is a write, fs.readFile a read). */
export const FS_MODULES: ReadonlySet<string> = new Set(["fs", "fs/promises", "graceful-fs", "fs-extra"]);

export const FS_WRITE_MEMBERS: ReadonlySet<string> = new Set(
  [
    "writeFile", "appendFile", "write", "writev", "rm", "rmdir", "unlink", "rename", "mkdir", "mkdtemp", "chmod", "lchmod",
    "fchmod", "chown", "lchown", "fchown", "copyFile", "cp", "symlink", "link", "truncate", "ftruncate", "utimes",
    "lutimes", "futimes", "createWriteStream", "outputFile", "outputJson", "writeJson", "move", "remove", "emptyDir",
    "ensureDir", "ensureFile",
  ].flatMap((name) => (name.startsWith("create") ? [name] : [name, `${name}Sync`])),
);

export const FS_READ_MEMBERS: ReadonlySet<string> = new Set(
  [
    "readFile", "read", "readv", "readdir", "readlink", "realpath", "stat", "lstat", "fstat", "statfs", "access", "exists",
    "opendir", "open", "createReadStream", "watch", "watchFile", "glob", "readJson",
  ].flatMap((name) => (name.startsWith("create") || name.startsWith("watch") ? [name] : [name, `${name}Sync`])),
);

/**
 * The parts of node:module (and of CommonJS's `module` object) that neither compile nor load code;
 * any other member (`_load`, `register`, `prototype._compile`, …) is a `vm` finding. `require` is
 * followed like require itself.
 */
export const SAFE_MODULE_MEMBERS: ReadonlySet<string> = new Set([
  "createRequire", "isBuiltin", "builtinModules", "findSourceMap", "SourceMap", "findPackageJSON",
  "exports", "id", "filename", "loaded", "path", "paths", "require",
]);

/** Members of `process` that load native code. */
export const NATIVE_BINDING_MEMBERS: ReadonlySet<string> = new Set(["binding", "_linkedBinding", "dlopen"]);

/** Globals that are a finding wherever they are referenced (unless the file declares the name at top level). */
export const GLOBAL_RULES: Readonly<Record<string, AuditRuleId>> = {
  eval: "eval",
  Function: "function-constructor",
  fetch: "network",
  WebSocket: "network",
  XMLHttpRequest: "network",
  EventSource: "network",
};

/** Names under which code reaches the global object. */
export const GLOBAL_OBJECT_NAMES: ReadonlySet<string> = new Set(["globalThis", "global", "window", "self"]);

export function normaliseModuleName(specifier: string): string {
  return specifier.startsWith("node:") ? specifier.slice(5) : specifier;
}

export function effectiveRisk(ruleId: AuditRuleId, declared: boolean): RiskLevel {
  const entry = AUDIT_RULES[ruleId];
  return declared ? entry.risk : entry.undeclaredRisk;
}
