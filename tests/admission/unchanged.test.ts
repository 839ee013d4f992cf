/** lib/admission/unchanged.ts: which UPDATEs keep the spec (their problems are warnings, never a denial). */
import type { AdmissionRequest } from "../../lib/admission/request";
import { keptBy, sameJson, specUnchanged } from "../../lib/admission/unchanged";

const FOLLOW = "llamastack.io/follow-default-image";
const V1ALPHA1 = "llamastack.io/v1alpha1-fields";
const SPEC = { distribution: { name: "starter" }, networking: { port: 8321, expose: true } };
const STATUS = { resolvedDistribution: { image: "docker.io/llamastack/distribution-starter:0.7.1" } };

function anLlsd(changes: { [k: string]: unknown } = {}, annotations: { [k: string]: string } = {}) {
  return {
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: { name: "demo", namespace: "team-a", annotations: { "team/owner": "a", ...annotations } },
    spec: SPEC,
    status: STATUS,
    ...changes,
  };
}

function anUpdate(object: { [k: string]: unknown }, operation: AdmissionRequest["operation"] = "UPDATE") {
  return {
    uid: "u1",
    kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
    operation,
    object,
    oldObject: anLlsd(),
  };
}

describe("specUnchanged", () => {
  it.each([
    ["the same object", anLlsd(), true],
    ["a label added", { ...anLlsd(), metadata: { name: "demo", labels: { a: "b" } } }, true],
    ["an unrelated annotation changed", anLlsd({}, { "team/owner": "b" }), true],
    [
      "the spec re-encoded in another key order",
      anLlsd({ spec: { networking: { expose: true, port: 8321 }, distribution: { name: "starter" } } }),
      true,
    ],
    ["the spec changed", anLlsd({ spec: { distribution: { name: "postgres-demo" } } }), false],
    ["the spec removed", anLlsd({ spec: undefined }), false],
    [`${FOLLOW} added`, anLlsd({}, { [FOLLOW]: "true" }), true],
    ["the status changed", anLlsd({ status: {} }), true],
  ])("%s: %s", (_what, object, spec) => {
    expect(specUnchanged(anUpdate(object))).toBe(spec);
  });

  it("is false for a CREATE, whatever it carries", () => {
    expect(specUnchanged(anUpdate(anLlsd(), "CREATE"))).toBe(false);
  });
});

describe("sameJson", () => {
  it.each([
    [{ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }, true],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [[1, 2], [2, 1], false],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [{ a: null }, { a: undefined }, false],
    [[], {}, false],
    ["1", 1, false],
  ])("%j and %j: %s", (a, b, same) => {
    expect(sameJson(a, b)).toBe(same);
  });
});

/** What review() asks of each problem: the spec compared once, then the problem's own field. */
const unchangedBy = (request: AdmissionRequest, path: string): boolean =>
  specUnchanged(request) && keptBy(request, path);

describe("specUnchanged and keptBy, as review() combines them", () => {
  const path = `metadata.annotations[${JSON.stringify(V1ALPHA1)}]`;
  it.each([
    ["a spec problem, spec unchanged, a label added", "spec.workload.replicas", anLlsd({}, { a: "b" }), true],
    ["a spec problem, spec changed", "spec.workload.replicas", anLlsd({ spec: { distribution: {} } }), false],
    ["the annotation's problem, the annotation added", path, anLlsd({}, { [V1ALPHA1]: "{" }), false],
    ["the annotation's problem, another annotation added", path, anLlsd({}, { "team/x": "{" }), true],
    ["the annotation's problem, spec changed", path, anLlsd({ spec: { distribution: {} } }), false],
  ])("%s: %s", (_what, errorPath, object, unchanged) => {
    expect(unchangedBy(anUpdate(object), errorPath)).toBe(unchanged);
  });

  it("the annotation's problem, the annotation kept as it was", () => {
    const old = anLlsd({}, { [V1ALPHA1]: "{" });
    expect(unchangedBy({ ...anUpdate(anLlsd({}, { [V1ALPHA1]: "{", a: "b" })), oldObject: old }, path)).toBe(true);
  });
});
