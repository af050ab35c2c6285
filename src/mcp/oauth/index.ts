export { browserOpener, type BrowserOpener } from "./browser.js";
export { loginCommand, loginRequired, McpOAuthError, type McpOAuthErrorCode } from "./errors.js";
export { loginSubject } from "./identity.js";
export type { LoginInteraction } from "./interaction.js";
export { OAuthLogins, type LoginStatus, type LoginTarget } from "./logins.js";
export type { RevocationOutcome } from "./revoke.js";
export { OAuthTokenStore } from "./token-store.js";
export type { LoginEvent } from "./provider.js";
