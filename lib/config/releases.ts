/**
 * What each supported server line accepts (research llamastack-config §1.4, §2.2, §2.3).
 * n = OGX 0.8.x, n-1 = Llama Stack 0.7.x: same YAML schema, different API names.
 */
import type { Release } from "../distributions/table";

const COMMON_APIS = ["inference", "safety", "vector_io", "tool_runtime", "files", "batches", "file_processors", "responses"];

/** Providable APIs per release. */
export const RELEASE_APIS: { readonly [r in Release]: readonly string[] } = {
  "0.7": [...COMMON_APIS, "eval", "datasetio", "scoring"],
  "0.8": [...COMMON_APIS, "messages", "interactions"],
};

/** Names users may still write that a release no longer has, and what replaced them. */
export const RENAMED_APIS: { readonly [old: string]: string } = { agents: "responses" };

/** APIs that must stay enabled while another API is (registry `api_dependencies`, research §2.3). */
export const API_DEPENDENCIES: { readonly [api: string]: readonly string[] } = {
  responses: ["inference", "vector_io", "tool_runtime", "files"],
  vector_io: ["inference"],
  safety: ["inference"],
  batches: ["inference", "files"],
  file_processors: ["files"],
  messages: ["inference"],
  interactions: ["inference"],
  eval: ["inference"],
  scoring: ["inference"],
};

/** Provider types with their own dependencies beyond their API's. */
export const PROVIDER_DEPENDENCIES: { readonly [type: string]: readonly string[] } = {
  "inline::file-search": ["vector_io", "inference", "files"],
};

/** The upstream tag whose configuration models describe each server line (the latest patch checked). */
export type SchemaTag = "v0.7.3" | "v0.8.0" | "v1.3.0";

/** Every tag with schema-derived data, including lines the release table may not list yet. */
export const SCHEMA_TAGS: readonly SchemaTag[] = Object.freeze(["v0.7.3", "v0.8.0", "v1.3.0"] as const);

/** A `Record` over `Release`: a new server line does not compile until it names its models' tag. */
const SCHEMA_TAG_OF: { readonly [r in Release]: SchemaTag } = {
  "0.7": "v0.7.3",
  "0.8": "v0.8.0",
};

export function schemaTagOf(release: Release): SchemaTag {
  return SCHEMA_TAG_OF[release];
}
