/**
 * Which config source a spec uses and which server line it targets: read by rendering, checking
 * and the sync hook's config plan alike.
 */
import type { CanonicalSpec } from "../api/canonical";
import { DEFAULT_DISTRIBUTIONS, DEFAULT_RELEASE, findDistribution, releaseOfImage, type DistributionTable, type Release } from "../distributions/table";

/** overrideConfig → mounted as is; generation inputs (or TLS) → generated; neither → the image's own default. */
export type ConfigSource = "override" | "generated" | "image-default";

export function configSource(spec: CanonicalSpec): ConfigSource {
  if (spec.overrideConfig) return "override";
  const p = spec.present;
  // Serving TLS needs server.tls_certfile/keyfile in the config, and external providers need
  // their entries in it, so either alone also generates one.
  const generated = p.providers || p.resources || p.storage || p.disabled || spec.networking.tls.enabled || spec.externalProviders.length > 0;
  return generated ? "generated" : "image-default";
}

/** The server line the spec's image runs: explicit, else the image tag, else the default. */
export function releaseFor(spec: CanonicalSpec, input: { readonly release?: Release; readonly distributions?: DistributionTable }): Release {
  if (input.release) return input.release;
  const d = spec.distribution;
  const table = input.distributions ?? DEFAULT_DISTRIBUTIONS;
  const image = d.kind === "name" ? findDistribution(d.name, table)?.image : d.kind === "image" ? d.image : undefined;
  return (image && releaseOfImage(image)) || (d.kind === "name" ? findDistribution(d.name, table)?.release : undefined) || DEFAULT_RELEASE;
}
