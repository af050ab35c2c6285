/**
 * The gateway's container image, built from the real Dockerfile and run the way docs/DEPLOY.md says:
 * read-only root, non-root, the config home and the admin token mounted read-only, a real stdio MCP
 * server (server-everything, installed at build time by deploy/image/with-servers.Dockerfile) called
 * through the gateway, and SIGTERM draining a call in flight before exit 0.
 *
 * Minutes of work, so only behind `npm run test:image` (MCPVM_IMAGE_TEST=1); without a container
 * engine, or a Node base image it can get, the suite is skipped and its title says why.
 * MCPVM_NODE_IMAGE picks the base; without Docker Hub, deploy/image/node-base.sh makes a stand-in.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { parse } from "yaml";
import { docker, dockerOk, extraCaCerts, hasBridgeNetwork, planImageTest, STAND_IN_NODE_IMAGE } from "./docker.js";

const ROOT = resolve(import.meta.dirname, "../..");
const plan = planImageTest();
// Asked for by name (npm run test:image) but cannot run here: say why, not just "skipped".
if (plan.skip !== undefined && process.env.MCPVM_IMAGE_TEST === "1") console.warn(`tests/deploy/image.test.ts skipped: ${plan.skip}`);
const RUN_ID = `${process.pid}-${Date.now().toString(36)}`;
const IMAGE = `mcpvm:image-test`;
const SERVERS_IMAGE = `mcpvm-servers:image-test`;
const ADMIN_TOKEN = randomBytes(24).toString("hex");
const MINUTE = 60_000;

/** Measured along the way and printed at the end (recorded in docs/DEPLOY.md). */
const figures: Record<string, string | number> = {};

function firstText(result: unknown): string {
  const content = (result as { content?: Array<{ type: string; text?: string }> }).content;
  return content?.[0]?.type === "text" ? (content[0].text ?? "") : "";
}

async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

