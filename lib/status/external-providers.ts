/**
 * `status.externalProviders`: one entry per external provider, in CR order. Failed when its
 * image or metadata is wrong (the message says what to fix); Ready when the observed
 * Deployment runs its init container (same name, same pinned image) and is rolled out;
 * Pending otherwise (rolling out, or the registry could not be read this time).
 */
import type { ObservedContainer } from "./observed";

/** What the sync learned about one external provider (lib/sync/external-providers.ts). */
export interface ExternalProviderReport {
  readonly providerId: string;
  readonly image: string;
  /** `spec.externalProviders.<api>[i]`. */
  readonly path: string;
  readonly initContainer: string;
  /** `image@digest` the metadata was read from, when it was. */
  readonly pinnedImage?: string;
  /** What is wrong with it (Failed). */
  readonly problem?: string;
  /** A problem that may pass (Pending). */
  readonly waiting?: string;
  /** `package (provider_type)`, once resolved. */
  readonly installed?: string;
  /** It replaced a provider of the same id (a warning, also in `status.notes`). */
  readonly replaced?: string;
}

export interface ExternalProviderStatus {
  readonly providerId: string;
  readonly image: string;
  readonly phase: "Pending" | "Ready" | "Failed";
  readonly message: string;
  readonly initContainer: string;
}

export interface ObservedRollout {
  /** The observed Deployment's init containers (lib/sync/observed.ts). */
  readonly initContainers: readonly ObservedContainer[];
  /** The Deployment has every wanted replica ready. */
  readonly ready: boolean;
}

/** The observed pods run this provider: its init container, with the image it resolves to now (or, unknown, the CR's). */
function running(r: ExternalProviderReport, init: readonly ObservedContainer[]): boolean {
  const c = init.find((i) => i.name === r.initContainer);
  if (c?.image === undefined) return false;
  return r.pinnedImage !== undefined
    ? c.image === r.pinnedImage
    : c.image === r.image || c.image.startsWith(`${r.image}@`);
}

function entry(
  r: ExternalProviderReport,
  phase: ExternalProviderStatus["phase"],
  message: string,
): ExternalProviderStatus {
  return { providerId: r.providerId, image: r.image, phase, message, initContainer: r.initContainer };
}

export function externalProvidersStatus(
  reports: readonly ExternalProviderReport[],
  observed: ObservedRollout,
): ExternalProviderStatus[] {
  const init = observed.initContainers;
  return reports.map((r) => {
    if (r.problem !== undefined) return entry(r, "Failed", r.problem);
    const replaced = r.replaced !== undefined ? `; ${r.replaced}` : "";
    if (observed.ready && running(r, init)) {
      const what = r.installed ?? "installed";
      return entry(
        r,
        "Ready",
        `${what} installed by init container ${r.initContainer}${r.waiting ? `; the image could not be read again: ${r.waiting}` : ""}${replaced}`,
      );
    }
    if (r.waiting !== undefined) return entry(r, "Pending", r.waiting);
    return entry(
      r,
      "Pending",
      `${r.installed ?? "waiting"}: waiting for the Deployment to roll out with init container ${r.initContainer}${replaced}`,
    );
  });
}
