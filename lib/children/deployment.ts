/**
 * The server Deployment, named after the parent like the Go operator's, so a
 * takeover keeps its selector. Selector and pod labels are exactly the selector labels.
 */
import { createHash } from "node:crypto";
import type { V1Deployment, V1DeploymentSpec, V1DeploymentStrategy, V1ObjectMeta } from "@kubernetes/client-node";
import type { WorkloadInput } from "../api/v1alpha2";
import { CONFIG_HASH_ANNOTATION, DEPLOYMENT_SPEC_HASH_ANNOTATION, names } from "../names";
import { CA_BUNDLE_HASH_ANNOTATION } from "./ca-bundle";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";
import { KEPT_OPEN, NETWORK_POLICY_ANNOTATION } from "./network-policy";
import { buildPodSpec } from "./pod";
import { podSelectorLabels } from "./selector";
import { replicaCount } from "./workload";

/**
 * The strategy, a fresh object per Deployment (literals, not copies of shared constants). With
 * storage: a ReadWriteOnce volume attaches to one node, so the old pod must go before the new one
 * starts (Recreate). Else the apiserver's own RollingUpdate defaults, written out:
 * Metacontroller's 3-way apply then remembers them, so switching to Recreate (storage added)
 * removes `rollingUpdate` instead of leaving it next to `type: Recreate`, which the apiserver rejects.
 */
function strategy(storage: WorkloadInput["storage"]): V1DeploymentStrategy {
  return storage
    ? { type: "Recreate" }
    : { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } };
}

/** The pod template's metadata: its labels, and content hashes of what the server reads at start (a change rolls the pods). */
function templateMeta(ctx: ChildContext): V1ObjectMeta {
  const labels = podSelectorLabels(ctx);
  if (!ctx.config && !ctx.caBundle) return { labels };
  const annotations: { [k: string]: string } = {};
  if (ctx.config) annotations[CONFIG_HASH_ANNOTATION] = ctx.config.hash;
  if (ctx.caBundle) annotations[CA_BUNDLE_HASH_ANNOTATION] = ctx.caBundle.hash;
  return { labels, annotations };
}

/** The spec's hash: the builders write keys in a fixed order, so the same spec gives the same text. */
export function deploymentSpecHash(spec: V1DeploymentSpec): string {
  return createHash("sha256").update(JSON.stringify(spec)).digest("hex").slice(0, 16);
}

export function buildDeployment(ctx: ChildContext): V1Deployment {
  const spec = deploymentSpec(ctx);
  const annotations: { [k: string]: string } = { [DEPLOYMENT_SPEC_HASH_ANNOTATION]: deploymentSpecHash(spec) };
  if (ctx.keptOpen) annotations[NETWORK_POLICY_ANNOTATION] = KEPT_OPEN;
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: childMeta(ctx, names.deployment(ctx.name), annotations),
    spec,
  };
}

function deploymentSpec(ctx: ChildContext): V1DeploymentSpec {
  const { workload } = ctx.spec;
  const selector = { matchLabels: podSelectorLabels(ctx) };
  const template = { metadata: templateMeta(ctx), spec: buildPodSpec(ctx) };
  // Under an HPA the field is left out: the HPA owns the count, and a value here would reset it
  // on every sync. Two literals rather than a spread `replicas`: V8 adds fields to a spread copy very slowly.
  return workload.autoscaling
    ? { selector, strategy: strategy(workload.storage), template }
    : { replicas: replicaCount(workload), selector, strategy: strategy(workload.storage), template };
}
