/**
 * External providers around the pure sync: `findExternal` reads every provider image's
 * metadata file (concurrently; each read bounded by the resolver's deadline, cached by digest,
 * single-flight), and `planExternal` turns what was read into resolved providers — or into a
 * failure that names the field and the image (running children are kept: docs/failure-policy.md).
 */
import type { CanonicalSpec, ExternalProvider } from "../api/canonical";
import { child, fieldError, type FieldError } from "../errors";
import { pinImage, type ResolvedExternalProvider } from "../config/external-providers";
import { SECTION_OF_API } from "../api/schema-v1alpha2";
import { parseProviderPackage, PROVIDER_SPEC_FILE } from "../config/provider-package";
import { externalProviderContainer } from "../names";
import type { BaseConfigResolver, CredentialLookup, ResolvedProviderSpec } from "../oci";
import type { ExternalProviderReport } from "../status/external-providers";
import type { SyncFailure } from "../status/status";

/** What the I/O step found: per spec external provider, in order; `disabled` when images are not read. */
export type ExternalLookup =
  { readonly kind: "disabled" } | { readonly kind: "read"; readonly results: readonly ResolvedProviderSpec[] };

/** `credentials` is asked only when an image will be read: most specs name no external provider. */
export async function findExternal(
  spec: CanonicalSpec,
  resolver: BaseConfigResolver | undefined,
  credentials: () => CredentialLookup | undefined,
): Promise<ExternalLookup | undefined> {
  if (spec.externalProviders.length === 0) return undefined;
  if (!resolver?.providerSpec) return { kind: "disabled" };
  const read = resolver.providerSpec.bind(resolver);
  const lookup = credentials();
  return { kind: "read", results: await Promise.all(spec.externalProviders.map((p) => read(p.image, lookup))) };
}

type Problem = { readonly reason: string; readonly message: string; readonly transient?: boolean };
type Outcome =
  { readonly ok: true; readonly value: ResolvedExternalProvider } | { readonly ok: false; readonly problem: Problem };

const DISABLED: Problem = {
  reason: "ImageReadingDisabled",
  message: `these hooks do not read images (LLSD_READ_IMAGE_LABELS=false), and an external provider's provider_type and module come from its image's ${PROVIDER_SPEC_FILE}; ask the operator to enable image reading, or remove spec.externalProviders`,
};

function outcomeOf(p: ExternalProvider, found: ResolvedProviderSpec | undefined): Outcome {
  const problem = (reason: string, message: string, transient = false): Outcome => ({
    ok: false,
    problem: { reason, message, transient },
  });
  if (found === undefined) return { ok: false, problem: DISABLED };
  if (found.kind === "error")
    return problem(
      found.transient ? "RegistryUnavailable" : "ExternalProviderImageError",
      found.message,
      found.transient,
    );
  if (found.kind === "missing")
    return problem("ProviderMetadataMissing", `Missing ${PROVIDER_SPEC_FILE} in image ${p.image}: ${found.detail}`);
  const parsed = parseProviderPackage(found.text, p.image);
  if (!parsed.ok) return problem("ProviderMetadataInvalid", parsed.message);
  if (parsed.value.api !== p.api) {
    const section = SECTION_OF_API.get(parsed.value.api) ?? parsed.value.api;
    return problem(
      "ProviderApiMismatch",
      `image ${p.image} provides the ${parsed.value.api} API (spec.api in its ${PROVIDER_SPEC_FILE}), not ${p.api}: list it under spec.externalProviders.${section}`,
    );
  }
  return { ok: true, value: { provider: p, package: parsed.value, pinnedImage: pinImage(p.image, found.digest) } };
}

export interface ExternalPlan {
  /** Every external provider resolved (absent on failure). */
  readonly resolved?: readonly ResolvedExternalProvider[];
  readonly failure?: SyncFailure;
  readonly transient?: boolean;
  /** One entry per external provider, for `status.externalProviders`. */
  readonly report: readonly ExternalProviderReport[];
}

function reportOf(p: ExternalProvider, outcome: Outcome): ExternalProviderReport {
  const base = {
    providerId: p.providerId,
    image: p.image,
    path: p.path,
    initContainer: externalProviderContainer(p.providerId),
  };
  if (outcome.ok)
    return {
      ...base,
      pinnedImage: outcome.value.pinnedImage,
      installed: `${outcome.value.package.packageName} (${outcome.value.package.providerType})`,
    };
  return outcome.problem.transient
    ? { ...base, waiting: outcome.problem.message }
    : { ...base, problem: outcome.problem.message };
}

/** Pure: what `findExternal` found → resolved providers, or a failure naming every problem. */
export function planExternal(spec: CanonicalSpec, lookup: ExternalLookup | undefined): ExternalPlan {
  if (spec.externalProviders.length === 0) return { report: [] };
  const results = lookup?.kind === "read" ? lookup.results : [];
  const outcomes = spec.externalProviders.map((p, i) => outcomeOf(p, results[i]));
  const report = spec.externalProviders.map((p, i) => reportOf(p, outcomes[i]!));
  const problems = outcomes.flatMap((o, i) =>
    o.ok ? [] : [{ ...o.problem, path: child(spec.externalProviders[i]!.path, "image") }],
  );
  if (problems.length === 0) return { resolved: outcomes.flatMap((o) => (o.ok ? [o.value] : [])), report };
  // A lasting problem is the one to fix; a passing one only when there is nothing else.
  const lead = problems.find((p) => !p.transient) ?? problems[0]!;
  const errors: FieldError[] = problems.map((p) => fieldError(p.path, p.message));
  return {
    failure: { type: "ConfigGenerated", reason: lead.reason, errors },
    transient: problems.every((p) => p.transient),
    report,
  };
}

/** The generator's "replaces provider" notes, on the entries they are about. */
export function withReplaced(
  report: readonly ExternalProviderReport[],
  notes: readonly string[],
): ExternalProviderReport[] {
  return report.map((r) => {
    const note = notes.find((n) => n.startsWith(`${r.path}: replaces `));
    return note === undefined ? r : { ...r, replaced: note.slice(r.path.length + 2) };
  });
}
