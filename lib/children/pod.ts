/**
 * The pod template's spec: hardening, identity, scheduling spread and volumes around the one
 * server container.
 */
import type {
  V1Affinity,
  V1PodResourceClaim,
  V1PodSecurityContext,
  V1PodSpec,
  V1TopologySpreadConstraint,
} from "@kubernetes/client-node";
import type { WorkloadOverridesInput } from "../api/v1alpha2";
import { readsServiceAccountCa } from "../config/auth";
import { buildContainer } from "./container";
import { podSelectorLabels } from "./selector";
import type { ChildContext } from "./context";
import { externalInitContainers } from "./external-providers";
import { buildVolumes } from "./volumes";
import { legacyRunsSeveralPods, passThrough, runsSeveralPods } from "./workload";

/** Group that owns the mounted volumes (Go operator `FSGroup`), so the non-root server can write its state. */
export const FS_GROUP = 1001;
/**
 * The upstream images declare no `USER` (they run as root unless told otherwise), so
 * `runAsNonRoot` alone would make the kubelet refuse to start them. They prepare `/.llama`,
 * `/.cache` and `/app` group-writable for an arbitrary UID in group 0, which is what this UID
 * gets (no runAsGroup: the primary group stays 0).
 */
export const RUN_AS_USER = 1001;

/** Spread keys of the Go operator's default constraints, widest first. */
export const SPREAD_TOPOLOGY_KEYS = [
  "topology.kubernetes.io/region",
  "topology.kubernetes.io/zone",
  "kubernetes.io/hostname",
];
export const HOSTNAME_TOPOLOGY_KEY = "kubernetes.io/hostname";
/** Preferred (not required) anti-affinity: a small cluster still schedules every replica. */
export const ANTI_AFFINITY_WEIGHT = 100;

/** A fresh object per pod (a literal, not a copy of a shared constant). */
function podSecurityContext(): V1PodSecurityContext {
  return { runAsNonRoot: true, runAsUser: RUN_AS_USER, fsGroup: FS_GROUP, seccompProfile: { type: "RuntimeDefault" } };
}

export const INSTANCE_LABEL = "app.kubernetes.io/instance";

/** When the spread and anti-affinity defaults apply; v1alpha1 CRs follow the Go operator's rule. */
function severalPods(ctx: ChildContext): boolean {
  return ctx.legacy ? legacyRunsSeveralPods(ctx.spec.workload) : runsSeveralPods(ctx.spec.workload);
}

/** The pods the defaults spread; the Go operator selected on the instance label alone (same pods). */
function spreadSelector(ctx: ChildContext): { [k: string]: string } {
  return ctx.legacy ? { [INSTANCE_LABEL]: ctx.name } : podSelectorLabels(ctx);
}

function topologySpread(ctx: ChildContext, several: boolean): V1TopologySpreadConstraint[] | undefined {
  const user = ctx.spec.workload.topologySpreadConstraints;
  if (user && user.length > 0) return passThrough<V1TopologySpreadConstraint>(user);
  if (!several) return undefined;
  return SPREAD_TOPOLOGY_KEYS.map((topologyKey) => ({
    maxSkew: 1,
    topologyKey,
    // Soft: a single-zone or single-node cluster must still run every replica.
    whenUnsatisfiable: "ScheduleAnyway",
    labelSelector: { matchLabels: spreadSelector(ctx) },
  }));
}

function antiAffinity(ctx: ChildContext, several: boolean): V1Affinity | undefined {
  if (!several) return undefined;
  return {
    podAntiAffinity: {
      preferredDuringSchedulingIgnoredDuringExecution: [
        {
          weight: ANTI_AFFINITY_WEIGHT,
          podAffinityTerm: { labelSelector: { matchLabels: spreadSelector(ctx) }, topologyKey: HOSTNAME_TOPOLOGY_KEY },
        },
      ],
    },
  };
}

/** The pod-level `workload.overrides`, first in the pod spec's key order. */
function podOverrides(overrides: WorkloadOverridesInput): Omit<V1PodSpec, "containers"> {
  const pod: Omit<V1PodSpec, "containers"> = {};
  if (overrides.serviceAccountName !== undefined) pod.serviceAccountName = overrides.serviceAccountName;
  if (overrides.terminationGracePeriodSeconds !== undefined)
    pod.terminationGracePeriodSeconds = overrides.terminationGracePeriodSeconds;
  if (overrides.priorityClassName !== undefined) pod.priorityClassName = overrides.priorityClassName;
  return pod;
}

/**
 * Optional fields are assigned in their place in the order, not spread in (a conditional spread
 * costs an object and a copy each, for every pod of every sync); `containers` and `volumes` close it.
 */
export function buildPodSpec(ctx: ChildContext): V1PodSpec {
  const several = severalPods(ctx);
  const pod = podOverrides(ctx.spec.workload.overrides ?? {});
  // The server reads LLAMA_STACK_*/OGX_* variables; a Service named `llama-stack` or `ogx`
  // in the namespace would otherwise inject look-alikes such as LLAMA_STACK_PORT=tcp://….
  pod.enableServiceLinks = false;
  // The kubernetes auth provider checks the API server's certificate with the ServiceAccount CA,
  // mounted only with the token: a ServiceAccount that turns automounting off would leave it out.
  if (readsServiceAccountCa(ctx.spec)) pod.automountServiceAccountToken = true;
  pod.securityContext = podSecurityContext();
  const spread = topologySpread(ctx, several);
  if (spread) pod.topologySpreadConstraints = spread;
  const affinity = antiAffinity(ctx, several);
  if (affinity) pod.affinity = affinity;
  const init = externalInitContainers(ctx);
  if (init.length > 0) pod.initContainers = init;
  // DRA claims the container's resources.claims name (validate-resource-claims.ts checks they match).
  const claims = ctx.spec.workload.resourceClaims;
  if (claims && claims.length > 0) pod.resourceClaims = passThrough<V1PodResourceClaim>(claims);
  return Object.assign(pod, { containers: [buildContainer(ctx)], volumes: buildVolumes(ctx) });
}
