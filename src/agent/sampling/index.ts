export { samplingHook, SAMPLING_REJECTED, type SamplingHook, type SamplingHookOptions, type SamplingPerson } from "./hook.js";
export { decideSampling, deniedMessage, type SamplingDecision, type SamplingRefusal } from "./decide.js";
export { grantedMaxTokens, renderSamplingRequest, viewSamplingRequest, type SamplingParams, type SamplingView } from "./request-view.js";
export { stopReasonOf, toModelMessages } from "./to-model-messages.js";
