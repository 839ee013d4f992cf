/** lib/admission/unchanged.ts: which UPDATEs change nothing the admission check reads. */
import type { AdmissionRequest } from "../../lib/admission/request";
import { checkInputsUnchanged, sameJson, specUnchanged } from "../../lib/admission/unchanged";

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

describe("checkInputsUnchanged", () => {
  it.each([
    ["the same object", anLlsd(), true, true],
    ["a label added", { ...anLlsd(), metadata: { name: "demo", labels: { a: "b" } } }, true, true],
    ["an unrelated annotation changed", anLlsd({}, { "team/owner": "b" }), true, true],
    [
      "the spec re-encoded in another key order",
      anLlsd({ spec: { networking: { expose: true, port: 8321 }, distribution: { name: "starter" } } }),
      true,
      true,
    ],
    ["the spec changed", anLlsd({ spec: { distribution: { name: "postgres-demo" } } }), false, false],
    ["the spec removed", anLlsd({ spec: undefined }), false, false],
    [`${FOLLOW} added`, anLlsd({}, { [FOLLOW]: "true" }), true, false],
    [`${V1ALPHA1} added`, anLlsd({}, { [V1ALPHA1]: "{}" }), true, false],
    ["llamastack.io/v1alpha2-fields added", anLlsd({}, { "llamastack.io/v1alpha2-fields": "{}" }), true, false],
    ["another llamastack.io/ annotation added", anLlsd({}, { "llamastack.io/note": "x" }), true, false],
    ["the annotations removed", { ...anLlsd(), metadata: { name: "demo" } }, true, true],
    ["the status changed", anLlsd({ status: {} }), true, false],
  ])("%s: spec unchanged %s, nothing the check reads changed %s", (_what, object, spec, inputs) => {
    expect(specUnchanged(anUpdate(object))).toBe(spec);
    expect(checkInputsUnchanged(anUpdate(object))).toBe(inputs);
  });

  it("is false for a CREATE, whatever it carries", () => {
    expect(checkInputsUnchanged(anUpdate(anLlsd(), "CREATE"))).toBe(false);
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
