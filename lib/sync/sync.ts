/**
 * The sync hook as a pure function: observed (parent, children, related) → desired (children,
 * status). The clock, the environment and what I/O found out before (the image's base config,
 * the running server's answer) come in as arguments (style rule 1).
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import type { ValidationResult } from "../api/validate";
import { checkSpec, generationErrors, withoutRepeats } from "../config/check";
import { desiredChildren, type CaBundleMount, type LegacyProfile } from "../children";
import type { DistributionTable } from "../distributions/table";
import { configSource } from "../config/render";
import type { LiveReport } from "../live/types";
import { nameErrors, names } from "../names";
import { secretValuesOf } from "../secret-scrub";
import type { Condition } from "../status/conditions";
import { CUSTOM_DISTRIBUTION, previousLiveOf, type PreviousLive } from "../status/live";
import { buildStatus, type ConfigInUse, type StatusInput, type SyncFailure } from "../status/status";
import {
  KEYS,
  objectsOf,
  type KubeObject,
  type ObjectMap,
  type SyncRequest,
  type SyncResponse,
} from "../wire/metacontroller";
import type { BaseOutcome } from "./base-source";
import { planCaBundle } from "./ca-bundle";
import { planConfig } from "./config-plan";
import { planExternal, withReplaced } from "./external-providers";
import { configMapInUse, keptChildren, reemit, retainedStorage } from "./keep";
import { legacyOf, V1ALPHA1_PATHS, type LegacyV1alpha1 } from "./legacy";
import { keptOpen, KEPT_OPEN_NOTE } from "./network-access";
import { hubParent, hubSpec, spokeStatus } from "./parent-version";
import { referencesOf } from "./references";
import { checkRelated } from "./related";
import { transientResync } from "./backoff";
import { serverChoice } from "./server-line";

export interface SyncDeps {
  readonly now: () => Date;
  readonly distributions: DistributionTable;
  /** Namespace of the hooks and Metacontroller, admitted by every NetworkPolicy. */
  readonly hooksNamespace: string;
  readonly exposeWith: "ingress" | "route";
  /** `status.version.operatorVersion` (OPERATOR_VERSION or the package version). */
  readonly operatorVersion?: string;
  /** What is wrong with the operator's image overrides file; noted in the status of the parents it concerns. */
  readonly imageOverrideProblems?: readonly string[];
}

/** Re-check soon while pods come up, so status follows the rollout without waiting for the resync period. */
const ROLLOUT_RESYNC_SECONDS = 15;
/** Ask a server that did not answer again after this long (lib/live caches the failure as long). */
const LIVE_RETRY_SECONDS = 30;

type PreviousStatus = {
  conditions?: readonly Condition[];
  configGeneration?: { configMapName?: string; generatedAt?: string };
  live?: PreviousLive;
};

interface Parent {
  readonly name: string;
  readonly namespace: string;
  readonly generation?: number;
  readonly previous?: PreviousStatus;
}

/** Only what a previous status can contribute (timestamps, the server's last answer), and only in the shape we wrote it. */
function previousOf(status: unknown): PreviousStatus | undefined {
  if (typeof status !== "object" || status === null) return undefined;
  const { conditions, configGeneration } = status as { conditions?: unknown; configGeneration?: unknown };
  const isCondition = (c: unknown): c is Condition =>
    typeof c === "object" &&
    c !== null &&
    typeof (c as Condition).type === "string" &&
    typeof (c as Condition).lastTransitionTime === "string";
  return {
    ...(Array.isArray(conditions) ? { conditions: conditions.filter(isCondition) } : {}),
    ...(typeof configGeneration === "object" && configGeneration !== null
      ? { configGeneration: configGeneration as PreviousStatus["configGeneration"] }
      : {}),
    live: previousLiveOf(status),
  };
}

