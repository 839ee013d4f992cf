/**
 * POST /sync through real HTTP (supertest) with the real hooks, for every sample: the whole
 * response is a golden file (tests/golden/sync/<sample>.json), every child passes
 * kubernetes-models validation, the status passes the CRD status schema, and the children
 * agree with each other.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { createApp } from "../../hooks/app";
import type { ExposeWith } from "../../lib/api/expose-types";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { compile, schemaErrors } from "../../lib/api/schema";
import { V1ALPHA2_STATUS_SCHEMA } from "../../lib/api/schema-status-v1alpha2";
import { customize } from "../../lib/sync/customize";
import { selectorLabels } from "../../lib/names";
import { sync } from "../../lib/sync/sync";
import type { KubeObject, SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { llsd } from "../cli-helpers";
import { fixtureFound } from "../external-fixtures";
import { expectGolden } from "../golden";
import { validateChild } from "../lib/children/models";
import { deps, observedFrom } from "../sync-builders";

const SAMPLES = join(__dirname, "..", "..", "samples");
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".yaml") && !f.startsWith("v1alpha1"))
  .sort();

/** Samples written for an install whose component exposes servers another way (by the CR's name). */
const EXPOSED_WITH: { readonly [parent: string]: ExposeWith } = { "llsd-gw": "gateway" };
const depsFor = (r: SyncRequest) => ({ ...deps(), exposeWith: EXPOSED_WITH[r.parent.metadata.name] ?? "ingress" });

const app = createApp({
  // External providers' metadata comes from their images; here, from fixtures (tests/external-fixtures.ts).
  handlers: {
    sync: (r) => Promise.resolve(sync(r, depsFor(r), fixtureFound((r.parent as { spec?: unknown }).spec))),
    customize: (r) => Promise.resolve(customize(r)),
  },
  logger: createLogger({ level: "silent", destination: { write: () => undefined } }),
  metrics: createMetrics(),
  isReady: () => true,
});
const statusSchema = compile(V1ALPHA2_STATUS_SCHEMA);

function syncRequestFor(file: string): SyncRequest {
  const out = llsd(["request", "sync", join(SAMPLES, file)]);
  expect(out.code).toBe(0);
  return JSON.parse(out.stdout) as SyncRequest;
}

async function post(body: SyncRequest): Promise<SyncResponse> {
  const response = await request(app).post("/sync").send(body).expect(200).expect("content-type", /json/);
  return response.body as SyncResponse;
}

function podLabels(children: readonly KubeObject[]): Record<string, string> {
  const d = children.find((c) => c.kind === "Deployment") as
    { spec: { template: { metadata: { labels: Record<string, string> } } } } | undefined;
  return d?.spec.template.metadata.labels ?? {};
}

/** The pods the Deployment asks for (every one ready once applied); 1 when the HPA decides. */
function desiredReplicas(children: readonly KubeObject[]): number {
  const d = children.find((c) => c.kind === "Deployment") as { spec: { replicas?: number } } | undefined;
  return d?.spec.replicas ?? 1;
}

describe.each(samples)("POST /sync for %s", (file) => {
  it("answers the golden response", async () => {
    expectGolden(
      `sync/${file.replace(/\.yaml$/, ".json")}`,
      `${JSON.stringify(await post(syncRequestFor(file)), null, 2)}\n`,
    );
  });

  it("answers children that are valid Kubernetes objects and agree with each other", async () => {
    const { children, status } = await post(syncRequestFor(file));
    expect(status.phase).toBe("Pending");
    for (const child of children) validateChild(child);
    const name = syncRequestFor(file).parent.metadata.name;
    const pods = podLabels(children);
    expect(pods).toEqual(expect.objectContaining(selectorLabels(name)));
    const service = children.find((c) => c.kind === "Service") as unknown as {
      spec: { selector: Record<string, string>; ports: { targetPort: string }[] };
    };
    expect(pods).toEqual(expect.objectContaining(service.spec.selector));
    const hpa = children.find((c) => c.kind === "HorizontalPodAutoscaler") as
      { spec: { scaleTargetRef: { name: string; kind: string } } } | undefined;
    if (hpa) expect(hpa.spec.scaleTargetRef).toEqual(expect.objectContaining({ kind: "Deployment", name }));
    for (const child of children) expect(child.metadata.labels).toEqual(expect.objectContaining(selectorLabels(name)));
  });

  it("answers a status that the CRD status schema accepts, and a steady state once applied", async () => {
    const first = await post(syncRequestFor(file));
    expect(schemaErrors(statusSchema, first.status)).toEqual([]);
    const again = syncRequestFor(file);
    const next = await post({
      ...again,
      parent: { ...again.parent, status: first.status },
      children: mapOf(observedFrom(first.children, desiredReplicas(first.children))),
    });
    expect(next.children).toEqual(first.children);
    expect(next.status.phase).toBe("Ready");
  });
});

describe("hook request versions", () => {
  it("accepts children keyed by name (v1) as well as namespace/name (v2)", async () => {
    const req = syncRequestFor("vllm-api-key.yaml");
    const first = await post(req);
    const observed = observedFrom(first.children);
    const v1: Record<string, Record<string, KubeObject>> = {};
    for (const o of observed)
      v1[`${o.kind}.${o.apiVersion}`] = { ...v1[`${o.kind}.${o.apiVersion}`], [o.metadata.name]: o };
    const related = Object.fromEntries(
      Object.entries(req.related ?? {}).map(([k, m]) => [
        k,
        Object.fromEntries(Object.values(m).map((o) => [o.metadata.name, o])),
      ]),
    );
    const viaV1 = await post({ ...req, children: v1, related });
    const viaV2 = await post({ ...req, children: mapOf(observed) });
    expect(viaV1).toEqual(viaV2);
    expect(viaV1.status.phase).toBe("Ready");
  });
});

function mapOf(objects: readonly KubeObject[]): Record<string, Record<string, KubeObject>> {
  const map: Record<string, Record<string, KubeObject>> = {};
  for (const o of objects)
    map[`${o.kind}.${o.apiVersion}`] = {
      ...map[`${o.kind}.${o.apiVersion}`],
      [`${o.metadata.namespace}/${o.metadata.name}`]: o,
    };
  return map;
}