describe.skipIf(plan.skip !== undefined)(`container image (Dockerfile, docs/DEPLOY.md)${plan.skip === undefined ? "" : ` — skipped: ${plan.skip}`}`, () => {
  let nodeImage = plan.nodeImage as string;
  let work: string;
  let home: string;
  let tokenFile: string;
  let aliceToken: string;
  const containers: string[] = [];

  /** `docker run --rm` of the servers image against the writable home, as the image's user: how a team prepares the home. */
  async function mcpvm(...args: string[]): Promise<string> {
    const result = await dockerOk(["run", "--rm", "--network", "none", "-v", `${home}:/home/mcpvm/.mcpvm`, SERVERS_IMAGE, ...args], 2 * MINUTE);
    return result.out;
  }

  /** As root inside the image (chown, cleanup): the host user may not be root, only allowed to use the engine. */
  async function asRoot(...command: string[]): Promise<void> {
    await dockerOk(["run", "--rm", "--network", "none", "--user", "0:0", "-v", `${work}:/work`, "--entrypoint", command[0] as string, IMAGE, ...command.slice(1)], MINUTE);
  }

  beforeAll(async () => {
    if (nodeImage === "build-stand-in") {
      const started = Date.now();
      const { execFile } = await import("node:child_process");
      await new Promise<void>((done, fail) =>
        execFile("sh", [join(ROOT, "deploy/image/node-base.sh"), STAND_IN_NODE_IMAGE], { timeout: 20 * MINUTE, maxBuffer: 16 * 1024 * 1024 }, (error, _out, err) => (error === null ? done() : fail(new Error(`node-base.sh failed: ${err}`)))),
      );
      figures["stand-in base built in (s)"] = Math.round((Date.now() - started) / 1000);
      nodeImage = STAND_IN_NODE_IMAGE;
    }
    figures["node image"] = nodeImage;
    // The real Dockerfile; the build stage's `npm ci` needs the registry, so the host's network (and
    // the host's extra CA when its egress goes through a TLS-intercepting proxy).
    const ca = extraCaCerts();
    const buildArgs = ["--network", "host", "--build-arg", `NODE_IMAGE=${nodeImage}`, ...(ca === undefined ? [] : ["--build-arg", `EXTRA_CA_CERTS=${ca}`])];
    const build = await dockerOk(["build", ...buildArgs, "-t", IMAGE, ROOT], 30 * MINUTE);
    figures["mcpvm image build (s)"] = Math.round(build.ms / 1000);
    const servers = await dockerOk(
      ["build", ...buildArgs, "--build-arg", `MCPVM_IMAGE=${IMAGE}`, "-t", SERVERS_IMAGE, "-f", join(ROOT, "deploy/image/with-servers.Dockerfile"), join(ROOT, "deploy/image")],
      15 * MINUTE,
    );
    figures["servers image build (s)"] = Math.round(servers.ms / 1000);

    // The config home and the admin token, prepared as docs/DEPLOY.md says: the session key and the
    // token made on the host, the rest by the image's own mcpvm, then mounted read-only.
    work = await mkdtemp(join(tmpdir(), "mcpvm-image-"));
    home = join(work, "team-home");
    tokenFile = join(work, "gateway-token");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(home, { mode: 0o700 });
    await writeFile(join(home, "gateway-session-key"), `${randomBytes(48).toString("base64url")}\n`, { mode: 0o600 });
    await writeFile(tokenFile, `${ADMIN_TOKEN}\n`, { mode: 0o600 });
    await asRoot("chown", "-R", "10001:10001", "/work/team-home", "/work/gateway-token");
    await mcpvm("--yes", "plugin", "approve", "mcp");
    await mcpvm("plugin", "enable", "mcp");
    await mcpvm("mcp", "add", "everything", "--", "mcp-server-everything", "stdio");
    await mcpvm("--yes", "mcp", "approve", "everything");
    await mcpvm("mcp", "info", "everything");
    // server-memory keeps its graph in a file: on the tmpfs, since the root file system is read-only.
    await mcpvm("mcp", "add", "memory", "-e", "MEMORY_FILE_PATH=/tmp/memory.jsonl", "--", "mcp-server-memory");
    await mcpvm("--yes", "mcp", "approve", "memory");
    await mcpvm("mcp", "info", "memory");
    aliceToken = (JSON.parse(await mcpvm("--json", "gateway", "token", "create", "alice", "--servers", "everything")) as { token: string }).token;
  }, 60 * MINUTE);

  afterAll(async () => {
    for (const name of containers) await docker(["rm", "-f", name], MINUTE);
    if (work !== undefined) {
      await docker(["run", "--rm", "--network", "none", "--user", "0:0", "-v", `${work}:/work`, "--entrypoint", "rm", IMAGE, "-rf", "/work/team-home", "/work/gateway-token", "/work/pod", "/work/root-home"], MINUTE);
      await rm(work, { recursive: true, force: true });
    }
    console.log(`image test figures: ${JSON.stringify(figures)}`);
  }, 5 * MINUTE);

  it("the final image runs as uid 10001 and holds no package manager, compiler or development package", async () => {
    const inspect = JSON.parse((await dockerOk(["image", "inspect", IMAGE])).out) as Array<{ Config: { User: string; Entrypoint: string[] }; Size: number }>;
    const image = inspect[0] as { Config: { User: string; Entrypoint: string[] }; Size: number };
    expect(image.Config.User).toBe("10001:10001");
    figures["image size (MB)"] = Math.round(image.Size / 1e6);
    const probe = await dockerOk([
      "run", "--rm", "--network", "none", "--read-only", "--entrypoint", "sh", IMAGE, "-c",
      'id -u; for tool in npm npx yarn yarnpkg corepack pnpm gcc cc c++ g++ make python3 tsc; do command -v "$tool" && echo "found $tool"; done; ' +
        "for dir in /usr/local/lib/node_modules /usr/local/include/node /opt/yarn-* /app/node_modules/typescript /app/node_modules/vitest /app/node_modules/esbuild /app/src /app/tests; do [ -e \"$dir\" ] && echo \"found $dir\"; done; node --version",
    ]);
    const lines = probe.out.trim().split("\n");
    expect(lines[0]).toBe("10001");
    expect(lines.filter((line) => line.startsWith("found "))).toEqual([]);
    expect(lines.at(-1)).toMatch(/^v20\./);
    figures.node = lines.at(-1) as string;
  });

  interface Started {
    readonly name: string;
    readonly base: URL;
    readonly ms: number;
    logs(): Promise<string>;
  }

  /**
   * `docker run -d` of the servers image, as docs/DEPLOY.md runs it (read-only root, /tmp on tmpfs,
   * no capabilities), with the given mounts and user; resolves once /readyz answers 200.
   */
  async function startGateway(label: string, options: { readonly mounts: readonly string[]; readonly user?: readonly string[]; readonly args?: readonly string[] }): Promise<Started> {
    const name = `mcpvm-image-test-${label}-${RUN_ID}`;
    containers.push(name);
    const bridge = await hasBridgeNetwork();
    // With a bridge: `-p` as in the docs. Without one (an engine started with --bridge=none): the host's network.
    const port = bridge ? 0 : await freePort();
    const network = bridge ? ["-p", "127.0.0.1::8080"] : ["--network", "host"];
    const args = options.args ?? ["serve", "--http", "0.0.0.0:8080", "--token-file", "/run/secrets/mcpvm/gateway-token"];
    const command = bridge ? (options.args ?? []) : args.map((arg) => (arg === "0.0.0.0:8080" ? `127.0.0.1:${port}` : arg));
    const started = Date.now();
    await dockerOk([
      "run", "-d", "--name", name, "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--stop-timeout", "35",
      ...network, ...(options.user ?? []), ...options.mounts, SERVERS_IMAGE, ...command,
    ]);
    const hostPort = bridge ? Number(/:(\d+)\s*$/m.exec((await dockerOk(["port", name, "8080/tcp"])).out)?.[1]) : port;
    const base = new URL(`http://127.0.0.1:${hostPort}`);
    const logs = async () => {
      const result = await docker(["logs", name]);
      return result.err + result.out;
    };
    let ready: Response | undefined;
    for (const deadline = Date.now() + 2 * MINUTE; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      ready = await fetch(new URL("/readyz", base)).catch(() => undefined);
      if (ready?.status === 200) break;
      const state = await docker(["inspect", "--format", "{{.State.Running}}", name]);
      if (state.out.trim() === "false") break;
    }
    expect(ready?.status, await logs()).toBe(200);
    return { name, base, ms: Date.now() - started, logs };
  }

  async function connect(base: URL, token: string): Promise<Client> {
    const client = new Client({ name: "image-test", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", base), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    return client;
  }

  /** docker stop (SIGTERM) while a 3-second call runs: the call finishes, the process exits 0 well within the grace period. */
  async function stopWhileCalling(gateway: Started, client: Client): Promise<number> {
    const slow = client.callTool({ name: "run_mcp_script", arguments: { script: 'const e = require("host:mcp-everything"); await e.trigger_long_running_operation({ duration: 3, steps: 3 }); return "finished";' } });
    await new Promise((r) => setTimeout(r, 800));
    const stop = docker(["stop", "--time", "35", gateway.name], 2 * MINUTE);
    const result = await slow;
    expect(result.isError, JSON.stringify(result)).not.toBe(true);
    expect(firstText(result)).toContain("finished");
    const stopped = await stop;
    expect(stopped.code, stopped.err).toBe(0);
    expect(stopped.ms).toBeLessThan(35_000);
    const state = JSON.parse((await dockerOk(["inspect", "--format", "{{json .State}}", gateway.name])).out) as { ExitCode: number };
    expect(state.ExitCode, await gateway.logs()).toBe(0);
    return stopped.ms;
  }

  it("runs read-only as docs/DEPLOY.md says: probes answer, real tool calls go through, a client token sees only its servers, SIGTERM drains to exit 0", { timeout: 10 * MINUTE }, async () => {
    const gateway = await startGateway("docker", { mounts: ["-v", `${home}:/home/mcpvm/.mcpvm:ro`, "-v", `${tokenFile}:/run/secrets/mcpvm/gateway-token:ro`] });
    figures["start to ready (ms)"] = gateway.ms;
    expect((await fetch(new URL("/healthz", gateway.base))).status).toBe(200);
    expect((await fetch(new URL("/mcp", gateway.base), { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status).toBe(401);
    const admin = await connect(gateway.base, ADMIN_TOKEN);
    const alice = await connect(gateway.base, aliceToken);
    try {
      const echoed = await admin.callTool({ name: "run_mcp_script", arguments: { script: 'return await require("host:mcp-everything").echo({ message: "through the container" });' } });
      expect(echoed.isError, JSON.stringify(echoed)).not.toBe(true);
      expect(firstText(echoed)).toContain("Echo: through the container");
      const script = await alice.callTool({ name: "run_mcp_script", arguments: { script: 'const e = require("host:mcp-everything"); return (await e.get_sum({ a: 20, b: 22 }));' } });
      expect(script.isError, JSON.stringify(script)).not.toBe(true);
      expect(firstText(script)).toContain("42");
      const notHers = await alice.callTool({ name: "run_mcp_script", arguments: { script: 'return await require("host:mcp-memory").read_graph({});' } });
      expect(notHers.isError).toBe(true);
      // A tool that writes (confirmed by policy, an audit event) and a server that writes its file under /tmp.
      const written = await admin.callTool({ name: "run_mcp_script", arguments: { script: 'const m = require("host:mcp-memory"); await m.create_entities({ entities: [{ name: "pod", entityType: "thing", observations: ["read-only root"] }] }); return (await m.read_graph({})).entities.map((e) => e.name);' } });
      expect(written.isError, JSON.stringify(written)).not.toBe(true);
      expect(firstText(written)).toContain("pod");
      figures["docker stop, draining a 3 s call (ms)"] = await stopWhileCalling(gateway, admin);
      const logs = await gateway.logs();
      // The audit event the read-only home could not take is in the log the platform keeps.
      expect(logs).toMatch(/"audit":\{"event":"mcp\.call\.confirm","subject":"memory","decision":"allowed"/);
      expect(logs).not.toContain(ADMIN_TOKEN);
      expect(logs).not.toContain(aliceToken);
    } finally {
      await admin.close().catch(() => undefined);
      await alice.close().catch(() => undefined);
    }
  });

  it("a home the container's user cannot read (prepared by root on the host) is named as such, not as a port problem", { timeout: 5 * MINUTE }, async () => {
    await asRoot("sh", "-c", "mkdir -p /work/root-home && cp /work/team-home/* /work/root-home/ && chown -R 0:0 /work/root-home && chmod 700 /work/root-home && chmod 600 /work/root-home/*");
    const name = `mcpvm-image-test-root-home-${RUN_ID}`;
    containers.push(name);
    const run = await docker(["run", "--name", name, "--network", "none", "--read-only", "--tmpfs", "/tmp", "-v", `${work}/root-home:/home/mcpvm/.mcpvm:ro`, "-v", `${tokenFile}:/run/secrets/mcpvm/gateway-token:ro`, SERVERS_IMAGE], 2 * MINUTE);
    expect(run.code).not.toBe(0);
    const said = run.err + run.out;
    expect(said).toMatch(/CONFIG_HOME_INSECURE[\s\S]*\/home\/mcpvm\/\.mcpvm cannot be read by you \(mcpvm, uid 10001\)/);
    expect(said).toMatch(/chown -R 10001 \/home\/mcpvm\/\.mcpvm/);
    expect(said).not.toMatch(/port|GATEWAY_PORT_IN_USE|INTERNAL/);
    expect(run.code).toBe(3);
  });

  it("runs with the Kubernetes pod's layout (deploy/kubernetes/base): files mounted one by one, root-owned, group fsGroup, mode 0440", { timeout: 10 * MINUTE }, async () => {
    // YAML 1.1, as Kubernetes reads it: `defaultMode: 0440` is octal there (decimal 440 in YAML 1.2).
    const deployment = parse(await readFile(join(ROOT, "deploy/kubernetes/base/deployment.yaml"), "utf8"), { version: "1.1" }) as PodTemplate;
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0] as PodTemplate["spec"]["template"]["spec"]["containers"][number];
    // What the kubelet makes of a Secret or ConfigMap volume with fsGroup: root:<fsGroup>, the volume's defaultMode.
    const modes = Object.fromEntries(pod.volumes.map((v) => [v.name, (v.secret ?? v.configMap)?.defaultMode]));
    const copies = container.volumeMounts
      .filter((m) => m.subPath !== undefined)
      .map((m) => {
        const from = m.subPath === "gateway-token" ? "/work/gateway-token" : `/work/team-home/${m.subPath as string}`;
        return `cp ${from} /work/pod/${m.subPath as string} && chown 0:${pod.securityContext.fsGroup} /work/pod/${m.subPath as string} && chmod ${(modes[m.name] as number).toString(8)} /work/pod/${m.subPath as string}`;
      });
    await asRoot("sh", "-c", ["mkdir -p /work/pod", ...copies].join(" && "));
    // The one whole-volume mount is the emptyDir on /tmp, which startGateway gives as a tmpfs.
    expect(container.volumeMounts.filter((m) => m.subPath === undefined).map((m) => m.mountPath)).toEqual(["/tmp"]);
    const mounts = container.volumeMounts.filter((m) => m.subPath !== undefined).flatMap((m) => ["-v", `${work}/pod/${m.subPath as string}:${m.mountPath}:ro`]);
    const env = container.env.flatMap((e) => ["-e", `${e.name}=${e.value}`]);
    const user = ["--user", `${pod.securityContext.runAsUser}:${pod.securityContext.runAsGroup}`, "--group-add", String(pod.securityContext.fsGroup)];
    const gateway = await startGateway("pod", { mounts: [...mounts, ...env], user, args: container.args });
    figures["pod layout: start to ready (ms)"] = gateway.ms;
    const admin = await connect(gateway.base, ADMIN_TOKEN);
    try {
      const script = await admin.callTool({ name: "run_mcp_script", arguments: { script: 'return await require("host:mcp-everything").get_sum({ a: 1, b: 2 });' } });
      expect(script.isError, JSON.stringify(script)).not.toBe(true);
      expect(firstText(script)).toContain("3");
      figures["pod layout: docker stop, draining a 3 s call (ms)"] = await stopWhileCalling(gateway, admin);
    } finally {
      await admin.close().catch(() => undefined);
    }
  });
});

interface PodTemplate {
  spec: {
    template: {
      spec: {
        securityContext: { runAsUser: number; runAsGroup: number; fsGroup: number };
        containers: Array<{ args: string[]; env: Array<{ name: string; value: string }>; volumeMounts: Array<{ name: string; mountPath: string; subPath?: string }> }>;
        volumes: Array<{ name: string; secret?: { defaultMode: number }; configMap?: { defaultMode: number } }>;
      };
    };
  };
}
