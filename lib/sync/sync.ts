/**
 * The sync hook as a pure function: observed (parent, children, related) → desired (children,
 * status). The clock, the environment and what I/O found out before (the image's base config,
 * the running server's answer) come in as arguments.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "../api/canonical";
import type { ValidationResult } from "../api/validate";
import { checkSpec, generationErrors, withoutRepeats } from "../config/check";
import { configSource } from "../config/render";
import type { LiveReport } from "../live/types";
import { nameErrors } from "../names";
import type { SyncFailure } from "../status/status";
import type { SyncRequest, SyncResponse } from "../wire/metacontroller";
import { failed, type Extra, type Stop, type SyncContext, type SyncDeps } from "./answer";
import type { BaseOutcome } from "./base-source";
import { planCaBundle } from "./ca-bundle";
import { planConfig, UNSHARED_STATE, type RememberConfig } from "./config-plan";
import { succeeded, type Planned } from "./desired";
import { planExternal, type ExternalPlan } from "./external-providers";
import { legacyOf, V1ALPHA1_PATHS, type LegacyV1alpha1 } from "./legacy";
import { observedOf, runsAlready, type Observed } from "../status/observed";
import { parentOf } from "./parent";
import { hubParent, hubSpec, spokeStatus } from "./parent-version";
import { referencesOf, type References } from "./references";
import { checkRelated } from "./related";
import { serverChoice } from "./server-line";
import { shownExtra } from "./shown";
import { withUnsharedNote } from "./unshared";
import { isStateError } from "../config/shared-state-errors";
import { monitoringNotes, monitoringStop } from "./monitoring";

export type { SyncDeps } from "./answer";

/** What the steps before the pure sync found or already computed (lib/sync/with-io.ts). */
export interface SyncInputs {
  /** The base config read from the image; without it, named distributions use their bundled config. */
  readonly found?: BaseOutcome;
  /** What the running server answered (lib/live), when it was asked. */
  readonly live?: LiveReport;
  /** The spec's validation, when the caller already ran it: validating twice is a fifth of a sync. */
  readonly checked?: ValidationResult;
  /** The observed children, when the caller already parsed them. */
  readonly observed?: Observed;
  /** The config generated for this parent before, offered again (lib/sync/config-memory.ts). */
  readonly remember?: RememberConfig;
}

/** The spec's own rules (lib/config/check.ts); generation runs later, against the base config the I/O found. */
export function checkedSpec(request: SyncRequest, deps: SyncDeps): ValidationResult {
  return checkSpec(hubSpec(request.parent), {
    distributions: deps.distributions,
    generation: false,
    exposeWith: deps.exposeWith,
    keepsRedisPassword: runsAlready(request),
    ...(deps.gatewayParent ? { gatewayParent: deps.gatewayParent } : {}),
  });
}

/** `found` is the base config read from the image before this pure step; `live` what the running server answered. */
export function sync(
  request: SyncRequest,
  deps: SyncDeps,
  found: BaseOutcome = { notes: [] },
  live?: LiveReport,
): SyncResponse {
  return syncWithInputs(request, deps, { found, ...(live ? { live } : {}) });
}

/** The pure sync with everything the steps before it found (a v1alpha1 parent is answered in v1alpha1). */
export function syncWithInputs(request: SyncRequest, deps: SyncDeps, inputs: SyncInputs): SyncResponse {
  const observed = inputs.observed ?? observedOf(request);
  const hub = hubParent(request.parent);
  if (!hub.ok) {
    const failure: SyncFailure = { type: "ConfigGenerated", reason: "ConversionFailed", errors: hub.errors };
    const extra: Extra = { port: 0, notes: [], live: { availableDistributions: {}, secretValues: () => [] } };
    return failed({ request, deps, parent: parentOf(request), observed }, { failure, extra });
  }
  const hubRequest: SyncRequest = hub.spoke ? { ...request, parent: hub.parent } : request;
  const ctx: SyncContext = { request: hubRequest, deps, parent: parentOf(hubRequest), observed };
  const response = syncHub(ctx, inputs, inputs.checked ?? checkedSpec(hubRequest, deps));
  return hub.spoke ? { ...response, status: spokeStatus(hub.parent, response.status) } : response;
}

function syncHub(ctx: SyncContext, inputs: SyncInputs, checked: ValidationResult): SyncResponse {
  const found = inputs.found ?? { notes: [] };
  const shown = shownExtra(ctx, checked, found, inputs.live);
  const valid = validSpec(ctx, checked, shown);
  if ("failure" in valid) return failed(ctx, valid);
  const spec = valid.spec;
  const external = planExternal(spec, found.external);
  const server = serverChoice({
    request: ctx.request,
    spec,
    table: ctx.deps.distributions,
    source: configSource(spec),
    ...(found.base?.version ? { labelVersion: found.base.version } : {}),
    observed: ctx.observed,
  });
  // A literal, not `{ ...shown, more }`: V8 adds keys to a spread copy slowly, and this runs on every sync.
  const base: Extra = {
    port: spec.networking.port,
    ...(server.image ? { image: server.image } : {}),
    notes: [...shown.notes, ...server.notes, ...monitoringNotes(spec, ctx.deps)],
    live: shown.live,
    externalProviders: external.report,
  };
  const legacy = legacyOf(ctx.request.parent);
  const refs = referencesOf(spec);
  const withCount = counted(base, refs);
  const stop =
    referenceStop(ctx, { spec, legacy, refs, base }) ??
    ioStop(found, external, withCount) ??
    monitoringStop(spec, server, found, withCount);
  if (stop) return failed(ctx, stop);
  return planned(ctx, { spec, found, external, server, legacy, base: withCount }, inputs.remember);
}

