/**
 * Provider metadata for tests that run the pure sync without a registry: what `findExternal`
 * would have read from each external provider's image (lib/sync/external-providers.ts).
 */
import { serverApiName } from "../lib/api/apis";
import type { CanonicalSpec } from "../lib/api/canonical";
import { pinImage, type ResolvedExternalProvider } from "../lib/config/external-providers";
import { parseProviderPackage } from "../lib/config/provider-package";
import type { BaseOutcome } from "../lib/sync/base-source";
import type { ExternalLookup } from "../lib/sync/external-providers";

/** The digest every fixture provider image "resolves" to. */
export const FIXTURE_DIGEST = `sha256:${"e".repeat(64)}`;

export interface ProviderSpecFields {
  readonly packageName?: string;
  readonly providerType?: string;
  readonly api?: string;
  readonly wheelPath?: string;
  readonly dependencyWheels?: readonly string[];
}

/** A `/lls-provider/lls-provider-spec.yaml` document. */
export function providerSpecYaml(name: string, fields: ProviderSpecFields = {}): string {
  const pkg = fields.packageName ?? `${name.replace(/[^A-Za-z0-9_]/g, "_")}_provider`;
  const lines = [
    "apiVersion: llamastack.io/v1alpha1",
    "kind: ProviderPackage",
    "metadata:",
    `  name: ${name}`,
    "  version: 1.0.0",
    "  vendor: example",
    "spec:",
    `  packageName: ${pkg}`,
    `  providerType: ${fields.providerType ?? `remote::${name.toLowerCase().replace(/[^a-z0-9-]/g, "-")}`}`,
    `  api: ${fields.api ?? "inference"}`,
    `  wheelPath: ${fields.wheelPath ?? `/lls-provider/packages/${pkg}-1.0.0-py3-none-any.whl`}`,
  ];
  if (fields.dependencyWheels) lines.push("  dependencyWheels:", ...fields.dependencyWheels.map((w) => `  - ${w}`));
  return `${lines.join("\n")}\n`;
}

type Sections = { readonly [section: string]: readonly { readonly providerId: string }[] };

/** Metadata that matches each external provider of `spec` (its section's API, a package named after its id). */
export function fixtureLookup(spec: unknown): ExternalLookup | undefined {
  const sections = ((spec ?? {}) as { externalProviders?: Sections }).externalProviders ?? {};
  const order = ["inference", "safety", "vectorIo", "toolRuntime", "responses", "files", "batches", "fileProcessors"];
  const results = order.flatMap((section) =>
    (sections[section] ?? []).map((p) => ({
      kind: "found" as const,
      text: providerSpecYaml(p.providerId, { api: serverApiName(section) }),
      layer: FIXTURE_DIGEST,
      digest: FIXTURE_DIGEST,
    })),
  );
  return results.length > 0 ? { kind: "read", results } : undefined;
}

/** `found` for `sync()`: nothing about the base config, metadata for every external provider. */
export function fixtureFound(spec: unknown): BaseOutcome {
  const external = fixtureLookup(spec);
  return external ? { notes: [], external } : { notes: [] };
}

/** The spec's external providers, resolved as the sync would with the fixture metadata. */
export function resolvedExternals(spec: CanonicalSpec): ResolvedExternalProvider[] {
  return spec.externalProviders.map((provider) => {
    const parsed = parseProviderPackage(providerSpecYaml(provider.providerId, { api: provider.api }), provider.image);
    if (!parsed.ok) throw new Error(parsed.message);
    return { provider, package: parsed.value, pinnedImage: pinImage(provider.image, FIXTURE_DIGEST) };
  });
}
