/** Manifests, indexes and image configs: JSON → checked shapes. Pure. */
import { isPlainObject, type JsonMap } from "../json";
import {
  DEFAULT_PLATFORM,
  fail,
  MEDIA,
  ok,
  REASON,
  SHA256_DIGEST,
  type Descriptor,
  type ImageIndex,
  type Manifest,
  type Platform,
  type Result,
} from "./types";

function parseJson(bytes: Buffer, what: string): Result<JsonMap> {
  try {
    const value: unknown = JSON.parse(bytes.toString("utf8"));
    return isPlainObject(value) ? ok(value) : fail(REASON.invalidImage, `the ${what} is not a JSON object`);
  } catch {
    return fail(REASON.invalidImage, `the ${what} is not valid JSON`);
  }
}

function parsePlatform(value: unknown): Platform | undefined {
  if (!isPlainObject(value) || typeof value.os !== "string" || typeof value.architecture !== "string") return undefined;
  return {
    os: value.os,
    architecture: value.architecture,
    ...(typeof value.variant === "string" ? { variant: value.variant } : {}),
  };
}

function parseDescriptor(value: unknown): Descriptor | undefined {
  if (!isPlainObject(value)) return undefined;
  const { mediaType, digest, size } = value;
  if (typeof digest !== "string" || !SHA256_DIGEST.test(digest)) return undefined;
  if (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0) return undefined;
  const platform = parsePlatform(value.platform);
  return { mediaType: typeof mediaType === "string" ? mediaType : "", digest, size, ...(platform ? { platform } : {}) };
}

function parseDescriptors(value: unknown, what: string): Result<Descriptor[]> {
  if (!Array.isArray(value)) return fail(REASON.invalidImage, `the manifest has no ${what} list`);
  const out: Descriptor[] = [];
  for (const item of value) {
    const d = parseDescriptor(item);
    if (d === undefined)
      return fail(REASON.invalidImage, `the manifest has a ${what} entry without a sha256 digest and size`);
    out.push(d);
  }
  return ok(out);
}

/**
 * The body's own `mediaType` wins over Content-Type (OCI allows omitting it, then the
 * header tells). Schema 1 manifests are refused: deprecated, unsigned-by-digest, and gone from registries.
 */
export function parseManifest(bytes: Buffer, contentType: string | null): Result<Manifest> {
  const doc = parseJson(bytes, "manifest");
  if (!doc.ok) return doc;
  const json = doc.value;
  if (json.schemaVersion !== 2)
    return fail(REASON.invalidImage, `manifest schemaVersion ${String(json.schemaVersion)} is not supported (only 2)`);
  const mediaType = mediaTypeOf(json, contentType);
  if (isIndexType(mediaType, json)) {
    const manifests = parseDescriptors(json.manifests, "manifests");
    return manifests.ok ? ok({ kind: "index", mediaType, manifests: manifests.value }) : manifests;
  }
  if (mediaType !== MEDIA.ociManifest && mediaType !== MEDIA.dockerManifest && mediaType !== "") {
    return fail(REASON.invalidImage, `manifest media type "${mediaType}" is not an image manifest or index`);
  }
  return parseImageManifest(json, mediaType);
}

function mediaTypeOf(json: JsonMap, contentType: string | null): string {
  if (typeof json.mediaType === "string") return json.mediaType;
  return (contentType ?? "").split(";")[0]?.trim() ?? "";
}

function isIndexType(mediaType: string, json: JsonMap): boolean {
  if (mediaType === MEDIA.ociIndex || mediaType === MEDIA.dockerList) return true;
  return mediaType === "" && Array.isArray(json.manifests);
}

function parseImageManifest(json: JsonMap, mediaType: string): Result<Manifest> {
  const config = parseDescriptor(json.config);
  if (config === undefined)
    return fail(REASON.invalidImage, "the manifest has no config descriptor with a sha256 digest and size");
  const layers = parseDescriptors(json.layers, "layers");
  return layers.ok ? ok({ kind: "image", mediaType, config, layers: layers.value }) : layers;
}

export function platformName(p: Platform): string {
  return [p.os, p.architecture, p.variant].filter((s) => s !== undefined && s !== "").join("/");
}

/**
 * The entry for `wanted`. A wanted variant must match; without one, the first os/architecture
 * match wins (indexes list the canonical variant first). Attestation entries (unknown/unknown)
 * never match.
 */
export function selectPlatform(index: ImageIndex, wanted: Platform = DEFAULT_PLATFORM): Result<Descriptor> {
  const found = index.manifests.find(
    (d) =>
      d.platform !== undefined &&
      d.platform.os === wanted.os &&
      d.platform.architecture === wanted.architecture &&
      (wanted.variant === undefined || d.platform.variant === wanted.variant),
  );
  if (found !== undefined) return ok(found);
  const available = index.manifests.flatMap((d) =>
    d.platform && d.platform.os !== "unknown" ? [platformName(d.platform)] : [],
  );
  return fail(
    REASON.platformNotFound,
    `the image index has no ${platformName(wanted)} image (available: ${available.length === 0 ? "none" : available.join(", ")})`,
  );
}

/** `config.Labels` of an image config blob; non-string values are dropped (labels are strings by spec). */
export function parseLabels(bytes: Buffer): Result<Readonly<Record<string, string>>> {
  const doc = parseJson(bytes, "image config");
  if (!doc.ok) return doc;
  const labels = isPlainObject(doc.value.config) ? doc.value.config.Labels : undefined;
  if (!isPlainObject(labels)) return ok({});
  return ok(Object.fromEntries(Object.entries(labels).filter((e): e is [string, string] => typeof e[1] === "string")));
}
