/** Spec API names (camelCase) ↔ the server's API names (snake_case), and the lists the spec accepts. */

/** Sections added for the OGX 1.x surface (issue 37). */
const OGX_SECTION_NAMES = [
  "files",
  "batches",
  "responses",
  "fileProcessors",
  "messages",
  "interactions",
  "skills",
] as const;

/**
 * Sections of `spec.providers`. The OGX 1.x sections come last: providers are listed in this
 * order, so a spec without them generates what it generated before they were added.
 */
export const PROVIDER_APIS = [
  "inference",
  "safety",
  "vectorIo",
  "toolRuntime",
  "telemetry",
  ...OGX_SECTION_NAMES,
] as const;
export type ProviderApi = (typeof PROVIDER_APIS)[number];

/** API sections `externalProviders` accepts. */
export const EXTERNAL_PROVIDER_APIS = [
  "inference",
  "safety",
  "vectorIo",
  "toolRuntime",
  "responses",
  "files",
  "batches",
  "fileProcessors",
] as const;
export type ExternalProviderApi = (typeof EXTERNAL_PROVIDER_APIS)[number];

/** API names accepted in `disabled[]`, camelCase or snake_case. */
export const DISABLE_NAMES = [
  "inference",
  "safety",
  "vectorIo",
  "vector_io",
  "toolRuntime",
  "tool_runtime",
  "telemetry",
  "agents",
  "responses",
  "files",
  "batches",
  "fileProcessors",
  "file_processors",
  "eval",
  "datasetio",
  "datasetIo",
  "scoring",
  "postTraining",
  "post_training",
  "messages",
  "interactions",
  "skills",
  "containers",
  "containerRuntime",
  "container_runtime",
] as const;
export type DisableName = (typeof DISABLE_NAMES)[number];

/**
 * Names accepted in `replace[]`, camelCase or snake_case: the API sections that take providers
 * (telemetry has no server provider) and the kinds of `registered_resources` the lines' base
 * configs carry (`tool_groups` is left out: the hooks never write it).
 */
export const REPLACE_API_NAMES = [
  "inference",
  "safety",
  "vectorIo",
  "vector_io",
  "toolRuntime",
  "tool_runtime",
  "files",
  "batches",
  "responses",
  "fileProcessors",
  "file_processors",
  "messages",
  "interactions",
  "skills",
] as const;
export const REPLACE_RESOURCE_NAMES = [
  "models",
  "shields",
  "vectorStores",
  "vector_stores",
  "datasets",
  "scoringFns",
  "scoring_fns",
  "benchmarks",
] as const;
export const REPLACE_NAMES = [...REPLACE_API_NAMES, ...REPLACE_RESOURCE_NAMES] as const;
export type ReplaceName = (typeof REPLACE_NAMES)[number];

/** True for a `replace[]` name that is a kind of registered resource, not an API. */
export const isResourceKind = (written: string): boolean => REPLACE_RESOURCE_NAMES.some((n) => n === written);

/** The server API a `spec.providers.<api>` section configures (`telemetry` has none: OTel env). */
export const SERVER_API: { readonly [api in ProviderApi]: string } = {
  inference: "inference",
  safety: "safety",
  vectorIo: "vector_io",
  toolRuntime: "tool_runtime",
  telemetry: "telemetry",
  files: "files",
  batches: "batches",
  responses: "responses",
  fileProcessors: "file_processors",
  messages: "messages",
  interactions: "interactions",
  skills: "skills",
};

/**
 * The OGX 1.x sections. Their APIs are not on every line, and a section that is also in
 * `disabled` is refused (the older sections only warn, as they always did).
 */
export const OGX_SECTIONS: ReadonlySet<ProviderApi> = new Set(OGX_SECTION_NAMES);

/**
 * Server APIs that one provider serves: the server keeps the last one it starts (no router
 * picks among several, src/ogx/core/resolver.py), so a spec section for them lists one.
 * `file_processors` is not among them: 1.x's `inline::auto` dispatches to its siblings.
 */
export const SINGLE_PROVIDER_APIS: ReadonlySet<string> = new Set([
  "files",
  "batches",
  "responses",
  "messages",
  "interactions",
  "skills",
]);

/** `vectorIo` → `vector_io`, `datasetIo` → `datasetio`; snake_case names pass through. */
export function serverApiName(written: string): string {
  if (written === "datasetIo") return "datasetio";
  return written.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
