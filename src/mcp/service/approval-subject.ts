import type { ApprovalSubject } from "../approval/index.js";
import type { McpServerEntry } from "../config/index.js";
import { scopeString } from "../config/oauth-schema.js";

/** What approval covers: the entry as configured (references unresolved), filters, confirm and description included. */
export function approvalSubject(name: string, entry: McpServerEntry): ApprovalSubject {
  return {
    name,
    transport: entry.type,
    ...(entry.command === undefined ? {} : { command: entry.command }),
    ...(entry.args === undefined ? {} : { args: entry.args }),
    ...(entry.env === undefined ? {} : { env: entry.env }),
    ...(entry.cwd === undefined ? {} : { cwd: entry.cwd }),
    ...(entry.url === undefined ? {} : { url: entry.url }),
    ...(entry.headers === undefined ? {} : { headers: entry.headers }),
    ...(entry.allowTools === undefined ? {} : { allowTools: entry.allowTools }),
    ...(entry.denyTools === undefined ? {} : { denyTools: entry.denyTools }),
    ...(entry.confirm === undefined ? {} : { confirm: entry.confirm }),
    ...(entry.description === undefined ? {} : { description: entry.description }),
    ...(entry.oauth === undefined ? {} : { oauth: oauthSubject(entry.oauth) }),
    ...(entry.roots === undefined ? {} : { roots: entry.roots }),
  };
}

function oauthSubject(oauth: NonNullable<McpServerEntry["oauth"]>): NonNullable<ApprovalSubject["oauth"]> {
  const scopes = scopeString(oauth.scopes);
  return {
    ...(oauth.grant === "client_credentials" ? { grant: oauth.grant } : {}),
    ...(oauth.clientId === undefined ? {} : { clientId: oauth.clientId }),
    ...(oauth.clientSecret === undefined ? {} : { clientSecret: oauth.clientSecret }),
    ...(oauth.privateKey === undefined ? {} : { privateKey: oauth.privateKey }),
    ...(oauth.privateKeyFile === undefined ? {} : { privateKeyFile: oauth.privateKeyFile }),
    ...(oauth.signingAlgorithm === undefined ? {} : { signingAlgorithm: oauth.signingAlgorithm }),
    ...(oauth.issuer === undefined ? {} : { issuer: oauth.issuer }),
    ...(scopes === undefined ? {} : { scopes }),
    ...(oauth.callbackPort === undefined ? {} : { callbackPort: oauth.callbackPort }),
    ...(oauth.clientMetadataUrl === undefined ? {} : { clientMetadataUrl: oauth.clientMetadataUrl }),
  };
}
