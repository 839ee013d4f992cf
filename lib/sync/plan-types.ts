/**
 * The config plan's types, apart from config-plan.ts so that override-external.ts can name them
 * without importing the module that imports it (no cycles, checked by tests/lib/no-cycles.test.ts).
 */
import type { CanonicalSpec } from "../api/canonical";
import type { MountedConfig, ChildContext } from "../children/context";
import type { ResolvedExternalProvider } from "../config/external-providers";
import type { SecretEnv } from "../config/providers";
import type { PlainEnv } from "../config/telemetry";
import type { DistributionTable, Release } from "../distributions/table";
import type { GenerateResult } from "../config/generate";
import type { ConfigInUse } from "../status/status";
import type { ObjectMap } from "../wire/metacontroller";

export interface ConfigPlan {
  readonly mounted?: MountedConfig;
  readonly inUse: ConfigInUse;
  readonly secretEnv: readonly SecretEnv[];
  readonly plainEnv: readonly PlainEnv[];
  readonly postgres?: ChildContext["postgres"];
  /** The mounted ConfigMap whose server believes a gateway's identity headers (ChildContext). */
  readonly gatewayHeaders?: string;
  readonly notes: readonly string[];
}

/** A base config found outside the bundle (the image's labels), resolved before the pure sync runs. */
export interface ResolvedBaseConfig {
  readonly text: string;
  readonly source: "oci-label";
  readonly digest: string;
  /** The server version the image declares, when it does. */
  readonly version?: string;
}

export interface PlanInput {
  readonly name: string;
  readonly namespace: string;
  readonly spec: CanonicalSpec;
  readonly related?: ObjectMap;
  readonly distributions: DistributionTable;
  /** The line the target image runs (lib/sync/server-line.ts). */
  readonly release: Release;
  /** From the image's labels; absent → the bundled config of a named distribution. */
  readonly base?: ResolvedBaseConfig;
  /** External providers with their image metadata (lib/sync/external-providers.ts). */
  readonly externalProviders?: readonly ResolvedExternalProvider[];
  /** The config generated before from the same spec and inputs, when one was kept (lib/sync/config-memory.ts). */
  readonly remember?: RememberConfig;
}

/** What generating config.yaml reads besides the spec. */
export interface GenerationInputs {
  /**
   * Which base config: `bundled` (the spec's distribution name and the line pick its text) or
   * the image's, by digest (an image's content, its labels included, never changes under a digest).
   */
  readonly base: string;
  readonly release: Release;
  /** The CR's name (the derived Postgres Secret is named after it). */
  readonly name: string;
}

/** `generate()`, or the result it gave before for the same spec and inputs (lib/sync/config-memory.ts). */
export type RememberConfig = (inputs: GenerationInputs, generate: () => GenerateResult) => GenerateResult;
