/**
 * The answer of a sync that got through: the desired children (with the storage and the
 * ConfigMap the running pods still need) and the status that describes them.
 */
import type { CanonicalSpec } from "../api/canonical";
import { desiredChildren, type CaBundleMount, type ChildContext, type LegacyProfile } from "../children";
import type { ApiServerEgress } from "../children/context";
import { DEPLOYMENT_SPEC_HASH_ANNOTATION, names } from "../names";
import { buildStatus } from "../status/status";
import type { KubeObject, SyncResponse } from "../wire/metacontroller";
import { respond, ROLLOUT_RESYNC_SECONDS, statusInput, type Extra, type SyncContext } from "./answer";
import type { CaBundle } from "./ca-bundle";
import type { ConfigPlan } from "./config-plan";
import { withReplaced, type ExternalPlan } from "./external-providers";
import { reemit, retainedStorage } from "./keep";
import type { LegacyV1alpha1 } from "./legacy";
import { holdOf } from "./hold";
import { keptOpen, KEPT_OPEN_NOTE } from "./network-access";
import { ogxTakenOver, ogxTakeoverNote } from "./ogx-takeover";
import { networkPolicyNotes } from "../children/network-policy-notes";
import { headersTrusted } from "../children/network-policy";
import { exposeNotes } from "../children/expose-notes";
import { apiServerEgressOf } from "./api-server";
import type { ServerChoice } from "./server-line";
import type { ServerMonitoringSettings } from "../distributions/monitoring";

/** Everything planned for a sync that got through. */
export interface Planned {
  readonly spec: CanonicalSpec;
  readonly external: ExternalPlan;
  readonly server: ServerChoice;
  readonly legacy: LegacyV1alpha1 | undefined;
  /** The status's extras, with the Secret references counted. */
  readonly base: Extra;
  readonly ca: { readonly bundle?: CaBundle; readonly notes: readonly string[] };
  readonly plan: ConfigPlan;
  /** Digest the image reference resolved to, when the registry was read. */
  readonly digest?: string;
}

function childrenOf(ctx: SyncContext, planned: Planned, open: boolean, apiServer?: ApiServerEgress): KubeObject[] {
  const { name, namespace } = ctx.parent;
  const { spec, server, plan, ca, legacy, external } = planned;
  const caBundle: CaBundleMount | undefined = ca.bundle
    ? { configMapName: names.caBundle(name), data: ca.bundle.data, hash: ca.bundle.hash }
    : undefined;
  const profile: LegacyProfile | undefined = legacy
    ? { containerName: legacy.containerName, networkSet: legacy.networkSet }
    : undefined;
  // Required fields first, then each optional one when set: a literal of conditional spreads
  // costs a runtime call per spread, once per sync (the context's key order is read by no one).
  const child: { -readonly [K in keyof ChildContext]: ChildContext[K] } = {
    name,
    namespace,
    spec,
    image: planned.base.image ?? "",
    release: server.release,
    serverArgs: server.args,
    secretEnv: plan.secretEnv,
    plainEnv: plan.plainEnv,
    hooksNamespace: ctx.deps.hooksNamespace,
    exposeWith: ctx.deps.exposeWith,
  };
  if (plan.mounted) child.config = plan.mounted;
  withPlanParts(child, plan);
  if (caBundle) child.caBundle = caBundle;
  if (profile) child.legacy = profile;
  if (external.resolved) child.externalProviders = external.resolved;
  if (open) child.keptOpen = true;
  return desiredChildren(withPlatform(child, ctx, apiServer));
}

/** What the hooks and the cluster say besides the spec: server-monitoring settings (lib/distributions/monitoring.ts), the API server's endpoints, an OGX operator's Deployment. */
function withPlatform(
  child: { -readonly [K in keyof ChildContext]: ChildContext[K] },
  ctx: SyncContext,
  apiServer: ApiServerEgress | undefined,
): ChildContext {
  const settings: ServerMonitoringSettings | undefined = ctx.deps.serverMonitoring;
  if (ogxTakenOver(ctx.observed)) child.ogxTakeover = true;
  if (settings) child.serverMonitoring = settings;
  if (apiServer) child.apiServer = apiServer;
  return child;
}

