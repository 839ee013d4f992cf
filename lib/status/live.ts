/**
 * The status parts the running server contributes (research operator.md §1.3, §5 step 7):
 * `version`, `distributionConfig` and the `HealthCheck` condition. Pure: the server's answer
 * (`LiveReport`) was fetched before the sync ran. When it could not be had, the previous
 * status's values stay and the condition says so; `lastUpdated` moves only when a version does.
 */
import type { LiveReport, ProviderInfo } from "../live/types";
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
  /** Ready pods of the observed Deployment. */
  readonly readyReplicas: number;
  /** The observed Service the server is asked through. */
  readonly serviceName: string;
  readonly serviceObserved: boolean;
  /** The spec's distribution name, or `custom` for an image; absent for an unreadable spec. */
  readonly activeDistribution?: string;
  /** name → image of every named distribution (with the operator's overrides). */
  readonly availableDistributions: { readonly [name: string]: string };
  /** Secret values the request carries: never copied into status, whatever the server reports. Decoded only when providers are reported. */
  readonly secretValues: () => readonly string[];
}

export interface LiveStatusParts {
  readonly condition: ConditionInput;
  readonly version?: VersionStatus;
  readonly distributionConfig: { readonly [key: string]: unknown };
  /** The server was asked and did not answer: check again soon. */
  readonly retrySoon: boolean;
}

const isObject = (value: unknown): value is { [k: string]: unknown } =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const optionalText = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function isProvider(value: unknown): value is ProviderInfo {
  if (!isObject(value) || !isObject(value.config) || !isObject(value.health)) return false;
  return (
    ["api", "provider_id", "provider_type"].every((k) => typeof value[k] === "string") &&
    typeof value.health.status === "string" &&
    typeof value.health.message === "string"
  );
}

/** Only what a previous status can contribute, and only in the shape we write it. */
export function previousLiveOf(status: unknown): PreviousLive {
  if (!isObject(status)) return {};
  const version = isObject(status.version) ? status.version : undefined;
  const providers = isObject(status.distributionConfig) ? status.distributionConfig.providers : undefined;
  return {
    ...(version
      ? {
          version: {
            ...(optionalText(version.operatorVersion) !== undefined
              ? { operatorVersion: version.operatorVersion as string }
              : {}),
            ...(optionalText(version.llamaStackServerVersion) !== undefined
              ? { llamaStackServerVersion: version.llamaStackServerVersion as string }
              : {}),
            ...(optionalText(version.lastUpdated) !== undefined ? { lastUpdated: version.lastUpdated as string } : {}),
          },
        }
      : {}),
    ...(Array.isArray(providers) && providers.every(isProvider) ? { providers } : {}),
  };
}

/** The running server's provider configs with every Secret value of the request scrubbed (lib/secret-scrub.ts, as in logs). */
function scrubbed(providers: readonly ProviderInfo[], secretValues: readonly string[]): ProviderInfo[] {
  const secrets = scrubbable(secretValues);
  return providers.map((p) => (secrets.length === 0 ? structuredClone(p) : (scrubDeep(p, secrets) as ProviderInfo)));
}

function healthCondition(input: LiveInput, previous: PreviousLive): ConditionInput {
  const failed = (message: string): ConditionInput => ({
    type: T.healthCheck,
    status: "False",
    reason: "HealthCheckFailed",
    message,
  });
  if (input.readyReplicas === 0) return failed(DEPLOYMENT_NOT_READY);
  if (!input.serviceObserved) return failed(`Service ${input.serviceName} not found: the server cannot be asked yet`);
  const report = input.report;
  if (!report) {
    return {
      type: T.healthCheck,
      status: "Unknown",
      reason: "HealthCheckSkipped",
      message: "The hooks do not ask the server (live status is off)",
    };
  }
  if (report.problems.length === 0)
    return { type: T.healthCheck, status: "True", reason: "HealthCheckPassed", message: HEALTH_CHECK_PASSED };
  const kept =
    previous.version?.llamaStackServerVersion !== undefined || previous.providers !== undefined
      ? "; the version and providers shown are from the last check that succeeded"
      : "";
  return failed(`The server did not answer at ${report.url}: ${report.problems.join("; ")}${kept}`);
}

export function liveStatus(input: LiveInput, previous: PreviousLive, now: () => Date): LiveStatusParts {
  const report = input.readyReplicas > 0 && input.serviceObserved ? input.report : undefined;
  const serverVersion = report?.version ?? previous.version?.llamaStackServerVersion;
  const before = previous.version;
  const unchanged =
    before?.lastUpdated !== undefined &&
    before.operatorVersion === input.operatorVersion &&
    before.llamaStackServerVersion === serverVersion;
  const version: VersionStatus | undefined =
    input.operatorVersion === undefined && serverVersion === undefined
      ? undefined
      : {
          ...(input.operatorVersion !== undefined ? { operatorVersion: input.operatorVersion } : {}),
          ...(serverVersion !== undefined ? { llamaStackServerVersion: serverVersion } : {}),
          lastUpdated: unchanged ? before.lastUpdated! : timestamp(now()),
        };
  // No ready pod: nothing serves these providers now (the Go operator clears them too).
  const providers = input.readyReplicas === 0 ? undefined : (report?.providers ?? previous.providers);
  const names = Object.keys(input.availableDistributions).sort();
  return {
    condition: healthCondition(input, previous),
    ...(version ? { version } : {}),
    distributionConfig: {
      ...(input.activeDistribution !== undefined ? { activeDistribution: input.activeDistribution } : {}),
      ...(providers !== undefined ? { providers: scrubbed(providers, input.secretValues()) } : {}),
      availableDistributions: Object.fromEntries(names.map((n) => [n, input.availableDistributions[n]])),
    },
    retrySoon: report !== undefined && report.problems.length > 0,
  };
}
