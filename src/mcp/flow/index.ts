export { TaintIndex, WINDOW, STRIDE, MIN_WHOLE, MAX_INDEXED_CHARS, type TaintMatch } from "./taint.js";
export { DEFAULT_FLOW_POLICY, FlowPolicyError, flowPolicySchema, isFlowSink, judgeFlow, parseFlowPolicy, type FlowPolicy, type FlowVerdict } from "./policy.js";
export { guardFlow, McpFlowError, runFlows, type AskFlow, type FlowGuardOptions, type FlowRequest, type RunFlows } from "./guard.js";
