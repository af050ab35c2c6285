import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { Deployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Secret, Service } from "kubernetes-models/v1";
import { parseGatewaySettings } from "../../src/gateway/settings.js";

const ROOT = resolve(import.meta.dirname, "../..");
const KUBECTL = ["/usr/bin/kubectl", "/usr/local/bin/kubectl"].find((path) => existsSync(path));

/** Each kind the base must hold, with the schema-checked model from kubernetes-models. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment as never,
  "v1/Service": Service as never,
  "v1/ConfigMap": ConfigMap as never,
  "v1/Secret": Secret as never,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler as never,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget as never,
};

type K8sObject = { apiVersion: string; kind: string; metadata: { name: string; labels?: Record<string, string> }; spec?: Record<string, unknown> };

describe.skipIf(KUBECTL === undefined)("deploy/kubernetes (kustomize base), rendered offline and validated against the Kubernetes schemas", () => {
  const rendered = KUBECTL === undefined ? "" : execFileSync(KUBECTL, ["kustomize", join(ROOT, "deploy/kubernetes/base")], { encoding: "utf8" });
  const objects = parseAllDocuments(rendered).map((doc) => doc.toJSON() as K8sObject);

  it("holds every kind once and each validates", () => {
    expect(objects.map((o) => `${o.apiVersion}/${o.kind}`).sort()).toEqual(Object.keys(MODELS).sort());
    for (const object of objects) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`];
      expect(Model, object.kind).toBeDefined();
      expect(() => new (Model as new (data: unknown) => { validate(): void })(object).validate(), `${object.kind} ${object.metadata.name}`).not.toThrow();
    }
  });

  it("a Deployment a cluster can run safely: probes, requests/limits, non-root, read-only root, drain within grace", () => {
    const deployment = objects.find((o) => o.kind === "Deployment") as unknown as {
      spec: { template: { metadata: { labels: Record<string, string> }; spec: { terminationGracePeriodSeconds: number; securityContext: Record<string, unknown>; containers: Array<Record<string, any>> } } };
    };
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0] as Record<string, any>;
    expect(container.readinessProbe.httpGet.path).toBe("/readyz");
    expect(container.livenessProbe.httpGet.path).toBe("/healthz");
    expect(container.resources.requests).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(container.resources.limits).toMatchObject({ cpu: expect.any(String), memory: expect.any(String) });
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    // Secret files are root-owned: without fsGroup the non-root gateway cannot read its tokens.
    expect(pod.securityContext.fsGroup).toBe(pod.securityContext.runAsGroup);
    expect(pod.securityContext.runAsUser).toBe(Number(/^USER (\d+)/m.exec(readFileSync(join(ROOT, "Dockerfile"), "utf8"))?.[1]));
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ["ALL"] } });
    const drainMs = (JSON.parse(readFileSync(join(ROOT, "deploy/kubernetes/base/config.json"), "utf8")) as { gateway: { drainTimeoutMs: number } }).gateway.drainTimeoutMs;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(drainMs);
    // The Service, PDB and HPA select (or target) the Deployment's pods.
    const labels = deployment.spec.template.metadata.labels;
    const service = objects.find((o) => o.kind === "Service") as unknown as { spec: { selector: Record<string, string>; sessionAffinity: string } };
    expect(labels).toMatchObject(service.spec.selector);
    expect(service.spec.sessionAffinity).toBe("None");
    const pdb = objects.find((o) => o.kind === "PodDisruptionBudget") as unknown as { spec: { selector: { matchLabels: Record<string, string> } } };
    expect(labels).toMatchObject(pdb.spec.selector.matchLabels);
    const hpa = objects.find((o) => o.kind === "HorizontalPodAutoscaler") as unknown as { spec: { scaleTargetRef: { name: string } } };
    expect(hpa.spec.scaleTargetRef.name).toBe((deployment as unknown as K8sObject).metadata.name);
    // Every mounted ConfigMap/Secret volume names an object the base renders (generated names with hashes).
    const volumes = (pod as unknown as { volumes: Array<{ configMap?: { name: string }; secret?: { secretName: string } }> }).volumes;
    const names = new Set(objects.map((o) => o.metadata.name));
    for (const volume of volumes) {
      const ref = volume.configMap?.name ?? volume.secret?.secretName;
      if (ref !== undefined) expect(names.has(ref), ref).toBe(true);
    }
  });
});

describe.skipIf(KUBECTL === undefined)("deploy/kubernetes/overlays/oauth: the base with sign-in through an identity provider", () => {
  const rendered = KUBECTL === undefined ? "" : execFileSync(KUBECTL, ["kustomize", join(ROOT, "deploy/kubernetes/overlays/oauth")], { encoding: "utf8" });
  const objects = parseAllDocuments(rendered).map((doc) => doc.toJSON() as K8sObject & { data?: Record<string, string> });

  it("renders the base's objects, each valid, with its own config.json in the ConfigMap the pods mount", () => {
    expect(objects.map((o) => `${o.apiVersion}/${o.kind}`).sort()).toEqual(Object.keys(MODELS).sort());
    for (const object of objects) expect(() => new (MODELS[`${object.apiVersion}/${object.kind}`] as new (data: unknown) => { validate(): void })(object).validate(), object.kind).not.toThrow();
    const configMap = objects.find((o) => o.kind === "ConfigMap");
    const config = JSON.parse(configMap?.data?.["config.json"] ?? "{}") as { gateway?: unknown };
    // The gateway's own schema: a replica started with this ConfigMap accepts access tokens for its public URL.
    const settings = parseGatewaySettings(config.gateway, "overlays/oauth/config.json");
    expect(settings.oauth?.resource).toMatch(/^https:\/\//);
    expect(settings.oauth?.issuer).toMatch(/^https:\/\//);
    const volumes = (objects.find((o) => o.kind === "Deployment") as unknown as { spec: { template: { spec: { volumes: Array<{ configMap?: { name: string } }> } } } }).spec.template.spec.volumes;
    expect(volumes.map((v) => v.configMap?.name).filter(Boolean)).toEqual([configMap?.metadata.name]);
  });
});

describe("Dockerfile", () => {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8");
  const stages = text.split(/^FROM /m).slice(1);

  it("is multi-stage; the final stage runs as non-root with no npm or build step", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const final = stages.at(-1) as string;
    expect(final).toMatch(/^USER (\d+)(:\d+)?$/m);
    expect(Number(/^USER (\d+)/m.exec(final)?.[1])).toBeGreaterThan(0);
    expect(final).not.toMatch(/^RUN /m);
    expect(final).toContain("COPY --from=build");
    // The final image starts empty and takes a run-time root whose package managers were removed,
    // so they are in no layer at all (a removal in a later layer would only hide them).
    expect(final).toMatch(/^scratch\b/);
    const rootFrom = /^COPY --from=(\S+) \/ \/$/m.exec(final)?.[1];
    const runtime = stages.find((stage) => new RegExp(`^\\S+ AS ${rootFrom}$`, "m").test(stage.split("\n")[0] ?? ""));
    expect(runtime, `the stage copied as / (${rootFrom})`).toBeDefined();
    expect(runtime).not.toMatch(/\bnpm (ci|install|run)\b/);
    expect(runtime).toMatch(/rm -rf [^\n]*\/usr\/local\/lib\/node_modules/);
    expect(runtime).toMatch(/\/usr\/local\/bin\/npx/);
  });

});
