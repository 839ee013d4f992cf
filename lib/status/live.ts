/**
 * The status parts the running server contributes, in the Go operator's shape:
 * `version`, `distributionConfig` and the `HealthCheck` condition. Pure: the server's answer
 * (`LiveReport`) was fetched before the sync ran. When it could not be had, the previous
 * status's values stay and the condition says so; `lastUpdated` moves only when a version does.
 */
import type { LiveReport, ProviderInfo } from "../live/types";
import { isPlainObject } from "../json";
import { scrubbable, scrubDeep } from "../secret-scrub";
import { CONDITION_TYPES as T, timestamp, type ConditionInput } from "./conditions";

/** `status.distributionConfig.activeDistribution` when the spec names an image (Go operator). */
export const CUSTOM_DISTRIBUTION = "custom";

/** The Go operator's messages. */
export const HEALTH_CHECK_PASSED = "Health check passed";
export const DEPLOYMENT_NOT_READY = "Deployment not ready";

export interface VersionStatus {
  readonly operatorVersion?: string;
  readonly llamaStackServerVersion?: string;
  readonly lastUpdated: string;
}

export interface PreviousLive {
  readonly version?: {
    readonly operatorVersion?: string;
    readonly llamaStackServerVersion?: string;
    readonly lastUpdated?: string;
  };
  readonly providers?: readonly ProviderInfo[];
}

export interface LiveInput {
  /** From `OPERATOR_VERSION` or the package version; absent in pure tests. */
  readonly operatorVersion?: string;
  /** What the server said this time; absent when nobody asked (live status off). */
  readonly report?: LiveReport;
  /** The spec's distribution name, or `custom` for an image; absent for an unreadable spec. */
  readonly activeDistribution?: string;
  /** name → image of every named distribution (with the operator's overrides). */
  readonly availableDistributions: { readonly [name: string]: string };
  /** Secret values the request carries: never copied into status, whatever the server reports. Decoded only when providers are reported. */
  readonly secretValues: () => readonly string[];
}

/** What the observed children say about where the server can be asked. */
export interface Serving {
  /** Ready pods of the observed Deployment. */
  readonly readyReplicas: number;
  /** The observed Service the server is asked through. */
  readonly serviceName: string;
  readonly serviceObserved: boolean;
}

export interface LiveStatusParts {
  readonly condition: ConditionInput;
  readonly version?: VersionStatus;
  readonly distributionConfig: { readonly [key: string]: unknown };
  /** The server was asked and did not answer: check again soon. */
  readonly retrySoon: boolean;
}

function isProvider(value: unknown): value is ProviderInfo {
  if (!isPlainObject(value) || !isPlainObject(value.config) || !isPlainObject(value.health)) return false;
  return (
    typeof value.api === "string" &&
    typeof value.provider_id === "string" &&
    typeof value.provider_type === "string" &&
    typeof value.health.status === "string" &&
    typeof value.health.message === "string"
  );
}

const VERSION_FIELDS = ["operatorVersion", "llamaStackServerVersion", "lastUpdated"] as const;

/** The previous version's text fields, in the order we write them (read on every sync). */
function previousVersionOf(value: unknown): PreviousLive["version"] {
  if (!isPlainObject(value)) return undefined;
  const version: { -readonly [K in (typeof VERSION_FIELDS)[number]]?: string } = {};
  for (const field of VERSION_FIELDS) {
    const text = value[field];
    if (typeof text === "string") version[field] = text;
  }
  return version;
}

/** Only what a previous status can contribute, and only in the shape we write it. */
export function previousLiveOf(status: unknown): PreviousLive {
  if (!isPlainObject(status)) return {};
  const version = previousVersionOf(status.version);
  const providers = isPlainObject(status.distributionConfig) ? status.distributionConfig.providers : undefined;
  return {
    ...(version ? { version } : {}),
    ...(Array.isArray(providers) && providers.every(isProvider) ? { providers } : {}),
  };
}

/**
 * The running server's provider configs with every Secret value of the request scrubbed
 * (lib/secret-scrub.ts, as in logs). A provider that scrubbing bent out of shape (a Secret value
 * that is one of its field names) is left out rather than shown.
 */
