/**
 * Named distributions (`spec.distribution.name`) → the pinned image that runs them, and the
 * server release that image carries. The release decides which bundled base config and which
 * dialect (API names, provider types) the generator uses: `version:` in config.yaml is always
 * 2, so it cannot tell 0.7 from 0.8 (research llamastack-config §1.3–1.4).
 */
import { listOf } from "../errors";
import { parseImageRef, unpinnedReason } from "./image-ref";

/** Supported server lines: "0.7" = Llama Stack 0.7.x (n-1), "0.8" = OGX 0.8.x (n). */
export type Release = "0.7" | "0.8";

export const RELEASES: readonly Release[] = Object.freeze(["0.7", "0.8"] as const);

/**
 * What the pinned default images run. 0.7.1 is the last release published as
 * `llamastack/distribution-*` and the one the Go operator's release-0.9 pins
 * (research operator §3), so a takeover keeps the same server.
 */
export const DEFAULT_RELEASE: Release = "0.7";

export interface DistributionEntry {
  /** The name users write in `spec.distribution.name`. */
  readonly name: string;
  /** A pinned image reference (version tag or digest, never `:latest`). */
  readonly image: string;
  /** The server line the image runs; selects the bundled base config. */
  readonly release: Release;
}

export type DistributionTable = readonly DistributionEntry[];

/**
 * name → pinned image, never :latest. Only `starter` and `postgres-demo` are published as
 * images upstream (research llamastack-config §7.1); the Go operator's `remote-vllm` and
 * `meta-reference-gpu` no longer exist in any supported release.
 */
export const DEFAULT_DISTRIBUTIONS: DistributionTable = Object.freeze([
  Object.freeze({ name: "postgres-demo", image: "docker.io/llamastack/distribution-postgres-demo:0.7.1", release: "0.7" }),
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
      problems.push(`image override "${name}" ignored: not a distribution name (available: ${listOf(distributionNames(table))})`);
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
    return { name: entry.name, image, release: releaseOfImage(image) ?? entry.release };
  });
  return { table: overridden, problems };
}

/**
 * "docker.io/llamastack/distribution-starter:0.7.1" → "0.7"; "…:v0.8.0" → "0.8"; ogx/… images →
 * their tag's release; unknown/latest/digest-only → undefined. Also accepts a bare version
 * string like "0.8.0" or "v0.7.1-rc1". Only the tag is read: published images carry no
 * version label (research llamastack-config §8.4), and reading it costs no registry call.
 */
export function releaseOfImage(ref: string): Release | undefined {
  const asVersion = releaseOfVersion(ref);
  if (asVersion !== undefined) return asVersion;
  const tag = parseImageRef(ref)?.tag;
  return tag === undefined ? undefined : releaseOfVersion(tag);
}

/** `[v]MAJOR.MINOR[.PATCH][-pre|+build]`, as in git tags and `GET /v1/version`. */
const VERSION = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+][0-9A-Za-z.+-]*)?$/;

/** "0.7.1" → "0.7", "v0.8.0-rc1" → "0.8"; versions other than 0.7.x/0.8.x → undefined. */
export function releaseOfVersion(version: string): Release | undefined {
  const match = VERSION.exec(version);
  if (match === null) return undefined;
  const line = `${Number(match[1])}.${Number(match[2])}`;
  return RELEASES.find((release) => release === line);
}
