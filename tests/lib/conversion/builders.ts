/** Small objects of both versions for the conversion's table tests. */
import { getPath, setPath, type JsonMap } from "../../../lib/json";
import type { Conversion } from "../../../lib/conversion/v1alpha1";

export type Obj = Record<string, unknown>;

/** The value at a dotted field path (`spec.networking.port`). */
export function at(object: unknown, path: string): unknown {
  return getPath(object, path.split("."));
}

export const METADATA = { name: "my-llsd", namespace: "team-a", uid: "3f2c1a", generation: 4 };

/** A v1alpha1 object with only its required fields, then `fields` (field path → value) set. */
export function aV1(fields: Record<string, unknown> = {}, extra: Obj = {}): Obj {
  const object: JsonMap = {
    apiVersion: "llamastack.io/v1alpha1",
    kind: "LlamaStackDistribution",
    metadata: structuredClone(METADATA),
    spec: { server: { distribution: { name: "starter" } } },
    ...structuredClone(extra),
  };
  for (const [path, value] of Object.entries(fields)) setPath(object, path.split("."), structuredClone(value));
  return object;
}

/** A v1alpha2 object with only its required fields, then `fields` (field path → value) set. */
export function aV2(fields: Record<string, unknown> = {}, extra: Obj = {}): Obj {
  const object: JsonMap = {
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: structuredClone(METADATA),
    spec: { distribution: { name: "starter" } },
    ...structuredClone(extra),
  };
  for (const [path, value] of Object.entries(fields)) setPath(object, path.split("."), structuredClone(value));
  return object;
}

export function ok<T>(conversion: Conversion<T>): Obj {
  if (!conversion.ok) throw new Error(`conversion failed: ${JSON.stringify(conversion.errors)}`);
  return conversion.object as Obj;
}

/** The parsed conversion annotation, or undefined when the object has none. */
export function kept(object: Obj, annotation: string): Record<string, unknown> | undefined {
  const text = getPath(object, ["metadata", "annotations", annotation]) as string | undefined;
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}
