import { createPrivateKey, type KeyObject } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { McpOAuthError } from "./errors.js";

/** What createPrivateKeyJwtAuth (the SDK's private_key_jwt) signs with. */
export interface SigningKey {
  /** PKCS#8 PEM, or a JWK object. */
  readonly key: string | Record<string, unknown>;
  readonly algorithm: string;
}

const CURVE_ALGORITHMS: Readonly<Record<string, string>> = { prime256v1: "ES256", "P-256": "ES256", secp384r1: "ES384", "P-384": "ES384", secp521r1: "ES512", "P-521": "ES512" };

/** The algorithm a key signs with when the config names none: the one its type allows (RSA: RS256). */
function keyAlgorithm(key: KeyObject): string | undefined {
  switch (key.asymmetricKeyType) {
    case "rsa":
      return "RS256";
    case "rsa-pss":
      return "PS256";
    case "ec":
      return CURVE_ALGORITHMS[key.asymmetricKeyDetails?.namedCurve ?? ""];
    case "ed25519":
      return "EdDSA";
    default:
      return undefined;
  }
}

/** Whether the key can sign with the algorithm (RS* with RSA, PS* with RSA or RSA-PSS, ES* with its curve, EdDSA with Ed25519). */
function fits(algorithm: string, key: KeyObject): boolean {
  if (algorithm.startsWith("RS")) return key.asymmetricKeyType === "rsa";
  if (algorithm.startsWith("PS")) return key.asymmetricKeyType === "rsa" || key.asymmetricKeyType === "rsa-pss";
  if (algorithm === "EdDSA") return key.asymmetricKeyType === "ed25519";
  return key.asymmetricKeyType === "ec" && keyAlgorithm(key) === algorithm;
}

/** Where the key came from, for messages: the setting, and what to change. */
export interface KeySource {
  readonly field: string;
  readonly fix: string;
}

const VARIABLE_SOURCE: KeySource = { field: "oauth.privateKey", fix: "Set the variable it names to" };

/**
 * The configured private key, checked before anything is sent: a PEM private key of any usual
 * encoding (PKCS#8, PKCS#1 RSA, SEC1 EC; converted to the PKCS#8 the SDK reads) or a private JWK as
 * JSON. A key that does not parse, a public key, or an algorithm the key cannot sign with is a
 * config error that names the server and the setting; the key itself is never quoted.
 */
export function signingKey(server: string, text: string, configured: string | undefined, source: KeySource = VARIABLE_SOURCE): SigningKey {
  const refuse = (why: string) =>
    new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: ${source.field} ${why}. ${source.fix} the client's private key (PEM, or a private JWK as JSON).`, {
      data: { server, field: source.field },
    });
  const trimmed = text.trim();
  let key: KeyObject;
  let jwk: Record<string, unknown> | undefined;
  try {
    if (trimmed.startsWith("{")) {
      jwk = JSON.parse(trimmed) as Record<string, unknown>;
      key = createPrivateKey({ key: jwk as never, format: "jwk" });
    } else key = createPrivateKey(trimmed);
  } catch {
    throw refuse(trimmed.includes("PUBLIC KEY") ? "is a public key, not the private key" : "is not a private key mcpvm can read");
  }
  const natural = typeof jwk?.alg === "string" ? jwk.alg : keyAlgorithm(key);
  const algorithm = configured ?? natural;
  if (algorithm === undefined) throw refuse(`is a ${key.asymmetricKeyType ?? "unknown"} key, which no JWS algorithm mcpvm supports signs with`);
  if (configured !== undefined && !fits(configured, key)) {
    throw new McpOAuthError(
      "MCP_OAUTH_FAILED",
      `server ${server}: oauth.signingAlgorithm ${configured} does not fit the key in ${source.field} (a ${key.asymmetricKeyType ?? "unknown"} key${natural === undefined ? "" : `, which signs with ${natural}`}). ${natural === undefined ? "Remove oauth.signingAlgorithm" : `Set it to ${natural}, or remove it`}.`,
      { data: { server, field: "oauth.signingAlgorithm" } },
    );
  }
  return { key: jwk ?? (key.export({ type: "pkcs8", format: "pem" }) as string), algorithm };
}

/**
 * oauth.privateKeyFile, read at each use so that a rotated key is picked up. A key file other users
 * may read (or write) is refused before it is read: the key authenticates the client with no person
 * in the loop, so anyone who can read it can act as the client.
 */
export async function signingKeyFromFile(server: string, path: string, configured: string | undefined): Promise<SigningKey> {
  const source: KeySource = { field: `oauth.privateKeyFile (${path})`, fix: "Point it at a file holding" };
  const fail = (why: string, fix: string) => new McpOAuthError("MCP_OAUTH_FAILED", `server ${server}: oauth.privateKeyFile ${path} ${why}. ${fix}`, { data: { server, field: "oauth.privateKeyFile", path } });
  let text: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw fail("is not a file", "Point oauth.privateKeyFile at the key file (PEM, or a private JWK as JSON).");
    if ((info.mode & 0o006) !== 0) {
      const mode = (info.mode & 0o777).toString(8).padStart(3, "0");
      throw fail(`can be ${(info.mode & 0o004) !== 0 ? "read" : "written"} by every user on this machine (mode ${mode}); it was not used`, `Restrict it with \`chmod 600 ${path}\` (and rotate the key if others may have read it).`);
    }
    text = await readFile(path, "utf8");
  } catch (error) {
    if (error instanceof McpOAuthError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw fail(code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? "error"})`, "Check the path in the server's entry in config.json and the file's permissions.");
  }
  return signingKey(server, text, configured, source);
}