function parentOf(request: SyncRequest): Parent {
  const m = request.parent.metadata;
  const previous = previousOf(request.parent.status);
  return {
    name: m.name,
    namespace: m.namespace ?? "default",
    ...(typeof m.generation === "number" ? { generation: m.generation } : {}),
    ...(previous ? { previous } : {}),
  };
}

/** The spec's distribution as written (also for a spec that does not validate). */
function distributionOf(request: SyncRequest): { name?: string; image?: string } {
  const d = ((request.parent as { spec?: { distribution?: unknown } }).spec ?? {}).distribution;
  if (typeof d !== "object" || d === null) return {};
  const { name, image } = d as { name?: unknown; image?: unknown };
  return { ...(typeof name === "string" ? { name } : {}), ...(typeof image === "string" ? { image } : {}) };
}

/** Image-override problems that concern this parent: those about its distribution name, and file-wide ones. */
function overrideNotes(deps: SyncDeps, name: string | undefined): string[] {
  if (name === undefined) return [];
  return (deps.imageOverrideProblems ?? []).filter(
    (p) => !p.startsWith('image override "') || p.startsWith(`image override "${name}"`),
  );
}

interface Extra {
  readonly port: number;
  readonly image?: string;
  readonly notes: readonly string[];
  readonly live: StatusInput["live"];
  readonly externalProviders?: StatusInput["externalProviders"];
}

function respond(
  status: ReturnType<typeof buildStatus>,
  children: KubeObject[],
  resync: number | undefined,
): SyncResponse {
  const retry = status.retrySoon ? LIVE_RETRY_SECONDS : undefined;
  const after = [resync, retry].filter((s): s is number => s !== undefined);
  return { status: status.status, children, ...(after.length > 0 ? { resyncAfterSeconds: Math.min(...after) } : {}) };
}

/** A failed sync: keep every observed child as it is, say what to fix. First-time failures create nothing. */
function failed(
  request: SyncRequest,
  p: Parent,
  deps: SyncDeps,
  failure: SyncFailure,
  extra: Extra & { readonly secretCount?: number },
  transient = false,
): SyncResponse {
  const status = buildStatus({
    ...p,
    ...extra,
    failure,
    secretCount: extra.secretCount,
    children: request.children ?? {},
    now: deps.now,
  });
  return respond(
    status,
    keptChildren(request.children),
    transient ? transientResync(p.previous?.conditions, failure, deps.now) : undefined,
  );
}

function invalidSpec(errors: readonly FieldError[]): SyncFailure {
  return { type: "ConfigGenerated", reason: "InvalidSpec", errors };
}

/**
 * v1alpha1's configMapNamespace rides in the conversion annotation. Only the CR's own namespace
 * can be mounted (the Go operator accepted another one, and its pod then failed to start).
 */
function crossNamespace(legacy: LegacyV1alpha1 | undefined, spec: CanonicalSpec, namespace: string): FieldError[] {
  if (!legacy) return [];
  const wrong = (path: string, configMap: string, other: string): FieldError =>
    fieldError(
      path,
      `ConfigMap ${configMap} is in namespace ${other}, but only ConfigMaps in the CR's own namespace (${namespace}) are supported; copy it into ${namespace} and remove configMapNamespace`,
    );
  const errors: FieldError[] = [];
  const user = legacy.userConfigNamespace;
  if (user !== undefined && user !== namespace && spec.overrideConfig)
    errors.push(wrong(V1ALPHA1_PATHS.userConfigNamespace, spec.overrideConfig.configMapName, user));
  const ca = legacy.caBundleNamespace;
  const caBundle = spec.networking.tls.caBundle;
  if (ca !== undefined && ca !== namespace && caBundle)
    errors.push(wrong(V1ALPHA1_PATHS.caBundleNamespace, caBundle.configMapName, ca));
  return errors;
}

/** The spec's own rules (lib/config/check.ts); generation runs later, against the base config the I/O found. */
export function checkedSpec(request: SyncRequest, deps: SyncDeps): ValidationResult {
  return checkSpec(hubSpec(request.parent), { distributions: deps.distributions, generation: false });
}

