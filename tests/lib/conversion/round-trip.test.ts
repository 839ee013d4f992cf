/**
 * The conversion's contract, over random valid objects of both versions, with every row checked:
 * a round trip is the identity (spec, status and metadata, other annotations included, byte for
 * byte as stored), every converted object passes its version's schema, metadata changes only in
 * the two conversion annotations, and the caller's object is never modified.
 */
import fc from "fast-check";
import { V1ALPHA1_FIELDS, V1ALPHA2_FIELDS } from "../../../lib/conversion/annotations";
import { fromHub, toHub, type Conversion, type ConvertOptions } from "../../../lib/conversion/v1alpha1";
import { aV1alpha1Object, aV1alpha2Object } from "./arbitraries";
import { v1alpha1Errors, v1alpha2Errors } from "./object-schemas";

const RUNS = { numRuns: 1000 };
type Obj = Record<string, unknown>;

function ok<T>(conversion: Conversion<T>): Obj {
  if (!conversion.ok) throw new Error(`conversion failed: ${JSON.stringify(conversion.errors)}`);
  return conversion.object as unknown as Obj;
}

/** Metadata as the apiserver compares it: everything but the conversion's own annotations. */
function comparable(metadata: unknown): Obj {
  const { annotations, ...rest } = metadata as { annotations?: Record<string, string> };
  const others = Object.fromEntries(
    Object.entries(annotations ?? {}).filter(([k]) => k !== V1ALPHA1_FIELDS && k !== V1ALPHA2_FIELDS),
  );
  return Object.keys(others).length > 0 ? { ...rest, annotations: others } : rest;
}

/**
 * The bytes the apiserver stores: JSON with every object's keys sorted (Go's encoding/json sorts
 * map keys), so a round trip may reorder keys and still be the identity.
 */
function bytes(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(bytes).join(",")}]`;
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const object = value as Obj;
  return `{${Object.keys(object)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${bytes(object[key])}`)
    .join(",")}}`;
}

/** One version: random valid objects of it, its schema, and the conversion of its objects to the other version. */
interface Version {
  readonly objects: fc.Arbitrary<Obj>;
  readonly errors: (object: unknown) => unknown[];
  readonly convert: (object: Obj) => Conversion<unknown>;
}

const V1ALPHA1: Version = { objects: aV1alpha1Object, errors: v1alpha1Errors, convert: toHub };
const V1ALPHA2: Version = { objects: aV1alpha2Object, errors: v1alpha2Errors, convert: fromHub };

describe.each([
  ["v1alpha1 → v1alpha2 → v1alpha1", V1ALPHA1, V1ALPHA2],
  ["v1alpha2 → v1alpha1 → v1alpha2", V1ALPHA2, V1ALPHA1],
])("%s", (_way, from, other) => {
  it("is the identity, through an object of the other version that passes its schema and keeps the metadata", () => {
    fc.assert(
      fc.property(from.objects, (original) => {
        expect(from.errors(original)).toEqual([]);
        const untouched = bytes(original);

        const there = ok(from.convert(original));
        expect(other.errors(there)).toEqual([]);
        expect(comparable(there.metadata)).toStrictEqual(comparable(original.metadata));

        expect(bytes(ok(other.convert(there)))).toBe(untouched);
        expect(bytes(original)).toBe(untouched);
      }),
      RUNS,
    );
  });

  it("is the identity for objects converted from the other version (carrying its fields' annotation)", () => {
    fc.assert(
      fc.property(other.objects, (theirs) => {
        const read = ok(other.convert(theirs));
        expect(from.errors(read)).toEqual([]);
        expect(bytes(ok(other.convert(ok(from.convert(read)))))).toBe(bytes(read));
      }),
      RUNS,
    );
  });
});

/** Objects of both versions, fresh and as read back from storage (carrying the other version's fields). */
const anyObject = fc.oneof(
  aV1alpha1Object,
  aV1alpha2Object,
  aV1alpha1Object.map((written) => ok(toHub(written))),
  aV1alpha2Object.map((stored) => ok(fromHub(stored))),
);

/** `object` converted to the other version. */
const converted = (object: Obj, options?: ConvertOptions): Conversion<unknown> =>
  object.apiVersion === "llamastack.io/v1alpha1" ? toHub(object, options) : fromHub(object, options);

describe("an object handed over (`consume`)", () => {
  it("converts to what a copy converts to, in both directions", () => {
    fc.assert(
      fc.property(anyObject, (object) => {
        const expected = converted(structuredClone(object));

        expect(converted(structuredClone(object), { consume: true })).toStrictEqual(expected);
      }),
      RUNS,
    );
  });

  it("shares the moved values with the object instead of copying them", () => {
    const object = { apiVersion: "llamastack.io/v1alpha2", kind: "LlamaStackDistribution", metadata: { name: "a" } };
    const distribution = { name: "starter" };
    const spec = { distribution };

    const movedOf = (converted: Obj): unknown => ((converted.spec as Obj).server as Obj).distribution;

    expect(movedOf(ok(fromHub({ ...object, spec }, { consume: true })))).toBe(distribution);
    const copied = movedOf(ok(fromHub({ ...object, spec })));
    expect(copied).toStrictEqual(distribution);
    expect(copied).not.toBe(distribution);
  });
});
