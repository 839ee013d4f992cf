/**
 * Status from the request alone: the outcome of this sync, the observed children, and the
 * previous status (for timestamps). Same request → same status, byte for byte.
 */
import { formatErrors, type FieldError } from "../errors";
import { DEPLOYMENT_SPEC_HASH_ANNOTATION, names, serviceDnsUrl } from "../names";
import { servesHttps, type Observed } from "./observed";
import { CONDITION_TYPES as T, timestamp, toConditions, type Condition, type ConditionInput } from "./conditions";
import { externalProvidersStatus, type ExternalProviderReport } from "./external-providers";
import {
  heldConfigGeneration,
  heldConfigMessage,
  heldResolvedDistribution,
  type HeldStatus,
  type PreviousConfigGeneration,
  type PreviousResolvedConfig,
} from "./held";
import { liveStatus, type LiveInput, type LiveStatusParts, type PreviousLive } from "./live";
import { isReconciling, summaryConditions } from "./summary";

export interface SyncFailure {
  /** The condition that reports it. */
  readonly type: typeof T.configGenerated | typeof T.secretsResolved;
  readonly reason: string;
  readonly errors: readonly FieldError[];
  /** It may pass by itself (a registry outage): the summary says Reconciling, not Stalled. */
  readonly transient?: boolean;
}

export interface ConfigInUse {
  readonly configMapName: string;
  readonly hash: string;
  readonly providerCount?: number;
  readonly resourceCount?: number;
  readonly configVersion?: number;
  readonly source: "embedded" | "oci-label" | "configmap" | "override" | "image-default";
}

export interface StatusInput {
  readonly name: string;
  readonly namespace: string;
  readonly generation?: number;
  readonly port: number;
  readonly image?: string;
  /** Digest the image reference resolved to, when the registry was read. */
  readonly digest?: string;
  readonly failure?: SyncFailure;
  /** Secret references checked against `related`; undefined when the sync stopped before checking them. */
  readonly secretCount: number | undefined;
  readonly config?: ConfigInUse;
  /** The hash of the Deployment spec this sync asks for (absent when it stopped). */
  readonly desiredDeploymentHash?: string;
  readonly notes: readonly string[];
  /** One per external provider, in CR order (absent when the spec has none). */
  readonly externalProviders?: readonly ExternalProviderReport[];
  /** The observed children, parsed once per sync (lib/sync/observed.ts). */
  readonly observed: Observed;
  readonly previous?: {
    readonly conditions?: readonly Condition[];
    readonly configGeneration?: PreviousConfigGeneration;
    readonly resolvedConfig?: PreviousResolvedConfig;
    readonly live?: PreviousLive;
  };
  /** `llamastack.io/hold-children` kept the running children instead of this sync's (lib/sync/hold.ts). */
  readonly held?: HeldStatus;
  /** What the running server contributes (`version`, `distributionConfig`, `HealthCheck`). */
  readonly live: LiveInput;
  /** Read only for a timestamp that changes (a condition flips, a new ConfigMap, a new version). */
  readonly now: () => Date;
}

type Rollout = { phase: "Pending" | "Initializing" | "Ready"; ready: number; message: string };

function rollout(input: StatusInput): Rollout {
  const deployment = input.observed.deployment;
  if (!deployment) return { phase: "Pending", ready: 0, message: "Deployment is pending" };
  const wanted = deployment.replicas ?? 1;
  const ready = deployment.readyReplicas;
  if (ready === 0) return { phase: "Initializing", ready, message: "Deployment is pending" };
  if (ready < wanted)
    return { phase: "Initializing", ready, message: `Deployment is scaling: ${ready}/${wanted} replicas ready` };
  return { phase: "Ready", ready, message: "Deployment is ready" };
}

function configCondition(input: StatusInput): ConditionInput {
  const c = generatedCondition(input);
  if (!input.held || c.status !== "True") return c;
  return { ...c, message: heldConfigMessage(input.held, c.message) };
}

function generatedCondition(input: StatusInput): ConditionInput {
  const f = input.failure;
  if (f?.type === T.configGenerated)
    return { type: T.configGenerated, status: "False", reason: f.reason, message: formatErrors(f.errors) };
  if (f)
    return {
      type: T.configGenerated,
      status: "False",
      reason: "WaitingForSecrets",
      message: "Not generated until the referenced Secrets resolve",
    };
  const c = input.config;
  if (!c || c.source === "image-default")
    return {
      type: T.configGenerated,
      status: "True",
      reason: "UsingImageDefault",
      message: "No providers, resources, storage or disabled: the image's own config.yaml is used",
    };
  if (c.source === "override")
    return {
      type: T.configGenerated,
      status: "True",
      reason: "UsingOverrideConfig",
      message: `Using config.yaml from ConfigMap ${c.configMapName}`,
    };
  return {
    type: T.configGenerated,
    status: "True",
    reason: "ConfigGenerationSucceeded",
    message: `Generated config.yaml with ${c.providerCount} providers and ${c.resourceCount} resources in ConfigMap ${c.configMapName}`,
  };
}

function secretsCondition(input: StatusInput): ConditionInput {
  const f = input.failure;
  if (f?.type === T.secretsResolved)
    return { type: T.secretsResolved, status: "False", reason: f.reason, message: formatErrors(f.errors) };
  if (input.secretCount === undefined) {
    return {
      type: T.secretsResolved,
      status: "Unknown",
      reason: "NotChecked",
      message: "Secret references were not checked: the sync stopped at an earlier error (see ConfigGenerated)",
    };
  }
  return {
    type: T.secretsResolved,
    status: "True",
    reason: "AllSecretsFound",
    message: `Resolved ${input.secretCount} secret references`,
  };
}

