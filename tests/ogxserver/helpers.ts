/** What the OGXServer conversion tests share: objects of both APIs, and the bytes a round trip must keep. */
import { readdirSync } from "node:fs";
import type { LlsdSpecV1alpha2 } from "../../lib/api/v1alpha2";
import type { JsonMap } from "../../lib/json";
import type { OgxConversion } from "../../lib/ogx/convert";
import { aSpec } from "../builders";
import { sampleCr, SAMPLES_DIR } from "../sample-files";

/** An LLSD v1alpha2 object: aSpec (the starter distribution) with the fields given, as written (not type-checked). */
export function anLlsd(spec: JsonMap = {}, name = "demo"): JsonMap {
  const base: LlsdSpecV1alpha2 = aSpec();
  return {
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: { name },
    spec: { ...base, ...structuredClone(spec) },
  };
}

/** An OGXServer with `spec` on the starter distribution. */
export function anOgxServer(spec: JsonMap = {}, name = "demo"): JsonMap {
  return {
    apiVersion: "ogx.io/v1beta1",
    kind: "OGXServer",
    metadata: { name },
    spec: { distribution: { name: "starter" }, ...spec },
  };
}

/** The LLSD of every sample file. */
export function sampleLlsds(): [string, JsonMap][] {
  return readdirSync(SAMPLES_DIR)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .flatMap((file): [string, JsonMap][] => {
      const cr = sampleCr(file);
      return cr ? [[file, { ...cr }]] : [];
    });
}

/** The bytes the apiserver stores: JSON with sorted keys, so key order never counts. */
export function bytes(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(bytes).join(",")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${entries
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${JSON.stringify(k)}:${bytes(v)}`)
    .join(",")}}`;
}

export function ok(conversion: OgxConversion): JsonMap {
  if (!conversion.ok) throw new Error(`conversion failed: ${JSON.stringify(conversion.errors)}`);
  return conversion.object;
}
