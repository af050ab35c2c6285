import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, it, expect } from "vitest";
import { buildChildEnv } from "../../../src/mcp/config/index.js";

const host = {
  PATH: "/usr/bin:/bin",
  HOME: "/home/u",
  USER: "u",
  LOGNAME: "u",
  SHELL: "/bin/bash",
  TERM: "xterm-256color",
  LANG: "en_GB.UTF-8",
  LC_ALL: "en_GB.UTF-8",
  LC_TIME: "C",
  TMPDIR: "/tmp",
  TZ: "Europe/London",
  NODE_EXTRA_CA_CERTS: "/etc/ssl/corp.pem",
  GITHUB_TOKEN: "ghp_host_secret",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  OPENAI_API_KEY: "sk-secret",
  NODE_OPTIONS: "--require /tmp/evil.js",
  NODE_ENV: "production",
  HTTPS_PROXY: "http://user:pass@proxy:8080",
  MCPVM_HOME: "/home/u/.mcpvm",
  BASH_FUNC_x: "() { echo pwned; }",
  UNSET: undefined,
};

describe("buildChildEnv: the environment of a stdio MCP server", () => {
  it("inherits only the allowlist and none of the host's secrets", () => {
    expect(buildChildEnv(host, {}, "linux")).toEqual({
      PATH: "/usr/bin:/bin",
      HOME: "/home/u",
      USER: "u",
      LOGNAME: "u",
      SHELL: "/bin/bash",
      TERM: "xterm-256color",
      LANG: "en_GB.UTF-8",
      LC_ALL: "en_GB.UTF-8",
      LC_TIME: "C",
      TMPDIR: "/tmp",
      TZ: "Europe/London",
      NODE_EXTRA_CA_CERTS: "/etc/ssl/corp.pem",
    });
  });

  it("adds the configured env, which wins over an inherited value", () => {
    const env = buildChildEnv(host, { GITHUB_TOKEN: "ghp_configured", PATH: "/opt/bin" }, "linux");
    expect(env.GITHUB_TOKEN).toBe("ghp_configured");
    expect(env.PATH).toBe("/opt/bin");
  });

  it("skips an allowlisted variable that holds an exported shell function", () => {
    expect(buildChildEnv({ PATH: "/bin", TERM: "() { :; }; echo pwned" }, {}, "linux")).toEqual({ PATH: "/bin" });
  });

  it("on Windows keeps what processes need and compares names case-insensitively", () => {
    const windowsHost = { Path: "C:\\Windows", SystemRoot: "C:\\Windows", COMSPEC: "cmd.exe", USERPROFILE: "C:\\Users\\u", APPDATA: "C:\\Users\\u\\AppData\\Roaming", GITHUB_TOKEN: "t" };
    expect(buildChildEnv(windowsHost, {}, "win32")).toEqual({
      Path: "C:\\Windows",
      SystemRoot: "C:\\Windows",
      COMSPEC: "cmd.exe",
      USERPROFILE: "C:\\Users\\u",
      APPDATA: "C:\\Users\\u\\AppData\\Roaming",
    });
    expect(buildChildEnv(windowsHost, { PATH: "D:\\bin" }, "win32")).toEqual({
      SystemRoot: "C:\\Windows",
      COMSPEC: "cmd.exe",
      USERPROFILE: "C:\\Users\\u",
      APPDATA: "C:\\Users\\u\\AppData\\Roaming",
      PATH: "D:\\bin",
    });
  });

  it("does not inherit Windows-only names on other systems", () => {
    expect(buildChildEnv({ SystemRoot: "C:\\Windows", PATH: "/bin" }, {}, "linux")).toEqual({ PATH: "/bin" });
  });
});

describe("a real child process started with buildChildEnv", () => {
  it("sees the allowlist and its configured env, not the host's secrets", async () => {
    const hostEnv = { ...process.env, GITHUB_TOKEN: "ghp_host_secret", OPENAI_API_KEY: "sk-secret", NODE_OPTIONS: "" };
    const env = buildChildEnv(hostEnv, { SERVER_MODE: "test" }, process.platform);
    const { stdout } = await promisify(execFile)(process.execPath, ["-e", "process.stdout.write(JSON.stringify(process.env))"], { env, timeout: 10_000 });
    const seen = JSON.parse(stdout) as Record<string, string>;
    expect(seen.SERVER_MODE).toBe("test");
    expect(seen.GITHUB_TOKEN).toBeUndefined();
    expect(seen.OPENAI_API_KEY).toBeUndefined();
    expect(Object.keys(seen).filter((name) => name.startsWith("NODE_") && name !== "NODE_EXTRA_CA_CERTS")).toEqual([]);
    expect(Object.keys(seen).sort()).toEqual(Object.keys(env).sort());
  });
});
