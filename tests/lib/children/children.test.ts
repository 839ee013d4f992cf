import { desiredChildren } from "../../../lib/children";
import { aContext, aFullContext, aFullSpec, aGeneratedConfig, NAME } from "./context-builder";
import { validateChild } from "./models";

function fullWithoutAutoscaling(): ReturnType<typeof aFullContext> {
  const spec = aFullSpec();
  const { autoscaling: _dropped, ...workload } = spec.workload ?? {};
  return aFullContext({ spec: { ...spec, workload } });
}

const kinds = (ctx: Parameters<typeof desiredChildren>[0]): string[] =>
  desiredChildren(ctx).map((c) => `${c.kind}/${c.metadata.name}`);

describe("desiredChildren()", () => {
  describe("given a minimal or a full-featured context, every child is a valid Kubernetes object", () => {
    it.each([
      ["minimal", aContext()],
      ["minimal with a generated config", aContext({ config: aGeneratedConfig() })],
      ["full, exposed through an Ingress", aFullContext()],
      ["full, exposed through a Route", aFullContext({ exposeWith: "route" })],
      ["full without autoscaling (replicas set, PDB given)", fullWithoutAutoscaling()],
    ])("%s", (_title, ctx) => {
      const children = desiredChildren(ctx);
      expect(children.length).toBeGreaterThan(0);
      for (const child of children) expect(() => validateChild(child)).not.toThrow();
    });
  });

  it("the validators reject an invalid object (so the checks above can fail)", () => {
    const [deployment] = desiredChildren(aContext());
    const broken = structuredClone(deployment!) as unknown as {
      spec: { template: { spec: { containers: object[] } } };
    };
    broken.spec.template.spec.containers = [{ image: "x" }];
    expect(() => validateChild(broken as never)).toThrow(/name/);
  });

  it("given a minimal context, returns Deployment, NetworkPolicy and Service only", () => {
    expect(kinds(aContext())).toEqual([
      `Deployment/${NAME}`,
      `NetworkPolicy/${NAME}-network-policy`,
      `Service/${NAME}-service`,
    ]);
  });

  it("given the full context, returns every kind sorted by kind then name", () => {
    expect(kinds(aFullContext())).toEqual([
      `ConfigMap/${NAME}-config-0123456789`,
      `Deployment/${NAME}`,
      `HorizontalPodAutoscaler/${NAME}-hpa`,
      `Ingress/${NAME}-ingress`,
      `NetworkPolicy/${NAME}-network-policy`,
      `PersistentVolumeClaim/${NAME}-pvc`,
      `PodDisruptionBudget/${NAME}-pdb`,
      `Secret/${NAME}-postgres`,
      `Service/${NAME}-service`,
    ]);
  });

  it.each([
    [
      "no generated ConfigMap for an override config",
      aContext({ config: { source: "override", configMapName: "mine", hash: "h" } }),
      "ConfigMap",
      false,
    ],
    ["a ConfigMap for a generated config", aContext({ config: aGeneratedConfig() }), "ConfigMap", true],
    [
      "a PVC when workload.storage is {}",
      aContext({ spec: { workload: { storage: {} } } }),
      "PersistentVolumeClaim",
      true,
    ],
    ["no Ingress when expose is off", aContext({ spec: { networking: { expose: false } } }), "Ingress", false],
    ["an Ingress when expose is {}", aContext({ spec: { networking: { expose: {} } } }), "Ingress", true],
    [
      "no Ingress on the Route overlay",
      aContext({ exposeWith: "route", spec: { networking: { expose: true } } }),
      "Ingress",
      false,
    ],
    [
      "a Route on the Route overlay",
      aContext({ exposeWith: "route", spec: { networking: { expose: true } } }),
      "Route",
      true,
    ],
    ["no Route on vanilla clusters", aContext({ spec: { networking: { expose: true } } }), "Route", false],
    [
      "an HPA under autoscaling",
      aContext({ spec: { workload: { autoscaling: { maxReplicas: 3 } } } }),
      "HorizontalPodAutoscaler",
      true,
    ],
    ["no PDB for one replica", aContext({ spec: { workload: { replicas: 1 } } }), "PodDisruptionBudget", false],
    ["a PDB for two replicas", aContext({ spec: { workload: { replicas: 2 } } }), "PodDisruptionBudget", true],
    [
      "a PDB when one is given",
      aContext({ spec: { workload: { podDisruptionBudget: { maxUnavailable: "50%" } } } }),
      "PodDisruptionBudget",
      true,
    ],
    [
      "a PDB when the HPA can scale past one pod",
      aContext({ spec: { workload: { autoscaling: { maxReplicas: 4 } } } }),
      "PodDisruptionBudget",
      true,
    ],
    ["no postgres Secret without postgres", aContext(), "Secret", false],
  ])("given %s", (_title, ctx, kind, present) => {
    expect(desiredChildren(ctx).some((c) => c.kind === kind)).toBe(present);
  });

  it("is deterministic: the same context gives byte-identical output", () => {
    expect(JSON.stringify(desiredChildren(aFullContext()))).toBe(JSON.stringify(desiredChildren(aFullContext())));
  });

  it("does not alias the context: changing the output leaves a second build unchanged", () => {
    const ctx = aFullContext();
    const first = desiredChildren(ctx);
    const before = JSON.stringify(desiredChildren(ctx));
    for (const child of first) (child.metadata.labels as Record<string, string>).tampered = "yes";
    const deployment = first.find((c) => c.kind === "Deployment") as unknown as {
      spec: { template: { spec: { containers: { env: { value?: string }[] }[] } } };
    };
    for (const e of deployment.spec.template.spec.containers[0]!.env) e.value = "tampered";
    expect(JSON.stringify(desiredChildren(ctx))).toBe(before);
  });
});
