import { displayInline } from "../../terminal/display.js";
import { renderEvidence } from "../audit/index.js";
import { DEFAULT_CONFIRM_MODE, type McpConfirmMode } from "../config/confirm-mode.js";
import { reviewDescription } from "./description.js";
import type { ApprovalSubject } from "./hash.js";
import { auditLaunchEnv, shownConfigValue } from "./launch-env.js";
import { weakSecretWarning } from "./weak-secrets.js";

export const NOT_SANDBOXED_WARNING =
  "This server runs as an ordinary OS process (or remote service) with YOUR permissions. The mcpvm sandbox isolates guest code, not MCP servers.";

/**
 * The text shown before a server may start: the command and args verbatim, env names with secret
 * values masked (references as written, code-loading variables and values that are not secret shown in full), the
 * URL and header names. One function, so the CLI, the REPL and the model-facing refusal all show
 * exactly the same thing. Every config string goes through displayInline: a name or URL holding
 * escape sequences could otherwise repaint the lines above it (the `url:` a token goes to).
 */
export function renderApprovalPrompt(subject: ApprovalSubject, hash: string, env?: Readonly<Record<string, string | undefined>>): string {
  const show = displayInline;
  const lines = [`MCP server "${show(subject.name)}" (${subject.transport}) asks to be approved.`];
  if (subject.transport === "stdio") {
    lines.push(`  command: ${show(JSON.stringify(subject.command ?? ""))}`);
    lines.push(`  args:    ${show(JSON.stringify(subject.args ?? []))}`);
    if (subject.cwd !== undefined) lines.push(`  cwd:     ${show(JSON.stringify(subject.cwd))}`);
    if (subject.roots !== undefined) lines.push(`  roots:   ${show(JSON.stringify(subject.roots))}`);
    const env = Object.entries(subject.env ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
    lines.push(`  env:     ${env.length === 0 ? "(none)" : env.map(([k, v]) => `${show(k)}=${show(shownConfigValue(k, v, "env"))}`).join(" ")}`);
    const findings = auditLaunchEnv(subject.env);
    if (findings.length > 0) {
      lines.push(
        `  WARNING: ${findings.map((f) => show(f.name)).join(", ")} change${findings.length === 1 ? "s" : ""} which code the server runs (values shown in full).`,
        "           Approve only if you expect this: it takes --accept-launch-env, or typing the server name on a terminal.",
      );
    }
  } else {
    lines.push(`  url:     ${show(subject.url ?? "")}`);
    if (subject.roots !== undefined) lines.push(`  roots:   ${show(JSON.stringify(subject.roots))}`);
    const headers = Object.entries(subject.headers ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
    lines.push(`  headers: ${headers.length === 0 ? "(none)" : headers.map(([k, v]) => `${show(k)}: ${show(shownConfigValue(k, v, "header"))}`).join(", ")}`);
    if (subject.oauth !== undefined) lines.push(`  oauth:   ${describeOAuth(subject.oauth)}`);
  }
  // Secrets masking cannot protect (short, digits only): `env` resolves ${VAR} references to check them too.
  lines.push(...weakSecretWarning(subject, env));
  if (subject.allowTools !== undefined) lines.push(`  allowTools: ${subject.allowTools.map(show).join(", ")}`);
  if (subject.denyTools !== undefined) lines.push(`  denyTools:  ${subject.denyTools.map(show).join(", ")}`);
  lines.push(`  confirm:   ${describeConfirm(subject.confirm ?? DEFAULT_CONFIRM_MODE)}`);
  lines.push(...describeDescription(subject.description));
  lines.push(`  definition hash: ${hash.slice(0, 16)}…`);
  lines.push("");
  lines.push(`WARNING: ${NOT_SANDBOXED_WARNING}`);
  return lines.join("\n");
}

function describeConfirm(mode: McpConfirmMode): string {
  switch (mode) {
    case "never":
      return "never — calls run without asking, even tools that change, send or delete things";
    case "always":
      return "always — every call is confirmed";
    case "destructive":
      return "destructive — only calls to tools that may delete or overwrite are confirmed; tools the server marks non-destructive (send, post, create, upload) run without asking";
    case "writes":
      return "writes — calls to tools the server does not mark read-only are confirmed";
  }
}

/**
 * The description in full (the model reads it once the server is approved) and its audit findings;
 * block-level ones keep it from the model for good. Evidence is rendered like a tool's findings.
 */
function describeDescription(description: string | undefined): string[] {
  if (description === undefined) return [];
  const review = reviewDescription(description);
  const shown = `  description: ${displayInline(JSON.stringify(description))}`;
  const serious = review.findings.filter((f) => f.severity !== "info");
  if (serious.length === 0) return [`${shown} (the model reads it once the server is approved)`];
  const lines = [shown, "  WARNING: the description has audit findings:"];
  for (const f of serious) lines.push(`    ${f.severity} ${f.rule}: ${displayInline(renderEvidence(f.evidence))}`);
  lines.push(
    review.heldFromModel
      ? "           The model never reads this description (block-level findings), even once the server is approved."
      : "           The model reads this description once the server is approved.",
  );
  return lines;
}

function describeOAuth(oauth: NonNullable<ApprovalSubject["oauth"]>): string {
  const parts = [
    ...(oauth.grant === undefined ? [] : ["client credentials grant (no browser)"]),
    `client id ${oauth.clientId === undefined ? "(registered at login)" : displayInline(oauth.clientId)}`,
    ...(oauth.clientSecret === undefined ? [] : [`client secret ${displayInline(shownConfigValue("clientSecret", oauth.clientSecret, "header"))}`]),
    ...(oauth.privateKey === undefined ? [] : [`private key ${displayInline(shownConfigValue("privateKey", oauth.privateKey, "header"))}${oauth.signingAlgorithm === undefined ? "" : ` (${oauth.signingAlgorithm})`}`]),
    ...(oauth.privateKeyFile === undefined ? [] : [`private key file ${displayInline(oauth.privateKeyFile)}${oauth.signingAlgorithm === undefined ? "" : ` (${oauth.signingAlgorithm})`}`]),
    ...(oauth.issuer === undefined ? [] : [`authorization server ${displayInline(oauth.issuer)}`]),
    ...(oauth.scopes === undefined ? [] : [`scopes ${displayInline(oauth.scopes)}`]),
    ...(oauth.callbackPort === undefined ? [] : [`callback port ${oauth.callbackPort}`]),
    ...(oauth.clientMetadataUrl === undefined ? [] : [`client metadata ${displayInline(oauth.clientMetadataUrl)}`]),
  ];
  return parts.join(", ");
}
