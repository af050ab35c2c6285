import { describe, expect, it } from "vitest";
import { isLikelySecret } from "../../../src/mcp/config/secret-values.js";

describe("isLikelySecret: which configured values are masked everywhere", () => {
  it.each([
    ["GITHUB_TOKEN", "ghp_abc"],
    ["Authorization", "Bearer xyz123"],
    ["X-Api-Key", "abcd"],
    ["DB_PASSWORD", "hunter2"],
    ["DATABASE_URL", "postgres://app:s3cret@db.internal:5432/app"],
    ["SOME_VALUE", "a8f3kq29dk3mz0qp7x"],
  ])("%s=%s is a secret", (name, value) => {
    expect(isLikelySecret(name, value)).toBe(true);
  });

  it.each([
    ["LOG_FORMAT", "text"],
    ["DEBUG", "true"],
    ["MODE", "production"],
    ["Accept", "application/json"],
    ["ROOT", "/home/me/projects/2026"],
    ["HOST", "mcp.example.com"],
    ["ENDPOINT", "https://api.example.com/v1"],
    ["API_KEY", "abc"],
  ])("%s=%s is not (masking it would break tools and logs)", (name, value) => {
    expect(isLikelySecret(name, value)).toBe(false);
  });
});
