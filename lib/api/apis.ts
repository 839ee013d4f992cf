/** Spec API names (camelCase) ↔ the server's API names (snake_case). */
import type { ProviderApi } from "./v1alpha2";

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
