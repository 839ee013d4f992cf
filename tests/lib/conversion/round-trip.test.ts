/**
 * The conversion's contract, over random valid objects of both versions, on the plain path (every
 * row checked) and the webhook's: a round trip is the identity (spec, status and metadata, other
 * annotations included, byte for byte as stored), every converted object passes its version's
 * schema, metadata changes only in the two conversion annotations, the caller's object is never
 * modified, and the webhook path gives the plain path's bytes.
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

/** Every row checked (what `llsd convert` and `llsd migrate` run), and the webhook's shortcut. */
describe.each<[string, ConvertOptions]>([
  ["plain", {}],
  ["webhook", { sourceValidated: true }],
])("on the %s path", (_path, options) => {
  describe("v1alpha1 → v1alpha2 → v1alpha1", () => {
    it("is the identity, through a v1alpha2 object that passes its schema and keeps the metadata", () => {
      fc.assert(
        fc.property(aV1alpha1Object, (original) => {
          expect(v1alpha1Errors(original)).toEqual([]);
          const untouched = bytes(original);

          const hub = ok(toHub(original, options));
          expect(v1alpha2Errors(hub)).toEqual([]);
          expect(comparable(hub.metadata)).toStrictEqual(comparable(original.metadata));

          expect(bytes(ok(fromHub(hub, options)))).toBe(untouched);
          expect(bytes(original)).toBe(untouched);
        }),
        RUNS,
      );
    });

    it("is the identity for v1alpha1 objects read from storage (carrying llamastack.io/v1alpha2-fields)", () => {
      fc.assert(
        fc.property(aV1alpha2Object, (stored) => {
          const read = ok(fromHub(stored, options));
          expect(v1alpha1Errors(read)).toEqual([]);
          expect(bytes(ok(fromHub(ok(toHub(read, options)), options)))).toBe(bytes(read));
        }),
        RUNS,
      );
    });
  });

  describe("v1alpha2 → v1alpha1 → v1alpha2", () => {
    it("is the identity, through a v1alpha1 object that passes its schema and keeps the metadata", () => {
      fc.assert(
        fc.property(aV1alpha2Object, (original) => {
          expect(v1alpha2Errors(original)).toEqual([]);
          const untouched = bytes(original);

          const spoke = ok(fromHub(original, options));
          expect(v1alpha1Errors(spoke)).toEqual([]);
          expect(comparable(spoke.metadata)).toStrictEqual(comparable(original.metadata));

          expect(bytes(ok(toHub(spoke, options)))).toBe(untouched);
          expect(bytes(original)).toBe(untouched);
        }),
        RUNS,
      );
    });

    it("is the identity for stored v1alpha2 objects written in v1alpha1 (carrying llamastack.io/v1alpha1-fields)", () => {
      fc.assert(
        fc.property(aV1alpha1Object, (written) => {
          const stored = ok(toHub(written, options));
          expect(bytes(ok(toHub(ok(fromHub(stored, options)), options)))).toBe(bytes(stored));
        }),
        RUNS,
      );
    });
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

describe("the webhook path, as /convert calls it (objects handed over, rows the target accepts all of unasked)", () => {
  it("gives the bytes the plain path gives (every row checked), for every object its version accepts, both ways", () => {
    fc.assert(
      fc.property(anyObject, (object) => {
        expect(
          object.apiVersion === "llamastack.io/v1alpha1" ? v1alpha1Errors(object) : v1alpha2Errors(object),
        ).toEqual([]);
        // The bytes /convert sends (JSON.stringify, key order included).
        const plain = JSON.stringify(converted(structuredClone(object)));

        const webhook = converted(structuredClone(object), { consume: true, sourceValidated: true });
        expect(JSON.stringify(webhook)).toBe(plain);
      }),
      RUNS,
    );
  });
});

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
