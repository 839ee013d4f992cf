/**
 * lib/api/well-typed.ts through validate(): a value the schema refuses hides no rule error of
 * another field, no rule speaks twice for a field, and list items left out shift no path.
 */
import { validate } from "../../../lib/api/validate";

const starter = { distribution: { name: "starter" } };
const bothBudgets = { podDisruptionBudget: { minAvailable: 1, maxUnavailable: 1 } };

describe("validate() of a spec the schema refuses", () => {
  it.each([
    [
      "a type error beside a rule error",
      { workload: { replicas: "2", ...bothBudgets } },
      ["spec.workload.replicas", "spec.workload.podDisruptionBudget"],
    ],
    [
      "an unknown field: only it is left out",
      { distribution: { name: "nope" }, bogus: 1 },
      ["spec", "spec.distribution.name"],
    ],
    [
      "a wrong value under a key that holds a slash and a tilde",
      {
        providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000", secretRefs: { "a/b~c": 5 } } },
        workload: bothBudgets,
      },
      ["spec.providers.inference.secretRefs.a/b~c", "spec.workload.podDisruptionBudget"],
    ],
    [
      "an object without a required field: the object is left out",
      { workload: { autoscaling: { minReplicas: 3 }, ...bothBudgets } },
      ["spec.workload.autoscaling", "spec.workload.podDisruptionBudget"],
    ],
    [
      "a list item of the wrong type: the paths of the items after it are the file's",
      { resources: { models: [42, "llama3", { name: "e", modelType: "embedding" }] } },
      ["spec.resources.models[0]", "spec.resources.models[2].embeddingDimension"],
    ],
    [
      "a provider list item of the wrong type",
      { providers: { inference: [5, { provider: "vllm", endpoint: "vllm:8000" }] } },
      ["spec.providers.inference[0]", "spec.providers.inference[1].endpoint"],
    ],
    [
      "a rule about the field the schema refused: said once, by the schema",
      { networking: { tls: { enabled: "yes", secretName: "tls" } } },
      ["spec.networking.tls.enabled"],
    ],
  ])("%s: every problem, each with its path", (_what, overrides, paths) => {
    const { errors } = validate({ ...starter, ...overrides });
    expect(errors.map((e) => e.path)).toEqual(paths);
  });

  it("keeps the rules' messages and their warnings", () => {
    const spec = {
      ...starter,
      providers: { safety: { provider: "llama-guard" } },
      disabled: ["safety"],
      workload: { replicas: "2", ...bothBudgets },
    };
    const result = validate(spec);
    expect(result.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      "spec.workload.replicas: must be integer",
      "spec.workload.podDisruptionBudget: set one of minAvailable or maxUnavailable, not both (a PodDisruptionBudget refuses both)",
    ]);
    expect(result.warnings.map((w) => w.path)).toEqual(["spec.disabled[0]"]);
  });

  it("leaves a free-form value as it is, however deeply nested (only the way to what goes is copied)", () => {
    let settings: object = {};
    for (let i = 0; i < 20000; i++) settings = { a: settings };
    const inference = { provider: "vllm", endpoint: "http://vllm:8000", settings };
    const spec = { ...starter, providers: { inference }, workload: { replicas: "2", ...bothBudgets } };
    expect(validate(spec).errors.map((e) => e.path)).toEqual([
      "spec.workload.replicas",
      "spec.workload.podDisruptionBudget",
    ]);
  });

  it.each([
    ["the spec lacks its distribution", { workload: bothBudgets }, ["spec"]],
    ["the spec is not an object", "starter", ["spec"]],
  ])("says only the schema's errors when nothing is left to judge: %s", (_what, spec, paths) => {
    expect(validate(spec).errors.map((e) => e.path)).toEqual(paths);
    expect(validate(spec).spec).toBeUndefined();
  });
});
