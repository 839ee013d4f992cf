/**
 * The one I/O step of a sync: find the base config in the image's labels before
 * the pure pipeline runs. Named distributions fall back to their bundled config only when the
 * image is known to have no labels; a registry error is a (usually transient) failure that
 * keeps what runs. Image references have no bundled config (except the pinned images of the
 * distribution tables), and say why.
 */
import type { CanonicalSpec } from "../api/canonical";
import { fieldError } from "../errors";
import { configSource } from "../config/render";
import { bundledNameOf } from "../distributions/bundled";
import {
  credentialLookup,
  MISSING_CONFIG_LABELS_MESSAGE,
  MISSING_CONFIG_LABELS_REASON,
  parseDockerConfigJson,
  type BaseConfigResolver,
  type CredentialLookup,
} from "../oci";
import { objectsOf, KEYS, stringEntries, type ObjectMap } from "../wire/metacontroller";
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
    .filter(
      (s) => s.type === "kubernetes.io/dockerconfigjson" && s.metadata.labels?.[REGISTRY_CREDENTIALS_LABEL] === "true",
    )
    .flatMap((s) => {
      const encoded = stringEntries(s.data)[".dockerconfigjson"];
      const parsed =
        encoded === undefined ? undefined : parseDockerConfigJson(Buffer.from(encoded, "base64").toString("utf8"));
      return parsed?.ok ? [parsed.value] : [];
    });
  return maps.length > 0 ? credentialLookup(...maps) : undefined;
}

type Resolved = Awaited<ReturnType<BaseConfigResolver["resolve"]>>;

/** The registry could not be read; a named distribution keeps what runs until it can. */
function registryFailure(found: Extract<Resolved, { kind: "error" }>, d: CanonicalSpec["distribution"]): BaseOutcome {
  const named = d.kind === "name";
  // Not "no labels": switching to the bundled config now would roll the pods, and roll them
  // back once the registry answers. The running children and config stay; the sync retries.
  const message = named
    ? `${found.message}. Nothing changes until the image's config labels can be read: the running config and children are kept (a new CR starts then); ` +
      "to use the bundled configs without reading the registry, set LLSD_READ_IMAGE_LABELS=false on the hooks"
    : found.message;
  return {
    failure: {
      type: "ConfigGenerated",
      reason: found.transient ? "RegistryUnavailable" : "RegistryError",
      errors: [fieldError(named ? "spec.distribution.name" : "spec.distribution.image", message)],
    },
    transient: found.transient,
    notes: [],
  };
}

/** What the image's labels gave: the base config, the bundled one for a named distribution, or why not. */
function outcomeOf(found: Resolved, d: CanonicalSpec["distribution"]): BaseOutcome {
  if (found.kind === "found") {
    return {
      base: {
        text: found.config,
        source: "oci-label",
        digest: found.digest,
        ...(found.version ? { version: found.version } : {}),
      },
      notes: [],
    };
  }
  if (found.kind === "error") return registryFailure(found, d);
  const bundled = bundledNameOf(d);
  if (bundled !== undefined)
    return {
      notes: [
        `spec.distribution.${d.kind}: the image carries no config labels; using the config bundled for ${bundled}`,
      ],
    };
  return {
    failure: {
      type: "ConfigGenerated",
      reason: MISSING_CONFIG_LABELS_REASON,
      errors: [fieldError("spec.distribution.image", MISSING_CONFIG_LABELS_MESSAGE)],
    },
    notes: [],
  };
}

/** The base config of the image the server runs (lib/sync/target.ts), read before the pure sync. */
export async function findBase(
  spec: CanonicalSpec,
  target: TargetImage,
  resolver: BaseConfigResolver,
  related: ObjectMap | undefined,
): Promise<BaseOutcome> {
  // A base config of the user's (spec.baseConfig) comes from a related ConfigMap, not the image.
  if (configSource(spec) !== "generated" || spec.baseConfig) return { notes: [] };
  const image = target.image;
  if (image === undefined) return { notes: [] };
  return outcomeOf(await resolver.resolve(image, namespaceCredentials(related)), spec.distribution);
}
