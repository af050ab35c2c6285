import type { McpvmError } from "../../util/errors.js";
import { isUnauthorized, loginStepFailure, oauthFailure } from "../oauth/failure.js";
import type { LoginDriver } from "./options.js";
import type { OpenedTransport } from "./transports.js";

/** oauthFailure, then put in the words of the server's grant (client credentials have no login to run). */
export function grantFailure(error: unknown, server: string, deps: { readonly redact: (text: string) => string }, login: LoginDriver | undefined): McpvmError | undefined {
  // The authorization server discovery found, to name it (a browser login's provider keeps it; sync here).
  const discovery = login?.provider.discoveryState?.();
  const authorizationServer = discovery instanceof Promise ? undefined : discovery?.authorizationServerUrl;
  const failure = oauthFailure(error, server, deps.redact, authorizationServer);
  return failure === undefined || login?.explainFailure === undefined ? failure : login.explainFailure(failure);
}

/** Browser logins one connect or call may go through (a 401, then a 403 step-up) before giving up. */
export const MAX_LOGIN_ROUNDS = 2;

/** The browser part of a login: the authorization code's parameters, or undefined when none is possible. */
export async function completeLogin(server: string, login: LoginDriver, redact: (text: string) => string): Promise<URLSearchParams | undefined> {
  try {
    return await login.completeLogin();
  } catch (error) {
    throw loginStepFailure(error, server, redact);
  }
}

/** The SDK exchanges the code (checking `iss` first) and stores the tokens through the provider. */
export async function finishLogin(server: string, opened: OpenedTransport, params: URLSearchParams, redact: (text: string) => string): Promise<void> {
  try {
    if (opened.finishAuth === undefined) throw new Error("internal: no OAuth provider on this transport");
    await opened.finishAuth(params);
  } catch (error) {
    throw loginStepFailure(error, server, redact);
  }
}

/**
 * A request that the server refused for want of a login (an expired session, a 403 step-up to a
 * wider scope): the browser login runs and the request is sent again, at most MAX_LOGIN_ROUNDS
 * times. The server refused the request, so it did not run; sending it again is safe.
 */
export async function retryAfterLogin<T>(server: string, login: LoginDriver, opened: OpenedTransport, redact: (text: string) => string, request: () => Promise<T>): Promise<T> {
  login.beginOperation();
  for (let round = 0; ; round++) {
    try {
      return await request();
    } catch (error) {
      if (round >= MAX_LOGIN_ROUNDS || !isUnauthorized(error)) throw error;
      const params = await completeLogin(server, login, redact);
      if (params === undefined) throw error;
      await finishLogin(server, opened, params, redact);
    }
  }
}
