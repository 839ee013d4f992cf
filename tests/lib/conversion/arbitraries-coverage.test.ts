/**
 * The conversion and reliability property tests draw whole objects from aV1alpha1Object and
 * aV1alpha2Object (arbitraries.ts): a spec field they never draw is a field no property covers.
 * Every field path the spec schema declares (each form of a polymorphic field apart: one object
 * or a list, `{name, key}` or `{secretKeyRef}`) must appear in a sample of them.
 */
import fc from "fast-check";
import { V1ALPHA1_SPEC_SCHEMA } from "../../../lib/api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../../../lib/api/schema-v1alpha2";
import { aV1alpha1Object, aV1alpha2Object } from "./arbitraries";

type Schema = {
  readonly properties?: { readonly [key: string]: Schema };
  readonly items?: Schema;
  readonly oneOf?: readonly Schema[];
  readonly anyOf?: readonly Schema[];
  readonly allOf?: readonly Schema[];
};

/** Every property path the schema declares, `[]` for a list's items. */
function declaredPaths(schema: Schema, path: string, out: Set<string>): Set<string> {
  for (const branch of [...(schema.oneOf ?? []), ...(schema.anyOf ?? []), ...(schema.allOf ?? [])])
    declaredPaths(branch, path, out);
  if (schema.items) declaredPaths(schema.items, `${path}[]`, out);
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    out.add(`${path}.${key}`);
    declaredPaths(sub, `${path}.${key}`, out);
  }
  return out;
}

/** Every path `value` has, in the same notation. */
function presentPaths(value: unknown, path: string, out: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) presentPaths(item, `${path}[]`, out);
  else if (typeof value === "object" && value !== null)
    for (const [key, sub] of Object.entries(value)) {
      out.add(`${path}.${key}`);
      presentPaths(sub, `${path}.${key}`, out);
    }
  return out;
}

const RUNS = 1000;

describe.each([
  ["v1alpha1", V1ALPHA1_SPEC_SCHEMA as Schema, aV1alpha1Object],
  ["v1alpha2", V1ALPHA2_SPEC_SCHEMA as Schema, aV1alpha2Object],
])("the %s object arbitrary", (_version, schema, arbitrary) => {
  it(`draws every field of the spec schema in ${RUNS} objects`, () => {
    const seen = new Set<string>();
    for (const object of fc.sample(arbitrary, { numRuns: RUNS, seed: 37 })) presentPaths(object.spec, "spec", seen);
    const missing = [...declaredPaths(schema, "spec", new Set())].filter((p) => !seen.has(p));
    expect(missing).toEqual([]);
  });
});
