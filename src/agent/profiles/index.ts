export { profileSchema, profileNameSchema, userProfilesSchema, ProfileError, type Profile, type ProfileInput, type NamedProfile } from "./schema.js";
export { builtinProfiles } from "./builtin.js";
export { stackProfiles, type StackedProfile } from "./stack.js";
export { availableProfiles, findProfiles, activeProfiles } from "./catalog.js";
export { applyProfiles, type ApplyReport, type ProfileTarget } from "./apply.js";
export { profileStateSchema, profileStateStore, restoreEnv, overrideEnv, type ProfileState } from "./env-state.js";
