import { describe, expect, it } from "vitest";
import { renderApprovalPrompt } from "../../../src/mcp/approval/prompt.js";
import { weakSecrets, weakSecretWarning } from "../../../src/mcp/approval/weak-secrets.js";

const subject = {
  name: "vault",
  transport: "stdio" as const,
  command: "node",
  args: ["vault.js"],
  env: { PIN: "482915", DB_PASS: "hunter2hunter", LOG_FORMAT: "text", SMTP_PASS: "${SMTP_PASS}", CODE: "${DOOR_CODE:-1234}", DB_URL: "postgres://app:${DB_PW}@db/app" },
};

describe("weakSecrets: values masking cannot keep from guest code that guesses", () => {
  it("finds literal values that are digits only, short or one word; strong and public values pass", () => {
    expect(weakSecrets(subject)).toEqual([
      { field: "env.CODE", weakness: "digits", length: 4 },
      { field: "env.PIN", weakness: "digits", length: 6 },
    ]);
  });

  it("reads ${VAR} references from the environment it is given, and the variables inside a longer value", () => {
    expect(weakSecrets(subject, { SMTP_PASS: "mail", DOOR_CODE: "98765432", DB_PW: "secret" })).toEqual([
      { field: "env.CODE", weakness: "digits", length: 8 },
      { field: "env.DB_URL (${DB_PW})", weakness: "short", length: 6 },
      { field: "env.PIN", weakness: "digits", length: 6 },
      { field: "env.SMTP_PASS", weakness: "short", length: 4 },
    ]);
  });

  it("names a secret-named value too short to be masked at all", () => {
    expect(weakSecrets({ name: "s", transport: "http", url: "https://e.example/mcp", headers: { "X-Pin": "123", Accept: "text/html" } })).toEqual([
      { field: "headers.X-Pin", weakness: "unmasked", length: 3 },
    ]);
  });

  it("is a note in the approval prompt, which shows no value", () => {
    const prompt = renderApprovalPrompt(subject, "0".repeat(64), { SMTP_PASS: "mail" });
    expect(prompt).toContain("NOTE: env.CODE (4 characters) is digits only; env.PIN (6 characters) is digits only; env.SMTP_PASS (4 characters) is short.");
    expect(prompt).toContain("guest code can still guess a short, digits-only or one-word value");
    expect(prompt).not.toContain("482915");
    expect(prompt).not.toContain("hunter2hunter");
    expect(weakSecretWarning({ ...subject, env: { DB_PASS: "hunter2hunter" } })).toEqual([]);
  });
});
