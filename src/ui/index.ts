export { startUi, type RunningUi, type StartUiOptions } from "./start-ui.js";
export type { UiBridge } from "./bridge.js";
export { guardRequest, TOKEN_HEADER } from "./request-guard.js";
