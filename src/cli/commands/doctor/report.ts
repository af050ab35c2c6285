import { configuredModel } from "../../../agent/llm/model-config.js";
import type { ConfigPaths } from "../../../config/paths.js";
import type { ConnectResult, Diagnosis, Problem } from "../../../host/diagnose/index.js";
import { probeHyperlight } from "../../../sandbox/engines/hyperlight/index.js";
import { resolveLimits } from "../../../sandbox/limits.js";
import { createEngine } from "../../../sandbox/select.js";
import type { EngineChoice, RunLimits } from "../../../sandbox/types.js";
import { ExitCode, type ExitCodeValue } from "../../../terminal/exit-codes.js";
import { parseGatewaySettings } from "../../../gateway/settings.js";
import { errorMessage, isMcpvmError } from "../../../util/errors.js";

export interface EngineReport {
  readonly chosen: string | undefined;
  readonly requested: EngineChoice;
  /** Why hyperlight is not used here (said once), or undefined when it boots. */
  readonly hyperlight: { readonly boots: boolean; readonly reason: string | undefined };
  readonly error: string | undefined;
}

export interface DoctorReport {
  readonly ok: boolean;
  readonly exitCode: ExitCodeValue;
  readonly node: string;
  readonly platform: string;
  readonly engine: EngineReport;
  readonly paths: ConfigPaths;
  readonly limits: RunLimits | undefined;
  /** `loadError`: an enabled plugin that does not load (as a run would load it), and why. */
  readonly plugins: readonly { readonly name: string; readonly state: string; readonly approval: string; readonly loadError?: string }[];
  readonly mcp: Diagnosis["mcp"];
  /** Entries under mcpServers, valid or not. */
  readonly configuredServers: number;
  readonly servers: readonly (Diagnosis["servers"][number] & { readonly connect?: ConnectResult })[];
  readonly llm: { readonly configured: boolean; readonly detail: string };
  readonly problems: readonly Problem[];
}

/**
 * The exit code of a check: 0 when no error was found; else config (3) before approval (5) before
 * unavailable (6), since a broken config.json or store is the cause to fix first.
 */
export function doctorExitCode(problems: readonly Problem[]): ExitCodeValue {
  const kinds = new Set(problems.filter((p) => p.severity === "error").map((p) => p.kind));
  if (kinds.has("config")) return ExitCode.Config;
  if (kinds.has("approval")) return ExitCode.ApprovalRequired;
  if (kinds.has("unavailable")) return ExitCode.Unavailable;
  return ExitCode.Ok;
}

export async function engineReport(choice: EngineChoice): Promise<EngineReport> {
  const probe = await probeHyperlight();
  const hyperlight = { boots: probe.ok, reason: probe.ok ? undefined : probe.reason };
  try {
    const { engine, selection } = await createEngine(choice);
    await engine.dispose();
    return { chosen: selection.kind, requested: choice, hyperlight, error: undefined };
  } catch (error) {
    return { chosen: undefined, requested: choice, hyperlight, error: errorMessage(error) };
  }
}

export function limitsReport(config: Diagnosis["config"], problems: Problem[]): RunLimits | undefined {
  try {
    return resolveLimits(config?.limits);
  } catch (error) {
    problems.push({ severity: "error", kind: "config", subject: "config.json", message: errorMessage(error), next: "fix limits in config.json", code: isMcpvmError(error) ? error.code : undefined });
    return undefined;
  }
}

/**
 * The LLM the REPL would talk to. None configured is fine (everything but chat works); a setting
 * that cannot work (an unknown provider in MCPVM_MODEL, an invalid `model` section) is a config
 * problem, exit 3 as everywhere else, and a missing key a warning.
 */
export function llmReport(config: Diagnosis["config"], env: Readonly<Record<string, string | undefined>>, configFile: string, problems: Problem[]): DoctorReport["llm"] {
  try {
    const model = configuredModel(config?.model, configFile, env);
    return { configured: true, detail: `${model.provider}:${model.model} at ${model.baseUrl ?? "(provider default)"}, key from ${model.apiKeySource ?? "nowhere (none needed?)"}` };
  } catch (error) {
    const code = isMcpvmError(error) ? error.code : undefined;
    const message = errorMessage(error);
    if (code === "LLM_CONFIG_INVALID") {
      const fromEnv = (env.MCPVM_MODEL ?? "").trim() !== "" && message.startsWith("MCPVM_MODEL=");
      const [subject, next] = fromEnv ? ["MCPVM_MODEL", "fix MCPVM_MODEL: provider:model, e.g. openai-compatible:gpt-4o-mini"] : ["config.json", "fix the model section of config.json (docs/USAGE.md, Configuring a model)"];
      problems.push({ severity: "error", kind: "config", subject, message, next, code });
    } else if (code === "LLM_KEY_MISSING") {
      problems.push({ severity: "warning", kind: "config", subject: "LLM", message, next: "set the key's environment variable", code });
    }
    return { configured: false, detail: message };
  }
}

/** config.json `gateway`: valid (the gateway would refuse to start otherwise), and an OAuth resource set. */
export function gatewayProblems(config: Diagnosis["config"], problems: Problem[]): void {
  let settings;
  try {
    settings = parseGatewaySettings(config?.gateway, "config.json");
  } catch (error) {
    problems.push({ severity: "error", kind: "config", subject: "config.json", message: errorMessage(error), next: "fix the gateway section (docs/GATEWAY.md)", code: isMcpvmError(error) ? error.code : undefined });
    return;
  }
  if (settings.oauth !== undefined && settings.oauth.resource === undefined) {
    problems.push({
      severity: "warning",
      kind: "config",
      subject: "config.json",
      message: "gateway.oauth has no resource: access tokens must then carry the URL the gateway listens on, which is right only on loopback",
      next: "set gateway.oauth.resource to the URL clients reach the gateway at, then try a token with `mcpvm gateway oauth check -`",
      code: undefined,
    });
  }
}
