/** The LlamaStackDistribution of each file in samples/, read once per call. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import type { LlsdSpecV1alpha2 } from "../lib/api/v1alpha2";
import type { Release } from "../lib/distributions/table";

export const SAMPLES_DIR = join(__dirname, "..", "samples");

/** What the tests read of a sample CR; the samples are ours and pass the CRD (tests/crd/samples.test.ts). */
export interface SampleCr {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly spec: unknown;
}

/** The first LlamaStackDistribution in `file`, or undefined when it holds none. */
export function sampleCr(file: string): SampleCr | undefined {
  const docs = parseAllDocuments(readFileSync(join(SAMPLES_DIR, file), "utf8"));
  const objects = (Array.isArray(docs) ? docs : []).map((d) => d.toJS() as Partial<SampleCr> | null);
  return objects.find((o) => o?.kind === "LlamaStackDistribution") as SampleCr | undefined;
}

/** Every v1alpha2 sample (file order), with its spec. */
export function v1alpha2SampleSpecs(): (readonly [file: string, spec: LlsdSpecV1alpha2])[] {
  return readdirSync(SAMPLES_DIR)
    .sort()
    .flatMap((file) => {
      const cr = sampleCr(file);
      return cr?.apiVersion === "llamastack.io/v1alpha2" ? [[file, cr.spec as LlsdSpecV1alpha2] as const] : [];
    });
}

/**
 * Top-level spec fields of a sample that a server line refuses on purpose (its server lacks
 * them; the sample's comments say so), by line and file. Every other sample syncs on every line.
 */
const LINE_REFUSALS: { readonly [r in Release]?: { readonly [file: string]: readonly string[] } } = {
  "0.7": { "complete.yaml": ["registryRefreshIntervalSeconds"] },
};

/** The samples `release` refuses, each with the `spec.` paths the refusal names. */
export function refusedSamples(release: Release): { readonly [file: string]: readonly string[] } {
  const files = LINE_REFUSALS[release] ?? {};
  return Object.fromEntries(Object.entries(files).map(([file, fields]) => [file, fields.map((f) => `spec.${f}`)]));
}

/** `spec` without the fields `release` refuses in `file`: what the rest of the sample means on that line. */
export function withoutRefused<T extends object>(spec: T, release: Release, file: string): T {
  const fields = LINE_REFUSALS[release]?.[file] ?? [];
  return Object.fromEntries(Object.entries(spec).filter(([key]) => !fields.includes(key))) as T;
}
