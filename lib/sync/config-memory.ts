/**
 * The config generated for a parent, kept beside its memo entry (lib/sync/memo.ts, the
 * "generated configs" cache) and reused while everything it was generated from is the same.
 * Metacontroller resyncs a parent after each status write and child event: a new
 * resourceVersion, so the unchanged-parent memo cannot answer, but the same spec, so
 * generating config.yaml again gives the same text.
 *
 * Compared, not trusted: the spec as sent (its JSON text), the base config (`bundled`, whose
 * text the spec's distribution and the line pick, or the image's by digest), the server line
 * and the CR's name must all equal what the kept config was generated from; `generate()`
 * reads nothing else (external providers' image metadata aside: those configs are generated
 * every time, lib/sync/config-plan.ts). v1alpha2 parents only: a v1alpha1 parent's spec is
 * first converted with its annotations, which its spec text does not hold.
 */
import { V1ALPHA2 } from "../api/v1alpha2";
import { deepFreeze } from "../json-copy";
import type { KubeObject } from "../wire/metacontroller";
import type { MemoConfig } from "./memo";
import type { GenerationInputs, RememberConfig } from "./plan-types";

export interface ConfigMemory {
  /** For the pure sync (SyncInputs.remember); absent for a parent whose spec text is not what generation reads. */
  readonly remember?: RememberConfig;
  /** What the parent's entry keeps after the sync: the config it generated, else the one it had. */
  kept(): MemoConfig | undefined;
}

const sameInputs = (kept: MemoConfig, spec: string, inputs: GenerationInputs): boolean =>
  kept.spec === spec && kept.base === inputs.base && kept.release === inputs.release && kept.name === inputs.name;

export function configMemory(parent: KubeObject, previous: MemoConfig | undefined): ConfigMemory {
  if (parent.apiVersion !== V1ALPHA2) return { kept: () => previous };
  let kept = previous;
  const remember: RememberConfig = (inputs, generate) => {
    const spec = JSON.stringify(parent.spec);
    if (previous && sameInputs(previous, spec, inputs)) return previous.generated;
    const result = generate();
    if (!result.ok) return result;
    deepFreeze(result); // shared from now on: a step that edits it throws instead of corrupting the next answer
    kept = { spec, ...inputs, generated: result };
    return result;
  };
  return { remember, kept: () => kept };
}
