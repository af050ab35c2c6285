import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cli, filesystemServer, makeHome, type E2eHome } from "../e2e/helpers.js";

/**
 * A stdio server that runs @modelcontextprotocol/server-filesystem without roots of its own is
 * offered the folder a run starts in (or a gateway client's roots) and takes them as its allowed
 * folders (docs/MCP.md, Roots): run from / it could read /etc/passwd. doctor warns (exit 0: a
 * warning), naming the roots to add or the re-add that writes them. Real homes, the real CLI.
 */

interface Problem {
  severity: string;
  kind: string;
  subject: string;
  message: string;
  next?: string;
}

const homes: E2eHome[] = [];
afterEach(async () => {
  await Promise.all(homes.splice(0).map((h) => h.cleanup()));
});

async function doctor(servers: (dir: string) => Record<string, Record<string, unknown>>): Promise<{ code: number; problems: Problem[]; dir: string; text: string }> {
  const h = await makeHome({ servers: servers });
  homes.push(h);
  const json = await cli(h, ["--json", "doctor"]);
  const text = await cli(h, ["doctor"]);
  return { code: json.code, problems: (JSON.parse(json.stdout) as { problems: Problem[] }).problems, dir: h.dir, text: text.stdout };
}

describe("doctor and server-filesystem without its own roots", () => {
  it("warns for the node and the npx forms, with the roots to add and the re-add; exit 0", async () => {
    const { code, problems, dir, text } = await doctor((home) => ({
      files: filesystemServer(join(home, "data")),
      docs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/srv/docs", "/srv/more"] },
    }));
    expect(problems.filter((p) => p.severity === "error")).toEqual([]);
    expect(code).toBe(0);
    const files = problems.find((p) => p.subject === "server files" && p.message.includes("roots"));
    expect(files).toMatchObject({ severity: "warning", kind: "config" });
    expect(files?.message).toContain("runs @modelcontextprotocol/server-filesystem with no \"roots\" of its own");
    expect(files?.message).toContain("/etc/passwd");
    expect(files?.next).toContain(`"roots": ["${join(dir, "data")}"]`);
    expect(files?.next).toContain(`mcpvm mcp add filesystem --as files --dir ${join(dir, "data")} --overwrite`);
    expect(files?.next).toContain("mcpvm mcp approve files");
    const docs = problems.find((p) => p.subject === "server docs" && p.message.includes("roots"));
    expect(docs?.next).toContain('"roots": ["/srv/docs", "/srv/more"]');
    expect(text).toContain("! server files: files runs @modelcontextprotocol/server-filesystem");
  });

  it("says nothing when the entry has roots (even []), or when the server is another one", async () => {
    const { problems } = await doctor((home) => ({
      files: { ...filesystemServer(join(home, "data")), roots: [join(home, "data")] },
      none: { ...filesystemServer(join(home, "data")), roots: [] },
      other: { command: process.execPath, args: [join(home, "server-filesystem-notes.md")] },
    }));
    expect(problems.filter((p) => p.message.includes("server-filesystem"))).toEqual([]);
  });
});
