import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { captureIo } from "../support/cli-io.js";

/** The native plugins through the whole stack: CLI approval and config, then guest code in the sandbox. */
describe("native plugins from guest code", () => {
  let root: string;
  let home: string;
  let data: string;
  let server: Server;
  let port: number;
  const env = () => ({ MCPVM_HOME: home, PATH: process.env.PATH });
  const cli = async (argv: string[], stdin = "") => {
    const io = captureIo(env(), stdin);
    const code = await runCli(argv, io);
    return { code, out: io.stdoutText(), err: io.stderrText() };
  };

  beforeAll(async () => {
    // The data folder sits beside the config home: a base directory inside it is refused.
    root = await mkdtemp(join(tmpdir(), "mcpvm-native-"));
    home = join(root, "home");
    data = join(root, "data");
    await mkdir(home);
    await mkdir(data);
    await writeFile(join(data, "notes.txt"), "first line\nsecond line\n");
    server = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end('{"hello":"sandbox"}'));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    for (const plugin of ["fs-read", "fs-write", "fetch"]) {
      expect((await cli(["plugin", "approve", plugin, "--yes"])).code).toBe(0);
    }
    expect((await cli(["plugin", "config", "fs-read", `baseDir=${data}`])).code).toBe(0);
    expect((await cli(["plugin", "config", "fs-write", `baseDir=${data}`])).code).toBe(0);
    // Loopback is refused by default; this test relaxes it for its own server only.
    expect((await cli(["plugin", "config", "fetch", 'allowDomains=["127.0.0.1"]', 'allowPrivateAddresses=["127.0.0.1"]'])).code).toBe(0);
    for (const plugin of ["fs-read", "fs-write", "fetch"]) expect((await cli(["plugin", "enable", plugin])).code).toBe(0);
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(root, { recursive: true, force: true });
  });

  it("reads and writes inside the jail and fetches from the allowed host", async () => {
    const script = `
      import { readFile, listDir } from "host:fs-read";
      const fsw = require("host:fs-write");
      fsw.mkdir("out");
      fsw.writeFile("out/summary.txt", readFile("notes.txt").split("\\n")[0].toUpperCase());
      const response = require("host:fetch").get("http://127.0.0.1:${port}/", { responseType: "json" });
      return { files: listDir("out").map((e) => e.name), summary: readFile("out/summary.txt"), body: response.body };`;
    const { code, out, err } = await cli(["run", "-"], script);
    expect(code, err).toBe(0);
    expect(JSON.parse(out)).toEqual({ files: ["summary.txt"], summary: "FIRST LINE", body: { hello: "sandbox" } });
  });

  it("refuses a path that leaves the base directory, without revealing host paths", async () => {
    const { code, err } = await cli(["run", "-"], 'return require("host:fs-read").readFile("../config.json");');
    expect(code).toBe(1);
    expect(err).toContain("[FS_OUTSIDE_BASE]");
    expect(err).toContain("cannot leave it");
    expect(err).not.toContain(home);
  });

  it("has no module for a plugin that is not enabled", async () => {
    expect((await cli(["plugin", "disable", "fetch"])).code).toBe(0);
    const { code, err } = await cli(["run", "-"], 'return require("host:fetch");');
    // PLUGIN_NOT_ENABLED: exit 5 like a disabled server (the plugin needs enabling, the script is fine).
    expect(code).toBe(5);
    expect(err).toMatch(/host:fetch/);
    expect((await cli(["plugin", "enable", "fetch"])).code).toBe(0);
  });
});
