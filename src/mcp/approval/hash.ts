import { createHash } from "node:crypto";
import type { McpConfirmMode } from "../config/confirm-mode.js";

/**
 * What an approval covers: the server's whole launch definition as configured. `${VAR}` and
 * `${input:id}` references are hashed as written, so approval happens before any secret is
 * resolved or prompted for, and a stored hash never depends on a secret's value.
 */
export interface ApprovalSubject {
  readonly name: string;
  readonly transport: "stdio" | "http" | "sse";
  readonly command?: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly url?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly allowTools?: readonly string[];
  readonly denyTools?: readonly string[];
  /** When the person is asked before a call: relaxing it must not ride on an old approval. */
  readonly confirm?: McpConfirmMode;
  /**
   * Text the model reads once the server is approved (often from an imported file): reviewed at
   * approval, so changing it must be approved again.
   */
  readonly description?: string;
  /**
   * The `oauth` block as configured (a clientSecret only by digest): changing the client id, the
   * scopes, the callback port or the metadata URL needs a new approval. Tokens are never part of it.
   */
  readonly oauth?: {
    readonly grant?: "client_credentials";
    readonly clientId?: string;
    readonly clientSecret?: string;
    /** As configured: a `${VAR}` reference (the schema refuses a key in clear). */
    readonly privateKey?: string;
    /** As configured (the path, not the key): approval pins where the key comes from. */
    readonly privateKeyFile?: string;
    readonly signingAlgorithm?: string;
    readonly issuer?: string;
    readonly scopes?: string;
    readonly callbackPort?: number;
    readonly clientMetadataUrl?: string;
  };
  /** The roots offered to this server alone: for server-filesystem, the folders it may touch. */
  readonly roots?: readonly string[];
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Length-prefixed fields make the encoding unambiguous: no choice of values can make two
 * different definitions encode to the same bytes (as naive joining with a separator would).
 */
function field(tag: string, value: string): string {
  return `${tag}:${Buffer.byteLength(value, "utf8")}:${value};`;
}

function list(tag: string, values: readonly string[] | undefined): string {
  if (values === undefined) return field(tag, "-");
  return field(tag, values.map((v) => field("i", v)).join(""));
}

function secretMap(tag: string, entries: Readonly<Record<string, string>> | undefined): string {
  if (entries === undefined) return field(tag, "-");
  const keys = Object.keys(entries).sort();
  // Names in clear (they are shown in the prompt); values only as digests.
  return field(tag, keys.map((k) => field("k", k) + field("v", sha256(entries[k] ?? ""))).join(""));
}

/**
 * `confirm` as encoded. An absent `confirm` was encoded "destructive" while that was the default,
 * and still is: approvals given then stay valid, and now confirm more than they did, never less.
 * An explicit "destructive" (today a relaxation of the default) therefore gets a tag of its own,
 * so that setting it needs a new approval.
 */
const CONFIRM_ENCODING: Readonly<Record<McpConfirmMode | "absent", string>> = {
  absent: "destructive",
  destructive: "destructive-explicit",
  writes: "writes",
  always: "always",
  never: "never",
};

function oauthField(oauth: NonNullable<ApprovalSubject["oauth"]>): string {
  return field(
    "oauth",
    [
      field("clientId", oauth.clientId ?? "-"),
      field("clientSecret", oauth.clientSecret === undefined ? "-" : sha256(oauth.clientSecret)),
      field("scopes", oauth.scopes ?? "-"),
      field("callbackPort", oauth.callbackPort === undefined ? "-" : String(oauth.callbackPort)),
      field("clientMetadataUrl", oauth.clientMetadataUrl ?? "-"),
      // Appended only for the client credentials grant: browser-login definitions keep their hash.
      oauth.grant === undefined
        ? ""
        : [
            field("grant", oauth.grant),
            field("privateKey", oauth.privateKey === undefined ? "-" : sha256(oauth.privateKey)),
            field("signingAlgorithm", oauth.signingAlgorithm ?? "-"),
            field("issuer", oauth.issuer ?? "-"),
            // Only when set: definitions without it keep the hash they were approved with.
            oauth.privateKeyFile === undefined ? "" : field("privateKeyFile", oauth.privateKeyFile),
          ].join(""),
    ].join(""),
  );
}

export function canonicalApprovalEncoding(subject: ApprovalSubject): string {
  return [
    field("v", "mcpvm-approval-2"),
    field("name", subject.name),
    field("transport", subject.transport),
    field("command", subject.command ?? "-"),
    list("args", subject.args),
    secretMap("env", subject.env),
    field("cwd", subject.cwd ?? "-"),
    field("url", subject.url ?? "-"),
    secretMap("headers", subject.headers),
    list("allow", subject.allowTools === undefined ? undefined : [...subject.allowTools].sort()),
    list("deny", subject.denyTools === undefined ? undefined : [...subject.denyTools].sort()),
    field("confirm", CONFIRM_ENCODING[subject.confirm ?? "absent"]),
    // Appended only when set, so definitions without a description keep the hash they were approved under.
    subject.description === undefined ? "" : field("description", subject.description),
    // Likewise appended only when set: definitions without OAuth settings keep their hash.
    subject.oauth === undefined ? "" : oauthField(subject.oauth),
    // Likewise: definitions without their own roots keep their hash.
    subject.roots === undefined ? "" : list("roots", subject.roots),
  ].join("");
}

export function approvalHash(subject: ApprovalSubject): string {
  return sha256(canonicalApprovalEncoding(subject));
}
