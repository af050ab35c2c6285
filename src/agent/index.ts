export { runRepl, ManualInterrupts, processInterrupts, type ReplOptions, type InterruptSource } from "./repl/index.js";
export { AGENT_TOOL_NAMES, buildAgentTools, type AgentToolContext, type PersonInteraction } from "./tools/index.js";
export { buildSystemMessage, type SystemMessageInput } from "./system-message.js";
export { applyProfiles, availableProfiles, stackProfiles, profileSchema, ProfileError, type ApplyReport, type NamedProfile, type Profile, type StackedProfile } from "./profiles/index.js";
