/**
 * Which server line a spec targets: read by rendering, checking and the sync hook's config plan
 * alike. Which config source it uses is the spec's own fact (lib/api/config-source.ts).
 */
import type { CanonicalSpec } from "../api/canonical";
import { chooseLine, type LineChoice } from "../distributions/detect";
import { DEFAULT_DISTRIBUTIONS, findDistribution, type DistributionTable, type Release } from "../distributions/table";

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