/** Rollout safety: the ConfigMap the running pods mount stays until the Deployment no longer does (at most two). */
function withPreviousConfigMap(ctx: SyncContext, children: KubeObject[]): KubeObject[] {
  const inUse = ctx.observed.mountedConfigMap;
  if (!inUse || children.some((c) => c.kind === "ConfigMap" && c.metadata.name === inUse.metadata.name))
    return children;
  const all = [...children, reemit(inUse)];
  return all.sort((a, b) =>
    a.kind === b.kind ? (a.metadata.name < b.metadata.name ? -1 : 1) : a.kind < b.kind ? -1 : 1,
  );
}

/** The spec hash the desired Deployment carries (lib/children/deployment.ts). */
function deploymentHashOf(children: readonly KubeObject[]): string | undefined {
  for (const c of children)
    if (c.kind === "Deployment") return c.metadata.annotations?.[DEPLOYMENT_SPEC_HASH_ANNOTATION];
  return undefined;
}

/** What a takeover keeps that new CRs do not get: open network access (Go operator), the OGX operator's selector. */
function takeoverNotes(ctx: SyncContext, open: boolean): string[] {
  return [...(open ? [KEPT_OPEN_NOTE] : []), ...(ogxTakenOver(ctx.observed) ? [ogxTakeoverNote(ctx.parent.name)] : [])];
}

/** The server believes a gateway's identity headers (the NetworkPolicy's own test, network-policy.ts). */
function believesHeaders(planned: Planned): boolean {
  return headersTrusted({ spec: planned.spec, gatewayHeaders: planned.plan.gatewayHeaders }) !== undefined;
}

/** What the config plan read from related objects and the children need: Postgres parts, a gateway-only policy. */
function withPlanParts(child: { -readonly [K in keyof ChildContext]: ChildContext[K] }, plan: Planned["plan"]): void {
  if (plan.postgres) child.postgres = plan.postgres;
  if (plan.gatewayHeaders) child.gatewayHeaders = plan.gatewayHeaders;
}

export function succeeded(ctx: SyncContext, planned: Planned): SyncResponse {
  const { ca, plan } = planned;
  // A server that believes a gateway's headers is never left open: adding upstreamHeader opts in (docs/auth.md).
  const open = keptOpen(ctx.request.parent, ctx.observed) && !believesHeaders(planned);
  // Read once: the policy's egress and its notes see the same endpoints.
  const apiServer = apiServerEgressOf(ctx.request.related);
  const children = childrenOf(ctx, planned, open, apiServer);
  const storage = retainedStorage(ctx.request.parent, ctx.observed, children);
  const desired = withPreviousConfigMap(ctx, [...children, ...storage.children]);
  const hold = holdOf(ctx, desired, { config: plan.inUse, legacyContainer: planned.legacy?.containerName });
  const input = statusInput(ctx, planned.base);
  input.externalProviders = withReplaced(planned.external.report, plan.notes);
  input.notes = [
    ...planned.base.notes,
    ...ca.notes,
    ...plan.notes,
    ...storage.notes,
    ...takeoverNotes(ctx, open),
    ...networkPolicyNotes({
      spec: planned.spec,
      exposeWith: ctx.deps.exposeWith,
      hooksNamespace: ctx.deps.hooksNamespace,
      postgres: plan.postgres,
      gatewayHeaders: plan.gatewayHeaders,
      ...(apiServer ? { apiServer } : {}),
    }),
    ...exposeNotes({ spec: planned.spec, exposeWith: ctx.deps.exposeWith, keptOpen: open }),
    ...(hold ? [hold.note] : []),
  ];
  input.config = plan.inUse;
  input.digest = planned.digest;
  if (hold) input.held = hold.status;
  input.desiredDeploymentHash = deploymentHashOf(children);
  const status = buildStatus(input);
  const phase = status.status.phase;
  const rolling = status.reconciling || phase === "Initializing" || phase === "Pending";
  return respond(status, hold ? hold.children : desired, rolling ? ROLLOUT_RESYNC_SECONDS : undefined);
}
