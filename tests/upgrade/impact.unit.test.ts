/** How one parent's upgrade is judged: which changes replace pods, and how fields are named. */
import { differingPaths } from "./diff";
import { parentImpact } from "./impact";
import { renderReport } from "./report";

interface DeploymentParts {
  readonly configHash?: string;
  readonly caHash?: string;
  readonly configMap?: string;
  readonly env?: readonly { name: string; value: string }[];
  readonly replicas?: number;
}

function aDeployment(parts: DeploymentParts = {}): object {
  const annotations: { [k: string]: string } = { "llamastack.io/config-hash": parts.configHash ?? "aaa" };
  if (parts.caHash !== undefined) annotations["llamastack.io/ca-bundle-hash"] = parts.caHash;
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name: "llsd", annotations: { "llamastack.io/deployment-spec-hash": "h" } },
    spec: {
      replicas: parts.replicas ?? 1,
      template: {
        metadata: { labels: { app: "llsd" }, annotations },
        spec: {
          containers: [{ name: "llama-stack", image: "img:1", env: parts.env ?? [{ name: "A", value: "1" }] }],
          volumes: [{ name: "config", configMap: { name: parts.configMap ?? "llsd-config-aaa" } }],
        },
      },
    },
  };
}

const aService = (port = 8321): object => ({
  apiVersion: "v1",
  kind: "Service",
  metadata: { name: "llsd-service" },
  spec: { ports: [{ name: "http", port }] },
});

describe("parentImpact", () => {
  const before = [aDeployment(), aService()];
  it.each([
    ["nothing changed", [aDeployment(), aService()], [], []],
    [
      "the config hash (its ConfigMap's name follows it)",
      [aDeployment({ configHash: "bbb", configMap: "llsd-config-bbb" }), aService()],
      ["config hash"],
      ["Deployment llsd"],
    ],
    ["the CA hash", [aDeployment({ caHash: "c1" }), aService()], ["CA hash"], ["Deployment llsd"]],
    [
      "an env var of the pod template",
      [aDeployment({ env: [{ name: "A", value: "2" }] }), aService()],
      ["pod template (spec.template.spec.containers[llama-stack].env[A].value)"],
      ["Deployment llsd"],
    ],
    [
      "a ConfigMap name with no hash change",
      [aDeployment({ configMap: "other" }), aService()],
      ["pod template (spec.template.spec.volumes[config].configMap.name)"],
      ["Deployment llsd"],
    ],
    ["the Deployment removed", [aService()], ["Deployment removed"], ["Deployment llsd"]],
    ["replicas only", [aDeployment({ replicas: 3 }), aService()], [], ["Deployment llsd"]],
    ["a Service port", [aDeployment(), aService(80)], [], ["Service llsd-service"]],
  ])("%s", (_what, after, restarts, children) => {
    const impact = parentImpact("sample x.yaml", before, after);
    expect(impact.restarts).toEqual(restarts);
    expect(impact.changes.map((c) => c.child)).toEqual(children);
  });
});

describe("differingPaths", () => {
  it.each([
    ["an annotation key with dots is quoted", { a: { "x.io/k": 1 } }, { a: { "x.io/k": 2 } }, ['a["x.io/k"]']],
    [
      "named items by name",
      { l: [{ name: "a" }, { name: "b", v: 1 }] },
      { l: [{ name: "b", v: 2 }] },
      ["l[a]", "l[b].v"],
    ],
    ["an unnamed list of another length as a whole", { l: [1, 2] }, { l: [1, 2, 3] }, ["l"]],
    ["an unnamed list item by position", { l: [1, 2] }, { l: [1, 3] }, ["l[1]"]],
    ["a field added", { a: 1 }, { a: 1, b: 2 }, ["b"]],
    ["nothing", { a: [{ name: "x" }] }, { a: [{ name: "x" }] }, []],
  ])("%s", (_what, a, b, paths) => {
    expect(differingPaths(a, b)).toEqual(paths);
  });
});

describe("renderReport", () => {
  it("puts a parent whose pods are replaced in its section, with the reason, and counts the unchanged", () => {
    const text = renderReport({
      from: "0.1.0",
      to: "0.2.0",
      impacts: [
        parentImpact("traffic ns/vllm-1", [aDeployment()], [aDeployment({ caHash: "c" })]),
        parentImpact("sample b.yaml", [aService()], [aService(80)]),
        parentImpact("sample c.yaml", [aService()], [aService()]),
      ],
    });
    expect(text).toContain("## Pods replaced (1)\n\n- `traffic ns/vllm-1`: **CA hash** — Deployment llsd:");
    expect(text).toContain(
      "## Children changed, pods kept (1)\n\n- `sample b.yaml`: Service llsd-service: `spec.ports[http].port`",
    );
    expect(text).toContain("- pods replaced: CA hash: 1 parent — traffic vllm\n");
    expect(text).toContain("Unchanged: 1 of 3 parents.");
  });
});
