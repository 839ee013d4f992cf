/** HPA and PDB: who owns the replica count, and how many pods may go at once. */
import { buildHpa } from "../../../lib/children/hpa";
import { buildPdb } from "../../../lib/children/pdb";
import { names, selectorLabels } from "../../../lib/names";
import { aContext, NAME } from "./context-builder";

const cpu = (averageUtilization: number): object => ({
  type: "Resource",
  resource: { name: "cpu", target: { type: "Utilization", averageUtilization } },
});
const memory = (averageUtilization: number): object => ({
  type: "Resource",
  resource: { name: "memory", target: { type: "Utilization", averageUtilization } },
});

describe("buildHpa()", () => {
  it("given no autoscaling, builds nothing", () => {
    expect(buildHpa(aContext({ spec: { workload: { replicas: 4 } } }))).toBeUndefined();
  });

  it("targets the Deployment", () => {
    const hpa = buildHpa(aContext({ spec: { workload: { autoscaling: { maxReplicas: 3 } } } }));
    expect(hpa?.metadata?.name).toBe(names.hpa(NAME));
    expect(hpa?.spec?.scaleTargetRef).toEqual({
      apiVersion: "apps/v1",
      kind: "Deployment",
      name: names.deployment(NAME),
    });
  });

  it.each([
    ["nothing but max", { autoscaling: { maxReplicas: 5 } }, 1, 5],
    ["min above replicas", { replicas: 2, autoscaling: { minReplicas: 3, maxReplicas: 5 } }, 3, 5],
    ["replicas above min", { replicas: 4, autoscaling: { minReplicas: 2, maxReplicas: 5 } }, 4, 5],
    ["replicas 0", { replicas: 0, autoscaling: { maxReplicas: 5 } }, 1, 5],
    [
      "replicas above max (clamped: min > max is refused by the apiserver)",
      { replicas: 9, autoscaling: { maxReplicas: 5 } },
      5,
      5,
    ],
  ])("given %s, minReplicas %s and maxReplicas %s", (_title, workload, min, max) => {
    const spec = buildHpa(aContext({ spec: { workload } }))?.spec;
    expect([spec?.minReplicas, spec?.maxReplicas]).toEqual([min, max]);
  });

  it.each([
    ["no target: cpu 80%", {}, [cpu(80)]],
    ["cpu only", { targetCPUUtilizationPercentage: 60 }, [cpu(60)]],
    ["memory only", { targetMemoryUtilizationPercentage: 75 }, [memory(75)]],
    ["both", { targetCPUUtilizationPercentage: 60, targetMemoryUtilizationPercentage: 75 }, [cpu(60), memory(75)]],
  ])("given %s, the metrics are %j", (_title, targets, metrics) => {
    expect(
      buildHpa(aContext({ spec: { workload: { autoscaling: { maxReplicas: 3, ...targets } } } }))?.spec?.metrics,
    ).toEqual(metrics);
  });
});

describe("buildPdb()", () => {
  it.each([
    ["one replica", { replicas: 1 }],
    ["the default replica count", {}],
    ["an HPA capped at one pod", { autoscaling: { maxReplicas: 1 } }],
  ])("given %s and no budget, builds nothing", (_title, workload) => {
    expect(buildPdb(aContext({ spec: { workload } }))).toBeUndefined();
  });

  it.each([
    ["two replicas", { replicas: 2 }, { maxUnavailable: 1 }],
    ["an HPA that can scale out", { autoscaling: { maxReplicas: 4 } }, { maxUnavailable: 1 }],
    ["a given minAvailable", { podDisruptionBudget: { minAvailable: "50%" } }, { minAvailable: "50%" }],
    [
      "a given maxUnavailable, one replica",
      { replicas: 1, podDisruptionBudget: { maxUnavailable: 2 } },
      { maxUnavailable: 2 },
    ],
    ["an empty budget", { podDisruptionBudget: {} }, { maxUnavailable: 1 }],
  ])("given %s, the budget is %j, selecting the pods", (_title, workload, budget) => {
    const pdb = buildPdb(aContext({ spec: { workload } }));
    expect(pdb?.metadata?.name).toBe(names.pdb(NAME));
    expect(pdb?.spec).toEqual({ selector: { matchLabels: selectorLabels(NAME) }, ...budget });
  });
});
