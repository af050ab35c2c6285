import { parseTelemetrySettings } from "./settings.js";
import { installTelemetry, NOOP_TELEMETRY, type Telemetry } from "./telemetry.js";

export interface StartTelemetryOptions {
  /** OTLP header values (usually API keys) are registered here so they never reach a log. */
  readonly addSecrets?: (secrets: readonly string[]) => void;
  readonly warn?: (message: string) => void;
}

/**
 * Reads the standard OTEL_* variables and, only when they ask for an export, imports the
 * OpenTelemetry SDK and installs it as the process's telemetry. Throws TelemetryConfigError
 * (CONFIG_TELEMETRY_INVALID, exit 3) on a malformed variable. The returned telemetry's shutdown
 * flushes and uninstalls it.
 */
export async function startTelemetry(env: Readonly<Record<string, string | undefined>>, options: StartTelemetryOptions = {}): Promise<Telemetry> {
  const settings = parseTelemetrySettings(env);
  if (settings === undefined) return NOOP_TELEMETRY;
  options.addSecrets?.(settings.secrets);
  const { createOtelTelemetry } = await import("./otel/otel-telemetry.js");
  const created = await createOtelTelemetry(settings, options.warn === undefined ? {} : { warn: options.warn });
  const uninstall = installTelemetry(created);
  return {
    ...created,
    shutdown: async () => {
      uninstall();
      await created.shutdown();
    },
  };
}
