/**
 * `workload.resourceClaims` and the container's `resources.claims`: the apiserver's pod-template
 * rules, said at admission with the field path, the names that exist and a did-you-mean.
 */
import { validate } from "../../../lib/api/validate";
import type { FieldError } from "../../../lib/errors";
import { aSpec } from "../../builders";

const POD = "spec.workload.resourceClaims";
const CONTAINER = "spec.workload.resources.claims";
const gpu = { name: "gpu", resourceClaimTemplateName: "one-gpu" };
const nic = { name: "nic", resourceClaimName: "shared-nic" };
const uses = (...claims: object[]) => ({ claims });

function errorsOf(workload: object): readonly FieldError[] {
  return validate(aSpec({ workload })).errors;
}

describe("workload.resourceClaims", () => {
  it.each<[string, object]>([
    ["a template claim the container uses", { resourceClaims: [gpu], resources: uses({ name: "gpu" }) }],
    ["a shared claim", { resourceClaims: [nic], resources: uses({ name: "nic" }) }],
    [
      "two claims, one request of one",
      { resourceClaims: [gpu, nic], resources: uses({ name: "gpu", request: "big" }, { name: "nic" }) },
    ],
    [
      "the same claim through two requests",
      { resourceClaims: [gpu], resources: uses({ name: "gpu", request: "a" }, { name: "gpu", request: "b" }) },
    ],
    ["a pod claim no container uses (the pod still holds it)", { resourceClaims: [gpu] }],
    ["no claims at all", { resources: { requests: { cpu: "1" } } }],
  ])("accepts %s", (_title, workload) => {
    expect(errorsOf(workload)).toEqual([]);
  });

  it.each<[string, object, FieldError[]]>([
    [
      "a container claim with no pod claims",
      { resources: uses({ name: "gpu" }) },
      [
        {
          path: `${CONTAINER}[0].name`,
          message: expect.stringContaining(
            'no pod claim is named "gpu": workload.resourceClaims is empty; add {name: gpu, resourceClaimTemplateName:',
          ) as string,
        },
      ],
    ],
    [
      "a near miss of a pod claim's name",
      { resourceClaims: [gpu, nic], resources: uses({ name: "gpus" }) },
      [
        {
          path: `${CONTAINER}[0].name`,
          message:
            'no pod claim is named "gpus": did you mean "gpu"? The names in workload.resourceClaims are "gpu", "nic"',
        },
      ],
    ],
    [
      "a name far from every pod claim",
      { resourceClaims: [gpu], resources: uses({ name: "accelerator" }) },
      [
        {
          path: `${CONTAINER}[0].name`,
          message: 'no pod claim is named "accelerator". The names in workload.resourceClaims are "gpu"',
        },
      ],
    ],
    [
      "a container claim listed twice",
      { resourceClaims: [gpu], resources: uses({ name: "gpu" }, { name: "gpu" }) },
      [{ path: `${CONTAINER}[1]`, message: '"gpu" is listed twice: remove one' }],
    ],
    [
      "a pod claim with no source",
      { resourceClaims: [{ name: "gpu" }] },
      [
        {
          path: `${POD}[0]`,
          message: expect.stringMatching(/^set one of resourceClaimName .* or resourceClaimTemplateName/) as string,
        },
      ],
    ],
    [
      "a pod claim with both sources",
      { resourceClaims: [{ ...gpu, resourceClaimName: "shared" }] },
      [
        {
          path: `${POD}[0]`,
          message: expect.stringMatching(/^set only one of resourceClaimName .*, not both$/) as string,
        },
      ],
    ],
    [
      "two pod claims of one name",
      { resourceClaims: [gpu, { ...nic, name: "gpu" }] },
      [
        {
          path: `${POD}[1].name`,
          message: '"gpu" is already the name of resourceClaims[0]: each pod claim needs a name of its own',
        },
      ],
    ],
  ])("refuses %s", (_title, workload, expected) => {
    expect(errorsOf(workload)).toEqual(expected);
  });

  it.each<[string, object, string]>([
    ["a claim name that is no DNS label", { resourceClaims: [{ ...gpu, name: "GPU_0" }] }, `${POD}[0].name`],
    [
      "a template name that is no DNS subdomain",
      { resourceClaims: [{ name: "gpu", resourceClaimTemplateName: "One GPU" }] },
      `${POD}[0].resourceClaimTemplateName`,
    ],
    [
      "a container claim field Kubernetes does not have",
      { resourceClaims: [gpu], resources: uses({ name: "gpu", device: "x" }) },
      `${CONTAINER}[0]`,
    ],
  ])("the schema refuses %s", (_title, workload, path) => {
    expect(errorsOf(workload).map((e) => e.path)).toContain(path);
  });
});
