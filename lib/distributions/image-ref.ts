/**
 * Just enough of the OCI image-reference grammar to tell a pinned image from a moving one.
 * Distribution images must be pinned: a `:latest` or tagless reference changes
 * under running servers, and the release we generate config for is read from the tag.
 */

export interface ImageRef {
  /** `registry[:port]/path`, e.g. `docker.io/llamastack/distribution-starter`. */
  readonly repository: string;
  /** The part after the last `:` of the name, e.g. `0.7.1`. */
  readonly tag?: string;
  /** `algorithm:hex` after `@`, e.g. `sha256:…`. */
  readonly digest?: string;
}

/** Lower-case path components separated by `.`, `_`, `__` or dashes; optional `host[:port]/` first. */
const PATH_COMPONENT = "[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*";
const REPOSITORY = new RegExp(`^(?:[A-Za-z0-9.-]+(?::[0-9]+)?/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*$`);
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-f0-9]{32,}$/;

/** `repo[:tag][@digest]` cut at its separators, unchecked. */
function splitRef(ref: string): { repository: string; tag?: string; digest?: string } {
  const at = ref.indexOf("@");
  const name = at === -1 ? ref : ref.slice(0, at);
  const digest = at === -1 ? {} : { digest: ref.slice(at + 1) };
  // A ':' before the last '/' belongs to a registry port, not to a tag.
  const colon = name.lastIndexOf(":");
  if (colon <= name.lastIndexOf("/")) return { repository: name, ...digest };
  return { repository: name.slice(0, colon), tag: name.slice(colon + 1), ...digest };
}

/** Splits `repo[:tag][@digest]`; undefined when any part breaks the grammar. */
export function parseImageRef(ref: string): ImageRef | undefined {
  const parts = splitRef(ref);
  if (!REPOSITORY.test(parts.repository)) return undefined;
  if (parts.tag !== undefined && !TAG.test(parts.tag)) return undefined;
  if (parts.digest !== undefined && !DIGEST.test(parts.digest)) return undefined;
  return parts;
}

/**
 * Why `ref` is not an acceptable distribution image, or undefined when it is pinned.
 * A digest pins the content whatever the tag says, so `…:latest@sha256:…` is accepted.
 */
export function unpinnedReason(ref: string): string | undefined {
  const parsed = parseImageRef(ref);
  if (parsed === undefined)
    return `"${ref}" is not an image reference (expected registry/repository:tag or …@sha256:<digest>)`;
  if (parsed.digest !== undefined) return undefined;
  if (parsed.tag === undefined)
    return `"${ref}" has neither a tag nor a digest; pin a version tag (e.g. :0.7.1) or a digest`;
  if (parsed.tag === "latest")
    return `"${ref}" uses :latest, which moves under running servers; pin a version tag (e.g. :0.7.1) or a digest`;
  return undefined;
}