function scrubbed(providers: readonly ProviderInfo[], secretValues: readonly string[]): ProviderInfo[] {
  const secrets = scrubbable(secretValues);
  if (secrets.length === 0) return providers.map((p) => structuredClone(p));
  return providers.map((p) => scrubDeep(p, secrets)).filter(isProvider);
}

function healthFailed(message: string): ConditionInput {
  return { type: T.healthCheck, status: "False", reason: "HealthCheckFailed", message };
}

function healthCondition(input: LiveInput, serving: Serving, previous: PreviousLive): ConditionInput {
  if (serving.readyReplicas === 0) return healthFailed(DEPLOYMENT_NOT_READY);
  if (!serving.serviceObserved)
    return healthFailed(`Service ${serving.serviceName} not found: the server cannot be asked yet`);
  const report = input.report;
  if (!report) {
    return {
      type: T.healthCheck,
      status: "Unknown",
      reason: "HealthCheckSkipped",
      message: "The hooks do not ask the server (live status is off)",
    };
  }
  if (report.problems.length === 0) {
    const message = report.withheld ? `${HEALTH_CHECK_PASSED}; ${report.withheld}` : HEALTH_CHECK_PASSED;
    return { type: T.healthCheck, status: "True", reason: "HealthCheckPassed", message };
  }
  const kept =
    previous.version?.llamaStackServerVersion !== undefined || previous.providers !== undefined
      ? "; the version and providers shown are from the last check that succeeded"
      : "";
  return healthFailed(`The server did not answer at ${report.url}: ${report.problems.join("; ")}${kept}`);
}

/** `lastUpdated` moves only when a version does. */
function versionStatus(
  operatorVersion: string | undefined,
  serverVersion: string | undefined,
  before: PreviousLive["version"] = {},
  now: () => Date,
): VersionStatus | undefined {
  if (operatorVersion === undefined && serverVersion === undefined) return undefined;
  const last = before.lastUpdated;
  const unchanged = before.operatorVersion === operatorVersion && before.llamaStackServerVersion === serverVersion;
  const lastUpdated = last !== undefined && unchanged ? last : timestamp(now());
  // Literals, not conditional spreads: this runs on every sync.
  if (operatorVersion === undefined) return { llamaStackServerVersion: serverVersion, lastUpdated };
  return serverVersion === undefined
    ? { operatorVersion, lastUpdated }
    : { operatorVersion, llamaStackServerVersion: serverVersion, lastUpdated };
}

function distributionConfig(
  input: LiveInput,
  providers: readonly ProviderInfo[] | undefined,
): { [key: string]: unknown } {
  const config: { [key: string]: unknown } = {};
  if (input.activeDistribution !== undefined) config.activeDistribution = input.activeDistribution;
  if (providers !== undefined) config.providers = scrubbed(providers, input.secretValues());
  const available = input.availableDistributions;
  const sorted: { [name: string]: string | undefined } = {};
  for (const name of Object.keys(available).sort()) sorted[name] = available[name];
  config.availableDistributions = sorted;
  return config;
}

/** The server's answer, when a ready pod behind an observed Service gave it. */
function answered(input: LiveInput, serving: Serving): LiveReport | undefined {
  return serving.readyReplicas > 0 && serving.serviceObserved ? input.report : undefined;
}

/** No ready pod: nothing serves these providers now (the Go operator clears them too). Withheld (auth on): the last list may predate auth. */
function shownProviders(
  report: LiveReport | undefined,
  serving: Serving,
  previous: PreviousLive,
): readonly ProviderInfo[] | undefined {
  if (serving.readyReplicas === 0 || report?.withheld !== undefined) return undefined;
  return report?.providers ?? previous.providers;
}

export function liveStatus(
  input: LiveInput,
  serving: Serving,
  previous: PreviousLive,
  now: () => Date,
): LiveStatusParts {
  const report = answered(input, serving);
  const serverVersion = report?.version ?? previous.version?.llamaStackServerVersion;
  const version = versionStatus(input.operatorVersion, serverVersion, previous.version, now);
  const providers = shownProviders(report, serving, previous);
  const condition = healthCondition(input, serving, previous);
  const distribution = distributionConfig(input, providers);
  const retrySoon = report !== undefined && report.problems.length > 0;
  return version
    ? { condition, version, distributionConfig: distribution, retrySoon }
    : { condition, distributionConfig: distribution, retrySoon };
}
