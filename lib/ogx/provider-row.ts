/**
 * The shape of a row of the typed-provider table (provider-table.ts): where each field of one of
 * the peer's typed providers lives in our generic provider.
 */
import type { OgxSection } from "./types";

/**
 * Where one peer field goes: our `endpoint` or `apiKey`, a `secretRefs` key, or a `settings` key
 * (camelCase objects become snake_case objects, as the peer's generator writes them).
 */
export type Place = "endpoint" | "apiKey" | { readonly secret: string } | { readonly setting: string };

export interface TypedProvider {
  readonly section: OgxSection;
  readonly bucket: "remote" | "inline";
  /** The field under the bucket: `vllm`, `s3`… */
  readonly field: string;
  /** A list of routed providers with an optional `id`, or a singleton with a fixed one. */
  readonly routed: boolean;
  /** The peer's id when none is given (`DeriveID`). */
  readonly defaultId: string;
  /** The server's provider type. */
  readonly type: string;
  /** What we write as `provider:` (a name the 1.3 line resolves to `type`). */
  readonly name: string;
  readonly fields: { readonly [peerField: string]: Place };
}

export const s = (setting: string): Place => ({ setting });
export const secret = (key: string): Place => ({ secret: key });
/** Every remote inference provider also has these (`InferenceCommonConfig`). */
export const INFERENCE_COMMON = {
  allowedModels: s("allowed_models"),
  refreshModels: s("refresh_models"),
  network: s("network"),
};
export const CHUNKS = {
  defaultChunkSizeTokens: s("default_chunk_size_tokens"),
  defaultChunkOverlapTokens: s("default_chunk_overlap_tokens"),
};

type Row = Omit<TypedProvider, "routed" | "defaultId" | "type"> & { readonly routed?: false };

export function row(r: Row): TypedProvider {
  const kebab = r.field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const type = r.name.includes("::") ? r.name : `${r.bucket}::${r.name}`;
  return { ...r, routed: r.routed ?? true, defaultId: `${r.bucket}-${type.split("::")[1] ?? kebab}`, type };
}
