import { AuthorizationServerMismatchError, OAuthError, SdkError, SdkErrorCode, UnauthorizedError } from "@modelcontextprotocol/client";
import { errorMessage, isMcpvmError, type McpvmError } from "../../util/errors.js";
import { loginRequired, McpOAuthError } from "./errors.js";

const AUTH_SEAM = Symbol.for("mcp.authSeamEscape");

/** The SDK marks every error that escaped its transports' auth path (discovery, registration, tokens, step-up). */
function fromAuthSeam(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[AUTH_SEAM] === true;
}

/** Whether the SDK gave up because a browser login is (still) needed: it threw after redirectToAuthorization. */
export function isUnauthorized(error: unknown): boolean {
  return error instanceof UnauthorizedError;
}

/**
 * An error of the OAuth flow in mcpvm's words, naming the server; undefined when the error has
 * nothing to do with OAuth (the caller's own classification applies then).
 */
export function oauthFailure(error: unknown, server: string, redact: (text: string) => string, authorizationServer?: string): McpvmError | undefined {
  if (error instanceof McpOAuthError) return error;
  // bounded-fetch.ts wraps its refusal in a TypeError so that the SDK passes it on.
  if (error instanceof TypeError && error.cause instanceof McpOAuthError) return error.cause;
  if (isMcpvmError(error)) return undefined;
  const text = redact(errorMessage(error));
  if (error instanceof UnauthorizedError) return loginRequired(server, "the server refused its credentials");
  if (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpForbidden && fromAuthSeam(error)) {
    return new McpOAuthError("MCP_OAUTH_LOOP", `server ${server} still answers 403 insufficient_scope after logging in with the wider scope (${text}); stopped. Check which scopes your account may have.`, { data: { server } });
  }
  if (error instanceof SdkError && error.code === SdkErrorCode.ClientHttpAuthentication) {
    return loginRequired(server, "the server still answers 401 with the new login");
  }
  if (error instanceof AuthorizationServerMismatchError) {
    return new McpOAuthError(
      "MCP_OAUTH_FAILED",
      `server ${server} now names the authorization server ${error.currentIssuer}, but its client credentials belong to ${error.recordedIssuer} (oauth.issuer, or the one they were first used with); they were not sent. If the server really moved, set oauth.issuer to the new one (or run \`mcpvm mcp logout ${server}\` to forget the old binding).`,
      { data: { server, recordedIssuer: error.recordedIssuer, currentIssuer: error.currentIssuer }, cause: error },
    );
  }
  if (error instanceof OAuthError) {
    return new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: the authorization server answered ${error.code}: ${text}. Run \`mcpvm mcp login ${server}\` to try again.`, { data: { server, oauthError: error.code }, cause: error });
  }
  // The SDK's plain Error when no client id is configured and the server cannot register one: the
  // person needs to know that a client must be registered by hand, and where its id goes.
  if (error instanceof Error && /does not support dynamic client registration/i.test(error.message)) return noRegistration(server, authorizationServer, error);
  if (!fromAuthSeam(error)) return undefined;
  return new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: login failed: ${text}`, { data: { server }, cause: error });
}

/** Port suggested for a client registered by hand: the redirect URI must be fixed to be registered (Claude Code's default too). */
const SUGGESTED_CALLBACK_PORT = 33418;

function noRegistration(server: string, authorizationServer: string | undefined, cause: Error): McpOAuthError {
  const where = authorizationServer === undefined ? "its authorization server" : `the authorization server ${authorizationServer}`;
  return new McpOAuthError(
    "MCP_OAUTH_FAILED",
    `server ${server}: ${where} does not register clients itself (no Dynamic Client Registration), and config.json names no client for ${server}. ` +
      `Register a client there (a public client with PKCE; redirect URI http://127.0.0.1:${SUGGESTED_CALLBACK_PORT}/callback), put "oauth": {"clientId": "<its client id>", "callbackPort": ${SUGGESTED_CALLBACK_PORT}} in the entry of ${server} under mcpServers in config.json, ` +
      `then run \`mcpvm mcp approve ${server}\` and \`mcpvm mcp login ${server}\`.`,
    { data: { server, ...(authorizationServer === undefined ? {} : { authorizationServer }) }, cause },
  );
}

/** Anything that went wrong inside the login step itself (browser, redirect, code exchange) is an OAuth failure of this server. */
export function loginStepFailure(error: unknown, server: string, redact: (text: string) => string): McpvmError {
  const known = oauthFailure(error, server, redact);
  if (known !== undefined) return known;
  if (isMcpvmError(error)) return error;
  return new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: login failed: ${redact(errorMessage(error))}`, { data: { server }, cause: error });
}
