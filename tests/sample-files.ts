/** The LlamaStackDistribution of each file in samples/, read once per call. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import type { LlsdSpecV1alpha2 } from "../lib/api/v1alpha2";
import type { ConfigMapData } from "../lib/config/override";
import type { Release } from "../lib/distributions/table";

export const SAMPLES_DIR = join(__dirname, "..", "samples");

/** What the tests read of a sample CR; the samples are ours and pass the CRD (tests/crd/samples.test.ts). */
export interface SampleCr {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly spec: unknown;
}

type SampleObject = Partial<SampleCr> & { readonly data?: { readonly [key: string]: string } };

function sampleObjects(file: string): (SampleObject | null)[] {
  const docs = parseAllDocuments(readFileSync(join(SAMPLES_DIR, file), "utf8"));
  return (Array.isArray(docs) ? docs : []).map((d) => d.toJS() as SampleObject | null);
}

/** The first LlamaStackDistribution in `file`, or undefined when it holds none. */
export function sampleCr(file: string): SampleCr | undefined {
  return sampleObjects(file).find((o) => o?.kind === "LlamaStackDistribution") as SampleCr | undefined;
}

/** The ConfigMaps of `file` (name → data), as `llsd render` reads them beside the CR: what a baseConfig or overrideConfig names. */
export function sampleConfigMaps(file: string): ConfigMapData {
  const maps = sampleObjects(file).flatMap((o) =>
    o?.kind === "ConfigMap" && o.metadata?.name ? [[o.metadata.name, o.data ?? {}] as const] : [],
  );
  return Object.fromEntries(maps);
}

/** Every v1alpha2 sample (file order), with its spec and the ConfigMaps beside it. */
export function v1alpha2SampleSpecs(): (readonly [file: string, spec: LlsdSpecV1alpha2, configMaps: ConfigMapData])[] {
  return readdirSync(SAMPLES_DIR)
    .sort()
    .flatMap((file) => {
      const cr = sampleCr(file);
      return cr?.apiVersion === "llamastack.io/v1alpha2"
        ? [[file, cr.spec as LlsdSpecV1alpha2, sampleConfigMaps(file)] as const]
        : [];
    });
}

/**
 * Spec fields (top-level field first) of a sample that a server line refuses on purpose (its server lacks
 * them; the sample's comments say so), by line and file. Every other sample syncs on every line.
 */
const LINE_REFUSALS: { readonly [r in Release]?: { readonly [file: string]: readonly string[] } } = {
  "0.7": { "complete.yaml": ["registryRefreshIntervalSeconds"], "monitoring.yaml": ["monitoring.enabled"] },
  "0.8": { "monitoring.yaml": ["monitoring.enabled"] },
};

/** The samples `release` refuses, each with the `spec.` paths the refusal names. */
export function refusedSamples(release: Release): { readonly [file: string]: readonly string[] } {
  const files = LINE_REFUSALS[release] ?? {};
  return Object.fromEntries(Object.entries(files).map(([file, fields]) => [file, fields.map((f) => `spec.${f}`)]));
}

/** `spec` without the fields `release` refuses in `file`: what the rest of the sample means on that line. */
export function withoutRefused<T extends object>(spec: T, release: Release, file: string): T {
  const fields = LINE_REFUSALS[release]?.[file] ?? [];
  const dropped = fields.map((f) => f.split(".")[0]);
  return Object.fromEntries(Object.entries(spec).filter(([key]) => !dropped.includes(key))) as T;
}
