/**
 * A thin, bounded wrapper around the docker CLI for tests/deploy/image.test.ts: every call has a
 * timeout (a wedged daemon fails the test instead of hanging it), and what decides whether the
 * image test can run at all is answered synchronously, with a reason, before any test starts.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { rootCertificates } from "node:tls";

export const DOCKER = process.env.DOCKER ?? "docker";
/** The image the Dockerfile's NODE_IMAGE names by default, and the stand-in deploy/image/node-base.sh makes. */
export const OFFICIAL_NODE_IMAGE = "node:20-bookworm-slim";
export const STAND_IN_NODE_IMAGE = "mcpvm/node:20-bookworm-slim";

export interface DockerResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly ms: number;
}

/**
 * The legacy builder when the CLI has no buildx plugin (a Debian docker.io CLI talking to any
 * daemon, or a newer CLI without the plugin): `docker build` would otherwise refuse to start.
 */
function buildEnv(): NodeJS.ProcessEnv {
  const buildx = spawnSync(DOCKER, ["buildx", "version"], { encoding: "utf8", timeout: 15_000 });
  return buildx.status === 0 ? process.env : { ...process.env, DOCKER_BUILDKIT: "0" };
}
let cachedBuildEnv: NodeJS.ProcessEnv | undefined;

/** Runs `docker …args`; resolves with the exit code and output (never rejects on a non-zero exit). */
export function docker(args: readonly string[], timeoutMs = 120_000): Promise<DockerResult> {
  const started = Date.now();
  const env = args[0] === "build" ? (cachedBuildEnv ??= buildEnv()) : process.env;
  return new Promise((resolve) => {
    execFile(DOCKER, [...args], { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 124;
      resolve({ code, out: stdout, err: `${stderr}${error !== null && error.killed ? `\n(killed after ${timeoutMs} ms)` : ""}`, ms: Date.now() - started });
    });
  });
}

/** Like docker(), but a non-zero exit throws with the command and its output. */
export async function dockerOk(args: readonly string[], timeoutMs?: number): Promise<DockerResult> {
  const result = await docker(args, timeoutMs);
  if (result.code !== 0) throw new Error(`docker ${args.join(" ")} exited ${result.code}:\n${result.err.slice(-4000)}\n${result.out.slice(-2000)}`);
  return result;
}

function dockerSync(args: readonly string[], timeoutMs: number): { code: number; out: string; err: string } {
  const result = spawnSync(DOCKER, [...args], { encoding: "utf8", timeout: timeoutMs });
  if (result.error !== undefined) return { code: 127, out: "", err: result.error.message };
  return { code: result.status ?? 124, out: result.stdout, err: result.stderr };
}

export interface ImagePlan {
  /** Why the image test cannot run here; undefined when it can. */
  readonly skip?: string;
  /** The NODE_IMAGE to build from, or "build-stand-in" when deploy/image/node-base.sh must make it. */
  readonly nodeImage?: string;
}

/**
 * Decides, quickly and with a reason, whether the image can be built and run: opted in, a docker
 * CLI, an engine that answers, and a Node base (the official image present or pullable, the
 * stand-in present, or root with debootstrap to make the stand-in).
 */
export function planImageTest(env: NodeJS.ProcessEnv = process.env): ImagePlan {
  if (env.MCPVM_IMAGE_TEST !== "1") return { skip: "builds and runs the container image (minutes): run it with `npm run test:image`" };
  const version = dockerSync(["version", "--format", "{{.Server.Version}}"], 20_000);
  if (version.code === 127) return { skip: `no docker CLI on PATH (${version.err})` };
  if (version.code !== 0) return { skip: `no container engine answers (${firstLine(version.err)})` };
  const wanted = env.MCPVM_NODE_IMAGE;
  if (wanted !== undefined && wanted !== "") return { nodeImage: wanted };
  if (dockerSync(["image", "inspect", OFFICIAL_NODE_IMAGE], 20_000).code === 0) return { nodeImage: OFFICIAL_NODE_IMAGE };
  if (dockerSync(["image", "inspect", STAND_IN_NODE_IMAGE], 20_000).code === 0) return { nodeImage: STAND_IN_NODE_IMAGE };
  const pulled = dockerSync(["pull", "--quiet", OFFICIAL_NODE_IMAGE], 120_000);
  if (pulled.code === 0) return { nodeImage: OFFICIAL_NODE_IMAGE };
  const canMakeStandIn = process.getuid?.() === 0 && ["/usr/sbin/debootstrap", "/usr/bin/debootstrap"].some((path) => existsSync(path));
  if (canMakeStandIn) return { nodeImage: "build-stand-in" };
  return { skip: `no ${OFFICIAL_NODE_IMAGE} (pull failed: ${firstLine(pulled.err)}) and no way to make ${STAND_IN_NODE_IMAGE} (needs root and debootstrap: deploy/image/node-base.sh)` };
}

function firstLine(text: string): string {
  return text.trim().split("\n")[0] ?? "";
}

/** Whether the engine's default bridge network exists (else containers share the host's network). */
export async function hasBridgeNetwork(): Promise<boolean> {
  return (await docker(["network", "inspect", "bridge"], 20_000)).code === 0;
}

/**
 * The certificates this machine trusts beyond Node's own store (NODE_EXTRA_CA_CERTS: a
 * TLS-intercepting egress proxy's CA, a company CA), as PEM text for the Dockerfiles'
 * EXTRA_CA_CERTS build argument; undefined when there are none. Node's public roots are left out:
 * the base image has them, and a whole system bundle is too long for one argument.
 */
export function extraCaCerts(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (file === undefined || file === "" || !existsSync(file)) return undefined;
  const normal = (pem: string) => pem.replace(/\s+/g, "");
  const known = new Set(rootCertificates.map(normal));
  const pems = readFileSync(file, "utf8").match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  const extra = pems.filter((pem) => !known.has(normal(pem)));
  return extra.length === 0 ? undefined : `${extra.join("\n")}\n`;
}
