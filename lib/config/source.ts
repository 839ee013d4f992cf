/**
 * Which config source a spec uses and which server line it targets: read by rendering, checking
 * and the sync hook's config plan alike.
 */
import type { CanonicalSpec } from "../api/canonical";
import { chooseLine, type LineChoice } from "../distributions/detect";
import { DEFAULT_DISTRIBUTIONS, findDistribution, type DistributionTable, type Release } from "../distributions/table";

/** overrideConfig → mounted as is; generation inputs (or TLS, or baseConfig) → generated; neither → the image's own default. */
export type ConfigSource = "override" | "generated" | "image-default";

/** Spec fields that only a generated config can carry. */
function needsGenerated(spec: CanonicalSpec): boolean {
  // Serving TLS needs server.tls_certfile/keyfile in the config, external providers need
  // their entries in it, the registry refresh interval has no variable (server. key only), auth
  // needs server.auth, and a base config of the user's is what the image would otherwise run,
  // brought to the line: so each alone also generates one.
  return (
    spec.baseConfig !== undefined ||
    spec.networking.tls.enabled ||
    spec.externalProviders.length > 0 ||
    spec.registryRefreshIntervalSeconds !== undefined ||
    spec.auth !== undefined
  );
}

export function configSource(spec: CanonicalSpec): ConfigSource {
  if (spec.overrideConfig) return "override";
  const p = spec.present;
  const generated = p.providers || p.resources || p.storage || p.disabled || p.replace || needsGenerated(spec);
  return generated ? "generated" : "image-default";
}

export interface LineInput {
  readonly release?: Release;
  readonly distributions?: DistributionTable;
}

/**
 * The server line the spec's image runs: explicit, else what the image says (for a name, the
 * table's image: a new CR's), with a note when that is a guess. Running servers keep their own
 * image, which only the sync hook knows (lib/sync/target.ts).
 */
export function lineFor(spec: CanonicalSpec, input: LineInput): LineChoice {
  if (input.release) return { release: input.release };
  const d = spec.distribution;
  const entry = d.kind === "name" ? findDistribution(d.name, input.distributions ?? DEFAULT_DISTRIBUTIONS) : undefined;
  const image = entry?.image ?? (d.kind === "image" ? d.image : undefined);
  return chooseLine({ ...(image ? { image } : {}), ...(entry?.overridden ? { tableRelease: entry.release } : {}) });
}

/** The line alone (lineFor without its note). */
export function releaseFor(spec: CanonicalSpec, input: LineInput): Release {
  return lineFor(spec, input).release;
}