const counted = (base: Extra, refs: References): Extra => ({
  ...base,
  secretCount: refs.secretKeys.length + refs.secrets.length,
});

/** The spec, once it and the parent's name are valid; else why not. */
function validSpec(ctx: SyncContext, checked: ValidationResult, extra: Extra): { readonly spec: CanonicalSpec } | Stop {
  // The name first, then the spec, as `llsd validate` and /validate list them: every problem at once.
  const badNames = nameErrors(ctx.parent.name);
  if (!checked.spec || checked.errors.length > 0) {
    // As `llsd render` and /validate list them: what generation would refuse too.
    const errors = checked.spec
      ? withoutRepeats(
          checked.errors,
          generationErrors(checked.spec, { distributions: ctx.deps.distributions, name: ctx.parent.name }),
        )
      : checked.errors;
    const all = [...badNames, ...errors];
    // Only state that cannot be shared between pods (workload.storage with several): kept running as it is.
    const reason = all.every(isStateError) ? UNSHARED_STATE : "InvalidSpec";
    const failure: SyncFailure = { type: "ConfigGenerated", reason, errors: all };
    return { failure, extra: withUnsharedNote(ctx, failure, extra) };
  }
  if (badNames.length > 0)
    return { failure: { type: "ConfigGenerated", reason: "InvalidName", errors: badNames }, extra };
  return { spec: checked.spec };
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
  // v1alpha1 holds one CA ConfigMap: the first of the list.
  const caBundle = spec.networking.tls.caBundle?.[0];
  if (ca !== undefined && ca !== namespace && caBundle)
    errors.push(wrong(V1ALPHA1_PATHS.caBundleNamespace, caBundle.configMapName, ca));
  return errors;
}

interface Referenced {
  readonly spec: CanonicalSpec;
  readonly legacy: LegacyV1alpha1 | undefined;
  readonly refs: References;
  readonly base: Extra;
}

/** A referenced Secret or ConfigMap that is missing, or in a namespace that cannot be mounted. */
function referenceStop(ctx: SyncContext, { spec, legacy, refs, base }: Referenced): Stop | undefined {
  const namespace = ctx.parent.namespace;
  const elsewhere = crossNamespace(legacy, spec, namespace);
  if (elsewhere.length > 0)
    return {
      failure: { type: "ConfigGenerated", reason: "ConfigMapNamespaceUnsupported", errors: elsewhere },
      extra: base,
    };
  const related = checkRelated(refs, ctx.request.related, namespace);
  if (related.secrets.length > 0) {
    const reason = related.secrets.some((e) => e.message.startsWith("Secret not found"))
      ? "SecretNotFound"
      : "SecretKeyMissing";
    return { failure: { type: "SecretsResolved", reason, errors: related.secrets }, extra: base };
  }
  if (related.configMaps.length === 0) return undefined;
  return {
    failure: { type: "ConfigGenerated", reason: "ConfigMapNotFound", errors: related.configMaps },
    extra: counted(base, refs),
  };
}

/** What the I/O could not read (the image's config labels, external providers' metadata). */
function ioStop(found: BaseOutcome, external: ExternalPlan, extra: Extra): Stop | undefined {
  if (found.failure) return { failure: found.failure, extra, transient: found.transient === true };
  if (external.failure) return { failure: external.failure, extra, transient: external.transient === true };
  return undefined;
}

type Planning = Omit<Planned, "ca" | "plan" | "digest"> & { readonly found: BaseOutcome };

/** The CA bundle and the config, then the desired children. */
function planned(ctx: SyncContext, parts: Planning, remember: RememberConfig | undefined): SyncResponse {
  const { spec, found, external, server, base } = parts;
  const { related } = ctx.request;
  const { name, namespace } = ctx.parent;
  const ca = planCaBundle({ tls: spec.networking.tls, related, namespace });
  if ("failure" in ca) return failed(ctx, { failure: ca.failure, extra: base });
  const plan = planConfig({
    name,
    namespace,
    spec,
    related,
    distributions: ctx.deps.distributions,
    release: server.release,
    ...(found.base ? { base: found.base } : {}),
    ...(external.resolved ? { externalProviders: external.resolved } : {}),
    ...(remember ? { remember } : {}),
  });
  if ("failure" in plan)
    return failed(ctx, { failure: plan.failure, extra: withUnsharedNote(ctx, plan.failure, base) });
  return succeeded(ctx, { ...parts, ca, plan, ...(found.base ? { digest: found.base.digest } : {}) });
}
