/**
 * Which config source a spec uses: read by validation, rendering, checking and the sync hook's
 * config plan alike.
 */
import type { CanonicalSpec } from "./canonical";

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