/**
 * `found` is the base config read from the image before this pure step (lib/sync/base-source);
 * without it, named distributions use their bundled config. `live` is what the running server
 * answered (lib/live), when it was asked. `checked` is the spec's validation, when the caller
 * already ran it to know what to fetch (lib/sync/index.ts): validating twice is a fifth of a sync.
 */
export function sync(
  request: SyncRequest,
  deps: SyncDeps,
  found: BaseOutcome = { notes: [] },
  live?: LiveReport,
  checked?: ValidationResult,
): SyncResponse {
  const hub = hubParent(request.parent);
  if (!hub.ok) {
    const failure: SyncFailure = { type: "ConfigGenerated", reason: "ConversionFailed", errors: hub.errors };
    return failed(request, parentOf(request), deps, failure, {
      port: 0,
      notes: [],
      live: { availableDistributions: {}, secretValues: () => [] },
    });
  }
  const hubRequest: SyncRequest = hub.spoke ? { ...request, parent: hub.parent } : request;
  const response = syncHub(hubRequest, deps, found, live, checked ?? checkedSpec(hubRequest, deps));
  return hub.spoke ? { ...response, status: spokeStatus(hub.parent, response.status) } : response;
}

function syncHub(
  request: SyncRequest,
  deps: SyncDeps,
  found: BaseOutcome,
  live: LiveReport | undefined,
  checked: ValidationResult,
): SyncResponse {
  const p = parentOf(request);
  const written = distributionOf(request);
  const liveInput: StatusInput["live"] = {
    ...(deps.operatorVersion !== undefined ? { operatorVersion: deps.operatorVersion } : {}),
    ...(live ? { report: live } : {}),
    ...(written.name !== undefined
      ? { activeDistribution: written.name }
      : written.image !== undefined
        ? { activeDistribution: CUSTOM_DISTRIBUTION }
        : {}),
    availableDistributions: Object.fromEntries(deps.distributions.map((e) => [e.name, e.image])),
    secretValues: () => secretValuesOf(request.related),
  };
  const notes = [
    ...checked.warnings.map((w) => `${w.path}: ${w.message}`),
    ...found.notes,
    ...overrideNotes(deps, written.name),
  ];
  if (!checked.spec || checked.errors.length > 0) {
    // As `llsd render` and /validate list them: what generation would refuse too.
    const errors = checked.spec
      ? withoutRepeats(
          checked.errors,
          generationErrors(checked.spec, { distributions: deps.distributions, name: p.name }),
        )
      : checked.errors;
    return failed(request, p, deps, invalidSpec(errors), { port: 0, notes, live: liveInput });
  }
  const badNames = nameErrors(p.name);
  if (badNames.length > 0)
    return failed(
      request,
      p,
      deps,
      { type: "ConfigGenerated", reason: "InvalidName", errors: badNames },
      { port: 0, notes, live: liveInput },
    );
  const spec = checked.spec;
  const external = planExternal(spec, found.external);
  const server = serverChoice(request, spec, deps.distributions, configSource(spec), found.base?.version);
  const base: Extra = {
    port: spec.networking.port,
    ...(server.image ? { image: server.image } : {}),
    notes: [...notes, ...server.notes],
    live: liveInput,
    externalProviders: external.report,
  };
  const legacy = legacyOf(request.parent);
  const elsewhere = crossNamespace(legacy, spec, p.namespace);
  if (elsewhere.length > 0)
    return failed(
      request,
      p,
      deps,
      { type: "ConfigGenerated", reason: "ConfigMapNamespaceUnsupported", errors: elsewhere },
      base,
    );
  const refs = referencesOf(spec);
  const related = checkRelated(refs, request.related, p.namespace);
  if (related.secrets.length > 0) {
    const reason = related.secrets.some((e) => e.message.startsWith("Secret not found"))
      ? "SecretNotFound"
      : "SecretKeyMissing";
    return failed(request, p, deps, { type: "SecretsResolved", reason, errors: related.secrets }, base);
  }
  const secretCount = refs.secretKeys.length + refs.secrets.length;
  const checkedBase = { ...base, secretCount };
  if (related.configMaps.length > 0)
    return failed(
      request,
      p,
      deps,
      { type: "ConfigGenerated", reason: "ConfigMapNotFound", errors: related.configMaps },
      checkedBase,
    );
  if (found.failure) return failed(request, p, deps, found.failure, checkedBase, found.transient === true);
  if (external.failure) return failed(request, p, deps, external.failure, checkedBase, external.transient === true);
  const ca = planCaBundle({ tls: spec.networking.tls, related: request.related, namespace: p.namespace });
  if ("failure" in ca) return failed(request, p, deps, ca.failure, checkedBase);
  const plan = planConfig({
    name: p.name,
    namespace: p.namespace,
    spec,
    related: request.related,
    distributions: deps.distributions,
    release: server.release,
    ...(found.base ? { base: found.base } : {}),
    ...(external.resolved ? { externalProviders: external.resolved } : {}),
  });
  if ("failure" in plan) return failed(request, p, deps, plan.failure, checkedBase);
  const caBundle: CaBundleMount | undefined = ca.bundle
    ? { configMapName: names.caBundle(p.name), data: ca.bundle.data, hash: ca.bundle.hash }
    : undefined;
  const profile: LegacyProfile | undefined = legacy
    ? { containerName: legacy.containerName, networkSet: legacy.networkSet }
    : undefined;
  const open = keptOpen(request, p.name, p.namespace);
  const children = desiredChildren({
    name: p.name,
    namespace: p.namespace,
    spec,
    image: base.image ?? "",
    serverArgs: server.args,
    ...(plan.mounted ? { config: plan.mounted } : {}),
    secretEnv: plan.secretEnv,
    plainEnv: plan.plainEnv,
    ...(plan.postgres ? { postgres: plan.postgres } : {}),
    hooksNamespace: deps.hooksNamespace,
    exposeWith: deps.exposeWith,
    ...(caBundle ? { caBundle } : {}),
    ...(profile ? { legacy: profile } : {}),
    ...(external.resolved ? { externalProviders: external.resolved } : {}),
    ...(open ? { keptOpen: true } : {}),
  });
  const storage = retainedStorage(request, p.name, p.namespace, children);
  const status = buildStatus({
    ...p,
    ...base,
    externalProviders: withReplaced(external.report, plan.notes),
    notes: [...base.notes, ...ca.notes, ...plan.notes, ...storage.notes, ...(open ? [KEPT_OPEN_NOTE] : [])],
    secretCount,
    config: plan.inUse as ConfigInUse,
    children: request.children ?? {},
    now: deps.now,
    ...(found.base ? { digest: found.base.digest } : {}),
  });
  const phase = status.status.phase;
  return respond(
    status,
    withPreviousConfigMap([...children, ...storage.children], request, p),
    phase === "Initializing" || phase === "Pending" ? ROLLOUT_RESYNC_SECONDS : undefined,
  );
}

/** Rollout safety: the ConfigMap the running pods mount stays until the Deployment no longer does (at most two). */
function withPreviousConfigMap(children: KubeObject[], request: SyncRequest, p: Parent): KubeObject[] {
  const inUse = configMapInUse(request.children, p.name, p.namespace);
  if (!inUse || children.some((c) => c.kind === "ConfigMap" && c.metadata.name === inUse.metadata.name))
    return children;
  const all = [...children, reemit(inUse)];
  return all.sort((a, b) =>
    a.kind === b.kind ? (a.metadata.name < b.metadata.name ? -1 : 1) : a.kind < b.kind ? -1 : 1,
  );
}
