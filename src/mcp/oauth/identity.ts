/** What to call the account a login is for, read from the id token (or a JWT access token); display only, never trusted. */
export function loginSubject(tokens: { readonly id_token?: string | undefined; readonly access_token: string }): string | undefined {
  for (const token of [tokens.id_token, tokens.access_token]) {
    const claims = token === undefined ? undefined : jwtClaims(token);
    if (claims === undefined) continue;
    for (const key of ["email", "preferred_username", "name", "sub"]) {
      const value = claims[key];
      if (typeof value === "string" && value !== "") return value;
    }
  }
  return undefined;
}

function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split(".");
  if (parts.length !== 3 || parts[1] === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
