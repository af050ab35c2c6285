import { ConfigError, configFileSchema, type ConfigFile } from "../../config/config-file.js";
import { readOwnFile } from "../../config/home-security.js";
import { parseJsonDocument } from "../../util/json-document.js";
import { STATE_FILE_LIMITS } from "../../util/state-file-limits.js";
import { describeIssues } from "../../util/zod-issues.js";

/**
 * For doctor, when config.json fails its envelope (limits, engine, an unknown key …): the file with
 * the top-level keys that failed left out, so every other section (mcpServers, model, gateway) is
 * still checked in the same run instead of after the first fix. `message` names the envelope's own
 * problems only (the servers' are reported one by one). Undefined when the file is not JSON at all,
 * is unreadable, or the failure was not the envelope's.
 */
export async function configWithoutBrokenSections(file: string, error: unknown): Promise<{ readonly config: ConfigFile; readonly message: string } | undefined> {
  const issues = error instanceof ConfigError && error.code === "CONFIG_INVALID" ? error.data?.issues : undefined;
  if (!Array.isArray(issues)) return undefined;
  let read: Awaited<ReturnType<typeof readOwnFile>>;
  let raw: unknown;
  try {
    read = await readOwnFile(file, STATE_FILE_LIMITS.config);
    if (read === undefined || "problem" in read) return undefined;
    raw = parseJsonDocument(read.text, { refuseReservedKeys: true });
  } catch {
    return undefined;
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const first = configFileSchema.safeParse(raw);
  const broken = new Set<string>();
  for (const issue of first.success ? [] : first.error.issues) {
    if (issue.path.length > 0) broken.add(String(issue.path[0]));
    else if (issue.code === "unrecognized_keys") for (const key of issue.keys) broken.add(key);
  }
  const rest = configFileSchema.safeParse(Object.fromEntries(Object.entries(raw).filter(([key]) => !broken.has(key))));
  if (!rest.success) return undefined;
  const serverIssues = error instanceof ConfigError && Array.isArray(error.data?.serverIssues) ? error.data.serverIssues.length : 0;
  const own = (issues as { path: string; message: string }[]).slice(0, issues.length - serverIssues);
  return { config: rest.data, message: describeIssues(file, own) };
}
