/**
 * Named distributions (`spec.distribution.name`) → the pinned image that runs them, and the
 * server line that image carries. The line decides which bundled base config and which
 * dialect (API names, provider types, server keys) the generator uses: `version:` in
 * config.yaml is always 2, so it cannot tell 0.7 from 0.8 or 1.x.
 */
import { listOf } from "../errors";
import { parseImageRef, unpinnedReason } from "./image-ref";

/**
 * Supported server lines, oldest first: "0.7" = Llama Stack 0.7.x, "0.8" = OGX 0.8.x,
 * "1.2" = OGX 1.2.x (1.2.2 is what OpenShift AI 3.5 ships), "1.3" = OGX 1.x as of 1.3.0, the
 * newest release whose configuration code is known here. OGX 1.4 and 1.5 run on the 1.3 line
 * (same config format; a note says so), and 1.0 and 1.1 on the 1.2 line, the nearest
 * (lib/distributions/detect.ts; generating for them is refused, lib/api/validate-server-version.ts).
 */
export type Release = "0.7" | "0.8" | "1.2" | "1.3";

export const RELEASES: readonly Release[] = Object.freeze(["0.7", "0.8", "1.2", "1.3"] as const);

/** The current line: what a new v1alpha2 CR that names a distribution runs. */
export const DEFAULT_RELEASE: Release = "1.3";

export interface DistributionEntry {
  /** The name users write in `spec.distribution.name`. */
  readonly name: string;
  /** A pinned image reference (version tag or digest, never `:latest`). */
  readonly image: string;
  /** The server line the image runs; selects the bundled base config. */
  readonly release: Release;
  /** Set by the operator's image overrides: an explicit choice, followed by running servers too. */
  readonly overridden?: true;
}

export type DistributionTable = readonly DistributionEntry[];

/**
 * name → pinned image, never :latest, for a new v1alpha2 CR. Only `starter` and
 * `postgres-demo` are published as images upstream; the Go operator's `remote-vllm` and
 * `meta-reference-gpu` no longer exist in any supported release. Since 1.1 the images are
 * `ogxai/distribution-*`, and since 1.2 they carry their config.yaml as labels.
 *
 * Changing this table never moves a running server: lib/sync/target.ts keeps the image a CR
 * already runs for the same name.
 */
export const DEFAULT_DISTRIBUTIONS: DistributionTable = Object.freeze([
  Object.freeze({ name: "postgres-demo", image: "docker.io/ogxai/distribution-postgres-demo:1.3.0", release: "1.3" }),
  Object.freeze({ name: "starter", image: "docker.io/ogxai/distribution-starter:1.3.0", release: "1.3" }),
] satisfies DistributionEntry[]);

/**
 * What the Go operator's last release (release-0.9) pins: 0.7.1, the last release published
 * as `llamastack/distribution-*`. A v1alpha1 CR (the Go operator's API) that is not running
 * yet gets these, so it starts the server it would have started under the Go operator (its
 * `userConfig` startup script runs the `llama_stack` package, which 0.8+ renamed).
 */
export const GO_OPERATOR_DISTRIBUTIONS: DistributionTable = Object.freeze([
  Object.freeze({
    name: "postgres-demo",
    image: "docker.io/llamastack/distribution-postgres-demo:0.7.1",
    release: "0.7",
  }),
  Object.freeze({ name: "starter", image: "docker.io/llamastack/distribution-starter:0.7.1", release: "0.7" }),
] satisfies DistributionEntry[]);

/** Sorted, so messages that list the available names read the same every time. */
export function distributionNames(table: DistributionTable = DEFAULT_DISTRIBUTIONS): string[] {
  return table.map((entry) => entry.name).sort();
}

export function findDistribution(
  name: string,
  table: DistributionTable = DEFAULT_DISTRIBUTIONS,
): DistributionEntry | undefined {
  return table.find((entry) => entry.name === name);
}

/**
 * Apply operator overrides (name → image). Unknown names are reported, not applied;
 * `:latest` or tagless/digestless refs are rejected with a reason. The release of an
 * overridden entry comes from releaseOfImage(image), else stays (a mirror such as
 * `quay.io/acme/starter@sha256:…` usually runs what the entry it replaces ran).
 * Problems are ordered by name so status messages do not churn.
 */
export function withOverrides(
  table: DistributionTable,
  overrides: Readonly<Record<string, string>>,
): { table: DistributionTable; problems: string[] } {
  const problems: string[] = [];
  const imageByName = new Map<string, string>();
  for (const name of Object.keys(overrides).sort()) {
    const image = overrides[name] ?? "";
    if (findDistribution(name, table) === undefined) {
      problems.push(
        `image override "${name}" ignored: not a distribution name (available: ${listOf(distributionNames(table))})`,
      );
      continue;
    }
    const reason = unpinnedReason(image);
    if (reason !== undefined) {
      problems.push(`image override "${name}" ignored: ${reason}`);
      continue;
    }
    imageByName.set(name, image);
  }
  const overridden = table.map((entry): DistributionEntry => {
    const image = imageByName.get(entry.name);
    if (image === undefined) return entry;
    return { name: entry.name, image, release: releaseOfImage(image) ?? entry.release, overridden: true };
  });
  return { table: overridden, problems };
}

/**
 * "docker.io/llamastack/distribution-starter:0.7.1" → "0.7"; "…:v0.8.0" → "0.8"; "…:1.3.0" →
 * "1.3"; versions of no supported line, latest, digest-only → undefined (lib/distributions/
 * detect.ts then picks the line that fits, and says so). Also accepts a bare version string
 * like "0.8.0" or "v0.7.1-rc1". Only the tag is read: it costs no registry call.
 */
export function releaseOfImage(ref: string): Release | undefined {
  const asVersion = releaseOfVersion(ref);
  if (asVersion !== undefined) return asVersion;
  const tag = parseImageRef(ref)?.tag;
  return tag === undefined ? undefined : releaseOfVersion(tag);
}

/** `[v]MAJOR.MINOR[.PATCH][-pre|+build]`, as in git tags and `GET /v1/version`. */
export const VERSION = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+][0-9A-Za-z.+-]*)?$/;

/** "0.7.1" → "0.7", "v0.8.0-rc1" → "0.8", "1.2.2" → "1.2", "1.3.2" → "1.3"; versions of no supported line → undefined. */
export function releaseOfVersion(version: string): Release | undefined {
  const match = VERSION.exec(version);
  if (match === null) return undefined;
  const line = `${Number(match[1])}.${Number(match[2])}`;
  return RELEASES.find((release) => release === line);
}
