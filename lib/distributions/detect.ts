/**
 * Which server line an image runs, from what it says about itself: the version label the
 * registry returned (`com.ogx.distribution.version`, `org.opencontainers.image.version`), then
 * its tag. A version of a supported line picks that line. Anything else never falls back
 * silently: a version between or beyond the lines picks the newest line that fits (same major
 * version, not newer than the image when possible), and an image that says nothing picks from
 * its repository or the current line; each such choice comes with a note for the status.
 */
import { parseImageRef } from "./image-ref";
import { RELEASES, VERSION, type Release } from "./table";

export interface LineChoice {
  readonly release: Release;
  /** Why this line was chosen although the image did not name it; absent when it did. */
  readonly note?: string;
}

export interface LineEvidence {
  readonly image?: string;
  /** The version label read from the image (lib/oci), when the registry was read. */
  readonly labelVersion?: string;
  /** The line a distribution table entry declares for this image (an operator override without a version tag). */
  readonly tableRelease?: Release;
}

type Version = readonly [major: number, minor: number, patch: number];

function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** Each supported line's version, parsed once (the table is fixed at load). */
const LINE_VERSIONS: ReadonlyMap<Release, Version> = new Map(RELEASES.map((r) => [r, parseVersion(r)!]));
const lineVersion = (release: Release): Version => LINE_VERSIONS.get(release)!;
const compare = (a: Version, b: Version): number => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * Repository families upstream published, and the lines whose images they hold:
 * `llamastack/distribution-*` up to 0.7, `ogx/distribution-*` 0.8–1.0, `ogxai/distribution-*`
 * from 1.1. A mirror keeps no family, so every line fits it.
 */
const FAMILIES: readonly { readonly pattern: RegExp; readonly fits: (v: Version) => boolean }[] = [
  { pattern: /(^|\/)llamastack\/distribution-[^/]+$/, fits: (v) => compare(v, [0, 8, 0]) < 0 },
  { pattern: /(^|\/)ogx\/distribution-[^/]+$/, fits: (v) => compare(v, [0, 8, 0]) >= 0 && compare(v, [1, 1, 0]) < 0 },
  { pattern: /(^|\/)ogxai\/distribution-[^/]+$/, fits: (v) => compare(v, [1, 1, 0]) >= 0 },
];

function familyOf(image: string | undefined): ((v: Version) => boolean) | undefined {
  const repository = image === undefined ? undefined : parseImageRef(image)?.repository;
  return repository === undefined ? undefined : FAMILIES.find((f) => f.pattern.test(repository))?.fits;
}

const listed = `supported lines: ${RELEASES.join(", ")}`;

/** The line for a version no line names: same major first, the newest not above it, else the nearest. */
function fitVersion(version: Version, text: string, source: string): LineChoice {
  const sameMajor = RELEASES.filter((r) => lineVersion(r)[0] === version[0]);
  const pool = sameMajor.length > 0 ? sameMajor : RELEASES;
  const below = pool.filter((r) => compare(lineVersion(r), version) <= 0);
  const release = below.length > 0 ? below[below.length - 1]! : pool[0]!;
  const relation = compare(lineVersion(release), version) < 0 ? "older" : "newer";
  return {
    release,
    note: `server version ${text} (${source}) is not a line these hooks know (${listed}); the config is written for the ${release} line, the nearest that fits (${relation} than the server)`,
  };
}

/** The image's version as a line, with a note when the line is only the nearest one. */
export function lineOfVersion(text: string, source: string): LineChoice | undefined {
  const version = parseVersion(text);
  if (version === undefined) return undefined;
  for (const [release, [major, minor]] of LINE_VERSIONS)
    if (major === version[0] && minor === version[1]) return { release };
  return fitVersion(version, text, source);
}

/** The line the image names itself, by its version label first, then its tag. */
function namedLine(evidence: LineEvidence): LineChoice | undefined {
  const image = evidence.image;
  if (evidence.labelVersion !== undefined) {
    const byLabel = lineOfVersion(evidence.labelVersion, `version label of ${image ?? "the image"}`);
    if (byLabel !== undefined) return byLabel;
  }
  const tag = image === undefined ? undefined : parseImageRef(image)?.tag;
  return tag === undefined ? undefined : lineOfVersion(tag, `tag of ${image}`);
}

/** For an image that names no version: the newest line its repository family publishes, else the newest line. */
function lineByRepository(image: string | undefined, what: string): LineChoice {
  const fits = familyOf(image);
  const candidates = fits ? RELEASES.filter((r) => fits(lineVersion(r))) : [];
  const release = candidates.length > 0 ? candidates[candidates.length - 1]! : RELEASES[RELEASES.length - 1]!;
  const why = candidates.length > 0 ? "the newest line its repository publishes" : "the newest line";
  return {
    release,
    note: `${what}; the config is written for the ${release} line, ${why} (${listed}); use a version tag to choose`,
  };
}

/** The line an image runs, from its labels, its tag, its table entry or its repository, in that order. */
export function chooseLine(evidence: LineEvidence): LineChoice {
  const named = namedLine(evidence);
  if (named !== undefined) return named;
  const what = `${evidence.image ?? "the image"} names no version (neither a version tag nor a version label)`;
  if (evidence.tableRelease !== undefined) {
    return {
      release: evidence.tableRelease,
      note: `${what}; the config is written for the ${evidence.tableRelease} line of the distribution entry it replaces`,
    };
  }
  return lineByRepository(evidence.image, what);
}

/** True only when the image's label or tag names a version below `bound` ("1.2.0"); unknown → false. */
export function knownBelow(evidence: LineEvidence, bound: string): boolean {
  const tag = evidence.image === undefined ? undefined : parseImageRef(evidence.image)?.tag;
  const version =
    (evidence.labelVersion === undefined ? undefined : parseVersion(evidence.labelVersion)) ??
    (tag === undefined ? undefined : parseVersion(tag));
  const limit = parseVersion(bound);
  return version !== undefined && limit !== undefined && compare(version, limit) < 0;
}
