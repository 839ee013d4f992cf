/**
 * The server Deployment, named after the parent like the Go operator's, so a
 * takeover keeps its selector. Selector and pod labels are exactly the selector labels.
 */
import { copyJson } from "../json-copy";
import type { V1Deployment, V1DeploymentStrategy } from "@kubernetes/client-node";
import { CONFIG_HASH_ANNOTATION, names, selectorLabels } from "../names";
import { CA_BUNDLE_HASH_ANNOTATION } from "./ca-bundle";
import type { ChildContext } from "./context";
import { childMeta, labelsOf } from "./meta";
import { KEPT_OPEN, NETWORK_POLICY_ANNOTATION } from "./network-policy";
import { buildPodSpec } from "./pod";
import { replicaCount } from "./workload";

/**
 * The apiserver's own RollingUpdate defaults, written out: Metacontroller's 3-way apply then
 * remembers them, so switching to Recreate (storage added) removes `rollingUpdate` instead of
 * leaving it next to `type: Recreate`, which the apiserver rejects.
 */
export const ROLLING_UPDATE: V1DeploymentStrategy = {
  type: "RollingUpdate",
  rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" },
};
/** A ReadWriteOnce volume attaches to one node: the old pod must go before the new one starts. */
export const RECREATE: V1DeploymentStrategy = { type: "Recreate" };

/** Content hashes of what the server reads at start: a change rolls the pods. */
function templateAnnotations(ctx: ChildContext): { [k: string]: string } | undefined {
  const annotations = {
    ...(ctx.config ? { [CONFIG_HASH_ANNOTATION]: ctx.config.hash } : {}),
    ...(ctx.caBundle ? { [CA_BUNDLE_HASH_ANNOTATION]: ctx.caBundle.hash } : {}),
  };
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

export function buildDeployment(ctx: ChildContext): V1Deployment {
  const { workload } = ctx.spec;
  const annotations = templateAnnotations(ctx);
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: childMeta(
      ctx,
      names.deployment(ctx.name),
      ctx.keptOpen ? { [NETWORK_POLICY_ANNOTATION]: KEPT_OPEN } : undefined,
    ),
    spec: {
      // Under an HPA the field is left out: the HPA owns the count, and a value here would
      // reset it on every sync.
      ...(workload.autoscaling ? {} : { replicas: replicaCount(workload) }),
      selector: { matchLabels: labelsOf(selectorLabels(ctx.name)) },
      strategy: copyJson(workload.storage ? RECREATE : ROLLING_UPDATE),
      template: {
        metadata: {
          labels: labelsOf(selectorLabels(ctx.name)),
          ...(annotations ? { annotations } : {}),
        },
        spec: buildPodSpec(ctx),
      },
    },
  };
}
