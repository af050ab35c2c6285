import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EVERYTHING, MEMORY, childPids, expectRejection, managerFor, stdioLaunch, tempDir } from "./helpers.js";

/** The real reference servers from npm (devDependencies), started from node_modules over stdio. */
const memoryFile = join(tempDir(), "memory.jsonl");
const { manager } = managerFor([
  stdioLaunch("everything", process.execPath, [EVERYTHING, "stdio"]),
  stdioLaunch("memory", process.execPath, [MEMORY], { env: { MEMORY_FILE_PATH: memoryFile } }),
]);
const childrenBefore = childPids().length;

afterAll(async () => {
  await manager.closeAll();
  expect(childPids().length).toBe(childrenBefore);
});

describe("@modelcontextprotocol/server-everything", () => {
  it("lists its tools and echoes", async () => {
    const names = (await manager.listTools("everything")).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "get-sum", "get-structured-content", "get-tiny-image"]));
    expect(await manager.callTool("everything", "echo", { message: "hello" })).toBe("Echo: hello");
  });

  it("returns structuredContent when the tool has an outputSchema", async () => {
    expect(await manager.callTool("everything", "get-structured-content", { location: "Chicago" })).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
  });

  it("returns images as { mimeType, data: Uint8Array } among the other content items", async () => {
    const value = (await manager.callTool("everything", "get-tiny-image", {})) as unknown[];
    expect(value).toHaveLength(3);
    expect(value[0]).toBe("Here's the image you requested:");
    const image = value[1] as { type: string; mimeType: string; data: Uint8Array };
    expect(image.type).toBe("image");
    expect(image.mimeType).toBe("image/png");
    expect(image.data).toBeInstanceOf(Uint8Array);
    expect([...image.data.subarray(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
  });

  it("reports invalid arguments as a typed McpToolError naming server and tool", async () => {
    const error = await expectRejection(manager.callTool("everything", "get-sum", { a: "one", b: 2 }));
    expect(error.name).toBe("McpToolError");
    expect(error.message).toContain("everything.get-sum");
  });

  it("has not started server-memory, which nothing used yet", () => {
    expect(manager.status("memory").state).toBe("idle");
    expect(childPids().length).toBe(childrenBefore + 1);
  });
});

describe("@modelcontextprotocol/server-memory", () => {
  it("creates and reads back entities", async () => {
    await manager.callTool("memory", "create_entities", {
      entities: [{ name: "mcpvm", entityType: "project", observations: ["runs guest code"] }],
    });
    const graph = (await manager.callTool("memory", "read_graph", {})) as { entities: { name: string; observations: string[] }[] };
    expect(graph.entities).toEqual([expect.objectContaining({ name: "mcpvm", observations: ["runs guest code"] })]);
  });
});
