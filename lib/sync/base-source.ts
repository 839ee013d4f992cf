/**
 * The one I/O step of a sync (DESIGN §1): find the base config in the image's labels before
 * the pure pipeline runs. Named distributions fall back to their bundled config when the image
 * has no labels or the registry cannot be read — except a passing registry outage for a server
 * of a line that carries labels (1.x) whose config came from them: that is waited out (a
 * transient failure that keeps what runs), so the config does not flip to the bundled one and
 * back. Image references cannot fall back, and say why.
 */
import type { CanonicalSpec } from "../api/canonical";
import { fieldError } from "../errors";
import { configSource } from "../config/render";
import { chooseLine } from "../distributions/detect";
import { carriesConfigLabels } from "../config/releases";
import { credentialLookup, MISSING_CONFIG_LABELS_MESSAGE, MISSING_CONFIG_LABELS_REASON, parseDockerConfigJson, type BaseConfigResolver, type CredentialLookup } from "../oci";
import { objectsOf, KEYS, type ObjectMap } from "../wire/metacontroller";
import type { SyncFailure } from "../status/status";
import type { ResolvedBaseConfig } from "./config-plan";
import type { ExternalLookup } from "./external-providers";
import type { TargetImage } from "./target";

/** Label on dockerconfigjson Secrets that the customize hook asks for, per namespace (README: registry credentials). */
export const REGISTRY_CREDENTIALS_LABEL = "llamastack.io/registry-credentials";

export interface BaseOutcome {
  readonly base?: ResolvedBaseConfig;
  readonly failure?: SyncFailure;
  /** A registry problem that may pass: the sync asks to be called again. */
  readonly transient?: boolean;
  readonly notes: readonly string[];
  /** External providers' metadata files, read from their images (lib/sync/external-providers.ts). */
  readonly external?: ExternalLookup;
}

/** Pull credentials from the `kubernetes.io/dockerconfigjson` Secrets Metacontroller sent as related. */
export function namespaceCredentials(related: ObjectMap | undefined): CredentialLookup | undefined {
  const maps = objectsOf(related, KEYS.secret)
    .filter((s) => s.type === "kubernetes.io/dockerconfigjson" && s.metadata.labels?.[REGISTRY_CREDENTIALS_LABEL] === "true")
    .flatMap((s) => {
      const encoded = (s.data as { [k: string]: string } | undefined)?.[".dockerconfigjson"];
      const parsed = encoded === undefined ? undefined : parseDockerConfigJson(Buffer.from(encoded, "base64").toString("utf8"));
      return parsed?.ok ? [parsed.value] : [];
    });
  return maps.length > 0 ? credentialLookup(...maps) : undefined;
}

/**
 * `previousSource` is the config source the previous status recorded: a server whose config
 * came from the image's labels waits out a passing registry outage instead of switching.
 */
export async function findBase(spec: CanonicalSpec, target: TargetImage, resolver: BaseConfigResolver, related: ObjectMap | undefined, previousSource?: string): Promise<BaseOutcome> {
  if (configSource(spec) !== "generated") return { notes: [] };
  const d = spec.distribution;
  const image = target.image;
  if (image === undefined) return { notes: [] };
  const found = await resolver.resolve(image, namespaceCredentials(related));
  if (found.kind === "found") {
    return { base: { text: found.config, source: "oci-label", digest: found.digest, ...(found.version ? { version: found.version } : {}) }, notes: [] };
  }
  // A passing outage must not swap the image's config for the bundled one and back (two rollouts).
  const waits = found.kind === "error" && found.transient && previousSource === "oci-label"
    && carriesConfigLabels(chooseLine({ image, ...(target.tableRelease ? { tableRelease: target.tableRelease } : {}) }).release);
  if (d.kind === "name" && !waits) {
    const why = found.kind === "no-labels" ? "the image carries no config labels" : `the registry could not be read (${found.message})`;
    return { notes: [`spec.distribution.name: ${why}; using the config bundled for ${d.name}`] };
  }
  if (found.kind === "no-labels") {
    return { failure: { type: "ConfigGenerated", reason: MISSING_CONFIG_LABELS_REASON, errors: [fieldError("spec.distribution.image", MISSING_CONFIG_LABELS_MESSAGE)] }, notes: [] };
  }
  return {
    failure: { type: "ConfigGenerated", reason: found.transient ? "RegistryUnavailable" : "RegistryError", errors: [d.kind === "name"
      ? fieldError("spec.distribution.name", `${found.message}; images of this line carry their config as labels, so the sync waits for the registry rather than switch to the bundled config (what runs is kept)`)
      : fieldError("spec.distribution.image", found.message)] },
    transient: found.transient,
    notes: [],
  };
}
