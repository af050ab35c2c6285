export { ATTR, METRIC, SPAN } from "./names.js";
export { parseTelemetrySettings, TelemetryConfigError, type TelemetrySettings } from "./settings.js";
export { startTelemetry, type StartTelemetryOptions } from "./start.js";
export { NOOP_TELEMETRY, telemetry, type Outcome, type SpanScope, type Telemetry } from "./telemetry.js";
