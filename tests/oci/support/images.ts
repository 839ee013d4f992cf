/**
 * Fixture images built and pushed from TypeScript (no skopeo/umoci): tar-stream + zlib for
 * layers, monolithic POST+PUT blob uploads, PUT manifest (the distribution spec's push API).
 */
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import * as tar from "tar-stream";
import { MEDIA, type Descriptor, type Platform } from "../../../lib/oci/types";

export interface PushTarget {
  /** http://host:port of the registry (pushes go straight to it, not through a test proxy). */
  readonly url: string;
  /** Authorization header for pushing, when the registry wants one. */
  readonly authorization?: (repository: string) => string;
}

export const sha256 = (bytes: Buffer): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

/** An uncompressed tar of `files`; `truncated` drops the last file's padding and the end-of-archive blocks (umoci insert's bug). */
export async function tarOf(files: Readonly<Record<string, string | Buffer>>, truncated = false): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (chunk) => void chunks.push(chunk as Buffer));
  const done = new Promise<void>((resolve) => pack.on("end", () => resolve()));
  let lastEnd = 0;
  let offset = 0;
  for (const [name, content] of Object.entries(files)) {
    const body = Buffer.from(content);
    pack.entry({ name, size: body.length, mode: 0o644, mtime: new Date(0) }, body);
    offset += 512 + Math.ceil(body.length / 512) * 512;
    lastEnd = offset - (Math.ceil(body.length / 512) * 512 - body.length);
  }
  pack.finalize();
  await done;
  const whole = Buffer.concat(chunks);
  return truncated ? whole.subarray(0, lastEnd) : whole;
}

export async function layerOf(
  files: Readonly<Record<string, string | Buffer>>,
  options: { gzip?: boolean; truncated?: boolean } = {},
): Promise<Buffer> {
  const raw = await tarOf(files, options.truncated);
  return options.gzip === false ? raw : gzipSync(raw);
}

async function ok(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response;
}

function headers(target: PushTarget, repository: string, extra: Record<string, string> = {}): Record<string, string> {
  return target.authorization === undefined ? extra : { ...extra, authorization: target.authorization(repository) };
}

export async function pushBlob(
  target: PushTarget,
  repository: string,
  bytes: Buffer,
  mediaType: string,
): Promise<Descriptor> {
  const digest = sha256(bytes);
  const started = await ok(
    await fetch(`${target.url}/v2/${repository}/blobs/uploads/`, {
      method: "POST",
      headers: headers(target, repository),
    }),
    "start upload",
  );
  const location = new URL(started.headers.get("location") ?? "", target.url);
  location.searchParams.set("digest", digest);
  await ok(
    await fetch(location, {
      method: "PUT",
      body: bytes,
      headers: headers(target, repository, { "content-type": "application/octet-stream" }),
    }),
    "upload blob",
  );
  return { mediaType, digest, size: bytes.length };
}

/** Puts a manifest or index under `tag`, with the content type its own `mediaType` names. */
export async function pushManifest(
  target: PushTarget,
  repository: string,
  tag: string,
  manifest: { readonly schemaVersion: number; readonly mediaType: string; readonly [field: string]: unknown },
): Promise<Descriptor> {
  const { mediaType } = manifest;
  const bytes = Buffer.from(JSON.stringify(manifest));
  await ok(
    await fetch(`${target.url}/v2/${repository}/manifests/${tag}`, {
      method: "PUT",
      body: bytes,
      headers: headers(target, repository, { "content-type": mediaType }),
    }),
    "put manifest",
  );
  return { mediaType, digest: sha256(bytes), size: bytes.length };
}

export interface ImageSpec {
  /** Layers as file maps (gzip tar) or prebuilt bytes. */
  readonly layers?: ReadonlyArray<Readonly<Record<string, string | Buffer>> | Buffer>;
  /** Labels, or a function of the pushed layers (for `io.llamastack.config.layer` = a digest). */
  readonly labels?: Readonly<Record<string, string>> | ((layers: readonly Descriptor[]) => Record<string, string>);
  readonly platform?: Platform;
  /** Docker v2 schema 2 media types instead of OCI. */
  readonly docker?: boolean;
}

export interface PushedImage extends Descriptor {
  readonly config: Descriptor;
  readonly layers: readonly Descriptor[];
}

export async function pushImage(
  target: PushTarget,
  repository: string,
  tag: string,
  spec: ImageSpec = {},
): Promise<PushedImage> {
  const layerType = spec.docker
    ? "application/vnd.docker.image.rootfs.diff.tar.gzip"
    : "application/vnd.oci.image.layer.v1.tar+gzip";
  const layers: Descriptor[] = [];
  for (const layer of spec.layers ?? [{ "etc/hostname": "fixture\n" }]) {
    const bytes = Buffer.isBuffer(layer) ? layer : await layerOf(layer);
    layers.push(await pushBlob(target, repository, bytes, layerType));
  }
  const labels = typeof spec.labels === "function" ? spec.labels(layers) : spec.labels;
  const platform = spec.platform ?? { os: "linux", architecture: "amd64" };
  const configJson = {
    ...platform,
    created: "2026-01-01T00:00:00Z",
    config: labels === undefined ? {} : { Labels: labels },
    rootfs: { type: "layers", diff_ids: layers.map((l) => l.digest) },
  };
  const configType = spec.docker
    ? "application/vnd.docker.container.image.v1+json"
    : "application/vnd.oci.image.config.v1+json";
  const config = await pushBlob(target, repository, Buffer.from(JSON.stringify(configJson)), configType);
  const mediaType = spec.docker ? MEDIA.dockerManifest : MEDIA.ociManifest;
  const pushed = await pushManifest(target, repository, tag, { schemaVersion: 2, mediaType, config, layers });
  return { ...pushed, platform, config, layers };
}

export interface IndexSpec {
  /** The images it lists, in this order. */
  readonly images: readonly Descriptor[];
  /** A Docker manifest list instead of an OCI index. */
  readonly docker?: boolean;
}

/** An index / manifest list over already pushed images. */
export async function pushIndex(
  target: PushTarget,
  repository: string,
  tag: string,
  { images, docker = false }: IndexSpec,
): Promise<Descriptor> {
  const mediaType = docker ? MEDIA.dockerList : MEDIA.ociIndex;
  const manifests = images.map(({ mediaType: m, digest, size, platform }) => ({
    mediaType: m,
    digest,
    size,
    platform,
  }));
  return pushManifest(target, repository, tag, { schemaVersion: 2, mediaType, manifests });
}
