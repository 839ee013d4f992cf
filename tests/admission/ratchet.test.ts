/**
 * lib/admission/ratchet.ts: an UPDATE that changes nothing the check reads is admitted without
 * it. Any change to a read input goes the plain path; where the ratchet answers, the plain path
 * (`judge`) gives the same verdict, on the recorded traffic and on every sample.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { readTraffic } from "../../bench/traffic";
import { READ_ANNOTATIONS, ratchets } from "../../lib/admission/ratchet";
import { admissionReviewShape, judge, review, type AdmissionRequest } from "../../lib/admission/review";

const V1ALPHA1 = "llamastack.io/v1alpha1-fields";
const KIND = { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" };
const SPEC = { distribution: { name: "nope" }, resources: { models: [{ name: "embed", modelType: "embedding" }] } };
const STATUS = { resolvedDistribution: { image: "docker.io/llamastack/distribution-starter:0.7.1" } };

type Json = { [k: string]: unknown };

function anLlsd(changes: Json = {}, annotations: Json = { "team/owner": "a" }, metadata: Json = {}): Json {
  return {
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: { name: "demo", namespace: "team-a", annotations, ...metadata },
    spec: structuredClone(SPEC),
    status: structuredClone(STATUS),
    ...changes,
  };
}

function anUpdate(object: Json, oldObject: Json | null = anLlsd()): AdmissionRequest {
  const request = { uid: "u1", kind: KIND, operation: "UPDATE", name: "demo", namespace: "team-a", object } as const;
  return oldObject === null ? request : { ...request, oldObject };
}

/** What changed, the object, the old object (null: none). */
type Row = [string, Json, (Json | null)?];

describe("ratchets: only an UPDATE that keeps every input the check reads", () => {
  it.each<Row>([
    ["a label added", anLlsd({}, undefined, { labels: { team: "a" } })],
    ["a finalizer added", anLlsd({}, undefined, { finalizers: ["example.com/keep"] })],
    ["an annotation the check does not read added", anLlsd({}, { "team/owner": "a", "e2e/touched": "1" })],
    ["an annotation the check does not read changed", anLlsd({}, { "team/owner": "b" })],
    ["the first annotation, one the check does not read", anLlsd(), anLlsd({}, undefined, { annotations: undefined })],
    ["managedFields changed", anLlsd({}, undefined, { managedFields: [{ manager: "kubectl" }] })],
    [
      "the spec re-encoded in another key order",
      anLlsd({ spec: { resources: SPEC.resources, distribution: { name: "nope" } } }),
    ],
  ])("%s: ratchets", (_what, object, oldObject = anLlsd()) => {
    expect(ratchets(anUpdate(object, oldObject))).toBe(true);
  });

  const readAnnotationChanges = READ_ANNOTATIONS.flatMap((key): Row[] => [
    [`${key} added`, anLlsd({}, { "team/owner": "a", [key]: "{}" }), anLlsd()],
    [`${key} changed`, anLlsd({}, { [key]: "{}" }), anLlsd({}, { [key]: "true" })],
    [`${key} removed`, anLlsd({}, {}), anLlsd({}, { [key]: "{}" })],
  ]);
  it.each<Row>([
    ["the spec changed", anLlsd({ spec: { distribution: { name: "starter" } } }), anLlsd()],
    ["the spec removed", anLlsd({ spec: undefined }), anLlsd()],
    ["the status changed", anLlsd({ status: {} }), anLlsd()],
    ["the apiVersion changed", anLlsd({ apiVersion: "llamastack.io/v1alpha1" }), anLlsd()],
    ["the kind changed", anLlsd({ kind: "Other" }), anLlsd()],
    ["the name changed", anLlsd({}, undefined, { name: "other" }), anLlsd()],
    ...readAnnotationChanges,
    ["an annotation that is not a string added", anLlsd({}, { "team/owner": "a", n: 1 }), anLlsd()],
    ["annotations that are not a map", anLlsd({}, ["x"] as unknown as Json), anLlsd()],
    [
      "another annotation changed on a CR that carries v1alpha1-fields",
      anLlsd({}, { [V1ALPHA1]: "{}", "team/owner": "b" }),
      anLlsd({}, { [V1ALPHA1]: "{}", "team/owner": "a" }),
    ],
    ["no old object", anLlsd(), null],
  ])("%s: the plain path", (_what, object, oldObject) => {
    expect(ratchets(anUpdate(object, oldObject))).toBe(false);
  });

  it.each(["CREATE", "DELETE", "CONNECT"] as const)("a %s: the plain path", (operation) => {
    expect(ratchets({ ...anUpdate(anLlsd()), operation })).toBe(false);
  });

  it("admits a label on a CR the check would deny, without warnings; the plain path warns", () => {
    const request = anUpdate(anLlsd({}, undefined, { labels: { team: "a" } }));
    expect(review(request)).toEqual({ uid: "u1", allowed: true });
    expect(judge(request)).toMatchObject({ allowed: true, warnings: expect.arrayContaining([expect.any(String)]) });
  });
});

const SAMPLES = join(__dirname, "..", "..", "samples");

/** Each v1alpha2 LLSD of the samples. */
function sampleObjects(): [string, Json][] {
  return readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(SAMPLES, file), "utf8"))
        .map((doc) => doc.toJS() as Json)
        .filter((o) => o?.kind === "LlamaStackDistribution" && o.apiVersion === "llamastack.io/v1alpha2")
        .map((o): [string, Json] => [file, o]),
    );
}

/** A metadata-only edit of `old`: a label, a finalizer and an annotation the check does not read. */
function touched(old: Json): Json {
  const metadata = (old.metadata ?? {}) as Json;
  const annotations = { ...((metadata.annotations ?? {}) as Json), "e2e-scale/touched": "1" };
  return { ...structuredClone(old), metadata: { ...metadata, labels: { a: "b" }, finalizers: ["x/y"], annotations } };
}

describe("the ratchet's verdict is the plain path's", () => {
  it("on every UPDATE of the recorded traffic that ratchets", () => {
    const requests = readTraffic("validate").flatMap((record) => {
      const shape = admissionReviewShape(JSON.parse(record.body));
      return shape.ok ? [shape.request] : [];
    });
    const ratcheted = requests.filter(ratchets);
    expect(ratcheted.length).toBeGreaterThan(0);
    expect(ratcheted.map((r) => [r.uid, review(r).allowed])).toEqual(ratcheted.map((r) => [r.uid, judge(r).allowed]));
  });

  it.each(sampleObjects())("%s: a metadata-only UPDATE", (_file, old) => {
    const request = anUpdate(touched(old), old);
    expect(ratchets(request)).toBe(true);
    expect(review(request).allowed).toBe(judge(request).allowed);
  });
});
