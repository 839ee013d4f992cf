/**
 * HorizontalPodAutoscaler `<name>-hpa` when `workload.autoscaling` is set; the Deployment then
 * leaves `replicas` to it. Floor and default metric follow the Go operator.
 */
import type { V2HorizontalPodAutoscaler, V2MetricSpec } from "@kubernetes/client-node";
import { names } from "../names";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";
import { hpaMinReplicas } from "./workload";

/** Target CPU utilization (percent of the request) when no metric is given. */
export const DEFAULT_CPU_UTILIZATION = 80;

function utilization(name: "cpu" | "memory", averageUtilization: number): V2MetricSpec {
  return { type: "Resource", resource: { name, target: { type: "Utilization", averageUtilization } } };
}

export function buildHpa(ctx: ChildContext): V2HorizontalPodAutoscaler | undefined {
  const a = ctx.spec.workload.autoscaling;
  if (!a) return undefined;
  const cpu = a.targetCPUUtilizationPercentage;
  const memory = a.targetMemoryUtilizationPercentage;
  const metrics = [
    ...(cpu !== undefined || memory === undefined ? [utilization("cpu", cpu ?? DEFAULT_CPU_UTILIZATION)] : []),
    ...(memory !== undefined ? [utilization("memory", memory)] : []),
  ];
  return {
    apiVersion: "autoscaling/v2",
    kind: "HorizontalPodAutoscaler",
    metadata: childMeta(ctx, names.hpa(ctx.name)),
    spec: {
      scaleTargetRef: { apiVersion: "apps/v1", kind: "Deployment", name: names.deployment(ctx.name) },
      minReplicas: hpaMinReplicas(ctx.spec.workload),
      maxReplicas: a.maxReplicas,
      metrics,
    },
  };
}
