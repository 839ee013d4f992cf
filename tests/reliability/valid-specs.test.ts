/**
 * Property: any valid spec, with the Secrets and ConfigMaps it names, answers (over HTTP, with
 * the real hooks) children that kubernetes-models accepts and a status the CRD status schema
 * accepts — on the first sync and again once Metacontroller applied the children.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { compile, schemaErrors } from "../../lib/api/schema";
import { V1ALPHA2_STATUS_SCHEMA } from "../../lib/api/schema-status-v1alpha2";
import { validate } from "../../lib/api/validate";
import { checkSpec } from "../../lib/config/check";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { validateChild } from "../lib/children/models";
import { selfSignedCertificate } from "../oci/support/cert";
import { aParent, aRequest, observedFrom } from "../sync-builders";
import { aValidSpec } from "./arbitraries";
import { relatedFor } from "./related";
import { startHarness, type Harness } from "./support";

const RUNS = Number(process.env.VALID_SPEC_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const statusSchema = compile(V1ALPHA2_STATUS_SCHEMA);
/** A real CA certificate: the hooks check that a CA bundle holds PEM X.509 certificates. */
const CA_PEM = selfSignedCertificate("llsd reliability test CA").pem;
const BASE_CONFIG = readFileSync(join(__dirname, "../../lib/distributions/base/starter-0.7.yaml"), "utf8");
/** spec.baseConfig's ConfigMap: a base of the line the starter runs (a base of another line is refused). */
const LINE_BASE = readFileSync(join(__dirname, "../../lib/distributions/base/starter-1.3.yaml"), "utf8");

/** An override config that keeps nothing inside the pod, for a workload of several pods (docs/scaling.md). */
const STATELESS_CONFIG = "version: 2\ndistro_name: starter\napis: [inference]\nproviders:\n  inference: []\n";

/** Replicas above 1, or an HPA that may go there. */
function scalesOut(spec: object): boolean {
  const w = (spec as { workload?: { replicas?: number; autoscaling?: { maxReplicas?: number } } }).workload;
  return (w?.replicas ?? 1) > 1 || (w?.autoscaling?.maxReplicas ?? 1) > 1;
}

const relatedOf = (spec: object): KubeObject[] =>
  relatedFor(spec, { caPem: CA_PEM, override: scalesOut(spec) ? STATELESS_CONFIG : BASE_CONFIG, base: LINE_BASE });

/** `spec` has the field at `path` (`name[]`: a non-empty list there). */
function drawn(value: unknown, path: readonly string[]): boolean {
  const [head, ...rest] = path;
  if (head === undefined) return value !== undefined;
  if (typeof value !== "object" || value === null) return false;
  const list = head.endsWith("[]");
  const next = (value as Record<string, unknown>)[list ? head.slice(0, -2) : head];
  if (list) return Array.isArray(next) && next.length > 0 && drawn(next, rest);
  return drawn(next, rest);
}

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
});
afterAll(async () => {
  await harness.close();
});

function desiredReplicas(children: readonly KubeObject[]): number {
  const deployment = children.find((c) => c.kind === "Deployment") as { spec?: { replicas?: number } } | undefined;
  const hpa = children.find((c) => c.kind === "HorizontalPodAutoscaler") as
    { spec?: { minReplicas?: number } } | undefined;
  return deployment?.spec?.replicas ?? hpa?.spec?.minReplicas ?? 1;
}

const mapOf = (objects: readonly KubeObject[]) => aRequest(aParent({}), objects).children;

describe(`valid specs (seed ${SEED}, ${RUNS} runs)`, () => {
  it("the arbitrary produces specs that validate() accepts (the property below is not vacuous)", () => {
    const samples = fc.sample(aValidSpec, { numRuns: 200, seed: SEED });
    const valid = samples.filter((s) => validate(s).errors.length === 0);
    expect(valid.length / samples.length).toBeGreaterThan(0.9);
  });

  // The fields issues 37 and 38 added: a field the arbitrary never draws is one the property never checks.
  it.each([
    "networking.tls.caBundle[]",
    "networking.policy",
    "baseConfig",
    "overrideConfig.key",
    ...["files", "batches", "responses", "fileProcessors", "messages", "interactions", "skills"].map(
      (p) => `providers.${p}`,
    ),
    "registryRefreshIntervalSeconds",
    "workload.resourceClaims[]",
    "auth",
    "monitoring",
  ])("the arbitrary draws %s, validate() accepting it", (path) => {
    const samples = fc.sample(aValidSpec, { numRuns: 300, seed: SEED });
    expect(samples.some((s) => validate(s).errors.length === 0 && drawn(s, path.split(".")))).toBe(true);
  });

  it("answer valid Kubernetes children and a status the CRD schema accepts, first and once applied", async () => {
    await fc.assert(
      fc.asyncProperty(aValidSpec, async (spec) => {
        fc.pre(validate(spec).errors.length === 0);
        // What admission refuses with the image's config in hand (several pods on its own sqlite
        // stores and files: docs/scaling.md) is not a valid spec either.
        fc.pre(checkSpec(spec).errors.length === 0);
        // Several pods on a baseConfig: the base ConfigMap is the line's starter, whose sqlite
        // stores and files are refused then (tests/lib/config/shared-state*.test.ts cover it).
        fc.pre(!(scalesOut(spec) && "baseConfig" in spec));
        const related = relatedOf(spec);
        const first = await harness.post("/sync", aRequest(aParent(spec), [], related));
        expect(first.status).toBe(200);
        const answer = JSON.parse(first.text) as SyncResponse;
        expect({ phase: answer.status.phase, conditions: answer.status.conditions }).toEqual(
          expect.objectContaining({ phase: "Pending" }),
        );
        expect(schemaErrors(statusSchema, answer.status)).toEqual([]);
        for (const child of answer.children) expect(() => validateChild(child)).not.toThrow();

        // Applied, and every pod the Deployment (or the HPA's minimum) asks for is ready.
        const replicas = desiredReplicas(answer.children);
        const request = {
          ...aRequest(aParent(spec, { status: answer.status }), [], related),
          children: mapOf(observedFrom(answer.children, replicas)),
        };
        const again = JSON.parse((await harness.post("/sync", request)).text) as SyncResponse;
        if (replicas > 0) expect(again.status.phase).toBe("Ready");
        expect(schemaErrors(statusSchema, again.status)).toEqual([]);
        expect(again.children).toEqual(answer.children);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 60_000);
});
