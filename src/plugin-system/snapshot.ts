import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { auditPluginWithSources, type AuditReport } from "./audit/audit-plugin.js";
import { approvalHash } from "./approval/digest.js";
import type { AuditSummary } from "./approval/store.js";
import type { DiscoveredPlugin } from "./discovery.js";
import type { ScanCache } from "./audit/scan-cache.js";

/** One consistent reading of a plugin on disk: the bytes audited are the bytes hashed. */
export interface PluginSnapshot {
  readonly plugin: DiscoveredPlugin;
  readonly manifestText: string;
  readonly declarationsText: string | undefined;
  readonly audit: AuditReport;
  /** The bytes of every file in audit.files, as read and hashed; a user plugin runs from a copy of exactly these. */
  readonly sources: ReadonlyMap<string, Buffer>;
  readonly hash: string;
}

export async function snapshotPlugin(plugin: DiscoveredPlugin, trustedPackages: ReadonlySet<string>, scans?: ScanCache): Promise<PluginSnapshot> {
  const manifestText = await readFile(plugin.manifestFile, "utf8");
  const declarationsPath = plugin.manifest.declarations;
  const declarationsText = declarationsPath === undefined ? undefined : await readFile(join(plugin.dir, declarationsPath), "utf8");
  const { report: audit, sources } = await auditPluginWithSources({
    name: plugin.name,
    codeDir: plugin.codeDir,
    entryFile: plugin.entryFile,
    capabilities: plugin.manifest.capabilities,
    trustedPackages: plugin.source === "native" ? trustedPackages : new Set(),
    ...(plugin.hostSourceDir !== undefined ? { hostSourceDir: plugin.hostSourceDir } : {}),
    ...(scans === undefined ? {} : { scans }),
    pinPackages: plugin.source === "user",
  });
  const hash = approvalHash({
    name: plugin.name,
    source: plugin.source,
    manifestText,
    ...(declarationsPath !== undefined && declarationsText !== undefined ? { declarations: { path: declarationsPath, text: declarationsText } } : {}),
    files: audit.files,
  });
  return { plugin, manifestText, declarationsText, audit, sources, hash };
}

export function summarizeAudit(report: AuditReport): AuditSummary {
  const byRisk = { low: 0, medium: 0, high: 0, critical: 0 };
  for (const finding of report.findings) byRisk[finding.risk] += 1;
  return {
    files: report.files.length,
    findings: report.findings.length,
    byRisk,
    highestRisk: report.highestRisk,
    undeclaredCapabilities: [...report.undeclaredCapabilities],
    rules: [...new Set(report.findings.map((finding) => finding.rule))].sort(),
  };
}