function rolloutConditions(r: Rollout): ConditionInput[] {
  const ready = r.phase === "Ready";
  return [
    {
      type: T.deploymentReady,
      status: ready ? "True" : "False",
      reason: ready ? "DeploymentReady" : "DeploymentPending",
      message: r.message,
    },
    {
      type: T.available,
      status: r.ready > 0 ? "True" : "False",
      reason: r.ready > 0 ? "MinimumReplicasAvailable" : "ReplicasUnavailable",
      message: `${r.ready} replicas available`,
    },
  ];
}

function generatedAt(input: StatusInput, configMapName: string): string {
  const before = input.previous?.configGeneration;
  return before?.configMapName === configMapName && before.generatedAt ? before.generatedAt : timestamp(input.now());
}

/** What the running server contributes (lib/status/live.ts), given the rollout. */
function liveParts(input: StatusInput, r: Rollout): LiveStatusParts {
  const serving = {
    readyReplicas: r.ready,
    serviceName: names.service(input.name),
    serviceObserved: input.observed.service !== undefined,
  };
  return liveStatus(input.live, serving, input.previous?.live ?? {}, input.now);
}

function configGeneration(input: StatusInput): { [k: string]: unknown } | undefined {
  const held = input.held;
  if (held && !held.mountsDesiredConfig)
    return heldConfigGeneration(held, input.previous?.configGeneration, (name) => generatedAt(input, name));
  const c = input.config;
  if (!c || c.source === "image-default") return undefined;
  const { configMapName, providerCount } = c;
  const at = generatedAt(input, configMapName);
  return providerCount === undefined
    ? { configMapName, generatedAt: at }
    : {
        configMapName,
        generatedAt: at,
        providerCount,
        resourceCount: c.resourceCount,
        configVersion: c.configVersion,
      };
}

function resolvedDistribution(input: StatusInput): { [k: string]: unknown } | undefined {
  const desired = resolvedDesired(input);
  return input.held ? heldResolvedDistribution(input.held, desired, input.previous?.resolvedConfig) : desired;
}

function resolvedDesired(input: StatusInput): { [k: string]: unknown } | undefined {
  if (!input.image) return undefined;
  const c = input.config;
  const resolved: { [k: string]: unknown } = { image: input.image };
  if (input.digest) resolved.digest = input.digest;
  // A failed sync resolved no config: no source is claimed for it.
  if (!input.failure) resolved.configSource = c?.source ?? "image-default";
  if (c && c.hash) resolved.configHash = `sha256:${c.hash}`;
  return resolved;
}

function externalProviders(input: StatusInput, r: Rollout): unknown[] | undefined {
  if (!input.externalProviders || input.externalProviders.length === 0) return undefined;
  const initContainers = input.observed.deployment?.initContainers ?? [];
  return externalProvidersStatus(input.externalProviders, { initContainers, ready: r.phase === "Ready" });
}

type Status = { [k: string]: unknown };

/**
 * The status, and whether it asks to be computed again soon (a server that did not answer).
 * Optional fields are assigned in their place in the order, not spread in: a conditional
 * spread costs an object and a copy each, on every sync.
 */
export function buildStatus(input: StatusInput): { status: Status; retrySoon: boolean; reconciling: boolean } {
  const r = rollout(input);
  const live = liveParts(input, r);
  const f = input.failure;
  const summary = summaryConditions({
    failure: f && { type: f.type, reason: f.reason, message: formatErrors(f.errors), transient: f.transient },
    desiredDeploymentHash: input.desiredDeploymentHash,
    appliedDeploymentHash: input.observed.deployment?.annotations[DEPLOYMENT_SPEC_HASH_ANNOTATION],
    deployment: input.observed.deployment,
    health: live.condition,
    generation: input.generation,
    held: input.held?.message,
  });
  const conditions = toConditions(
    [configCondition(input), secretsCondition(input), ...rolloutConditions(r), live.condition, ...summary],
    input.previous?.conditions,
    input.now,
    input.generation,
  );
  const status: Status = { phase: input.failure ? "Failed" : r.phase };
  if (input.generation !== undefined) status.observedGeneration = input.generation;
  status.conditions = conditions;
  if (live.version) status.version = live.version;
  status.distributionConfig = live.distributionConfig;
  setDefined(status, "configGeneration", configGeneration(input));
  setDefined(status, "resolvedDistribution", resolvedDistribution(input));
  status.availableReplicas = r.ready;
  addUrls(status, input);
  setDefined(status, "externalProviders", externalProviders(input, r));
  if (input.notes.length > 0) status.notes = [...input.notes];
  return { status, retrySoon: live.retrySoon, reconciling: isReconciling(summary) };
}

function setDefined(status: Status, key: string, value: unknown): void {
  if (value !== undefined) status[key] = value;
}

/**
 * The URLs the server is reached at: the observed Service's, in the scheme its pods serve
 * (https with TLS, as the probes and the live check use), then the Route's or Ingress's.
 */
function addUrls(status: Status, input: StatusInput): void {
  if (input.observed.service)
    status.serviceURL = serviceDnsUrl(input.name, input.namespace, input.port, servesHttps(input.observed));
  setDefined(status, "routeURL", routeURL(input.observed));
}

/** http(s)://<host> from the observed Route (its host, then the admitted one) or Ingress (load balancer first, then the rule's host; https with a `tls` entry). */
function routeURL(observed: Observed): string | undefined {
  const { route, ingress } = observed;
  if (route) {
    const host = route.host ?? route.admittedHost;
    return host ? `https://${host}` : "";
  }
  if (!ingress) return undefined;
  const host = ingress.loadBalancerHostname ?? ingress.loadBalancerIp ?? ingress.ruleHost;
  return host ? `${ingress.tls ? "https" : "http"}://${host}` : "";
}
