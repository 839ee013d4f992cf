/** Spec API names (camelCase) ↔ the server's API names (snake_case), and the lists the spec accepts. */

/** Sections of `spec.providers`. */
export const PROVIDER_APIS = ["inference", "safety", "vectorIo", "toolRuntime", "telemetry"] as const;
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

/** The server API a `spec.providers.<api>` section configures (`telemetry` has none: OTel env). */
export const SERVER_API: { readonly [api in ProviderApi]: string } = {
  inference: "inference",
  safety: "safety",
  vectorIo: "vector_io",
  toolRuntime: "tool_runtime",
  telemetry: "telemetry",
};

/** `vectorIo` → `vector_io`, `datasetIo` → `datasetio`; snake_case names pass through. */
export function serverApiName(written: string): string {
  if (written === "datasetIo") return "datasetio";
  return written.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
