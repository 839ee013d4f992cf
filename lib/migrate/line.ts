/**
 * The server line a migrated CR runs. `llsd migrate` rewrites a CR as v1alpha2, and a v1alpha2
 * CR that names a distribution starts the current default (OGX 1.x) — another major server line
 * than the Go operator's 0.7.1, with other APIs, provider types and state layout. So migrate
 * keeps the image the CR runs (the Go operator's, or the one it already runs), pinned as
 * `distribution.image`; moving to another line is a separate, explicit choice (`--release`).
 * Pure: object in, distribution and notes out.
 */
import type { CanonicalSpec } from "../api/canonical";
import { asParent } from "../admission/line";
import type { JsonMap } from "../json";
import { chooseLine } from "../distributions/detect";
import { parseImageRef } from "../distributions/image-ref";
import {
  DEFAULT_DISTRIBUTIONS,
  findDistribution,
  GO_OPERATOR_DISTRIBUTIONS,
  type Release,
} from "../distributions/table";
import { legacyOf } from "../sync/legacy";
import { targetImage } from "../sync/target";

/** The image a CR runs and its line; `image` is absent only for a distribution no table knows. */
export interface LineRun {
  readonly image?: string;
  readonly release: Release;
  /** Why this image: said in the note. */
  readonly why: string;
}

/** What the sync hook would run for the (stored, v1alpha2) object: its spec, annotations and status. */
export function lineRun(stored: JsonMap, spec: CanonicalSpec): LineRun {
  const parent = asParent(stored);
  const legacy = legacyOf(parent);
  const target = targetImage({
    parent,
    spec,
    table: DEFAULT_DISTRIBUTIONS,
    legacyContainer: () => legacy?.containerName,
  });
  const release = chooseLine({
    ...(target.image ? { image: target.image } : {}),
    ...(target.tableRelease ? { tableRelease: target.tableRelease } : {}),
  }).release;
  return { ...(target.image ? { image: target.image } : {}), release, why: whyOf(spec, legacy !== undefined) };
}

function whyOf(spec: CanonicalSpec, legacy: boolean): string {
  if (spec.distribution.kind === "image") return "spec.distribution.image, as written";
  if (legacy) return "the image the Go operator would have run for this v1alpha1 CR";
  return "the image this CR runs";
}

/**
 * The distribution the migrated CR must name to stay on `run`: the image itself when a name
 * would start another one (a new v1alpha2 CR of that name gets the current default); undefined
 * when the spec as it is already runs `run.image`.
 */
export function pinnedImage(spec: CanonicalSpec, run: LineRun): string | undefined {
  const d = spec.distribution;
  if (d.kind !== "name" || run.image === undefined) return undefined;
  return findDistribution(d.name, DEFAULT_DISTRIBUTIONS)?.image === run.image ? undefined : run.image;
}

/** The distribution name a spec runs: its `name`, or the name its image is published for (`…/distribution-starter`). */
export function distributionNameOf(spec: CanonicalSpec): string | undefined {
  const d = spec.distribution;
  if (d.kind === "name") return d.name;
  if (d.kind !== "image") return undefined;
  const last = parseImageRef(d.image)?.repository.split("/").pop() ?? "";
  return last.startsWith("distribution-") ? last.slice("distribution-".length) : undefined;
}

/** The pinned image of distribution `name` on `release`, when the hooks know one (0.7: the Go operator's; 1.3: the default). */
export function imageOnLine(name: string, release: Release): string | undefined {
  return [...DEFAULT_DISTRIBUTIONS, ...GO_OPERATOR_DISTRIBUTIONS].find(
    (entry) => entry.name === name && entry.release === release,
  )?.image;
}
