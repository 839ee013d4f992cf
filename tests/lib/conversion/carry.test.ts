/**
 * `carry` asks the target's schema once about the checked rows of the body it built and falls
 * back to asking row by row when that is refused. Both ways must give the same converted body and the
 * same entries for the annotation, for objects the source version accepts and for ones it does not.
 */
import fc from "fast-check";
import { carry, carryRowByRow } from "../../../lib/conversion/carry";
import { setPath, type JsonMap } from "../../../lib/json";
import { FIELD_TABLE, FROM_HUB, TO_HUB, type Direction } from "../../../lib/conversion/table";
import { V1ALPHA2_FIELDS } from "../../../lib/conversion/annotations";
import { fromHub, toHub } from "../../../lib/conversion/v1alpha1";
import { aV1alpha1Object, aV1alpha2Object } from "./arbitraries";
import { aV2, at, kept, ok } from "./builders";

type Obj = Record<string, unknown>;

/** An object's spec and status, as `convert` hands them to `carry`, and the way it converts. */
function sourceOf(object: Obj): { source: JsonMap; direction: Direction; fromV1alpha1: boolean } {
  const fromV1alpha1 = object.apiVersion === "llamastack.io/v1alpha1";
  const source: JsonMap = { spec: object.spec, ...(object.status === undefined ? {} : { status: object.status }) };
  return { source, direction: fromV1alpha1 ? TO_HUB : FROM_HUB, fromV1alpha1 };
}

const sameEitherWay = (source: JsonMap, direction: Direction): void => {
  const rowByRow = carryRowByRow(structuredClone(source), direction);
  expect(carry(structuredClone(source), direction)).toStrictEqual(rowByRow);
};

describe("carry()", () => {
  it("gives what asking row by row gives, for objects their version accepts", () => {
    fc.assert(
      fc.property(fc.oneof(aV1alpha1Object, aV1alpha2Object), (object) => {
        const { source, direction } = sourceOf(object);
        sameEitherWay(source, direction);
      }),
      { numRuns: 1000 },
    );
  });

  it("gives what asking row by row gives when one row holds anything at all", () => {
    const row = fc.constantFrom(...FIELD_TABLE);
    fc.assert(
      fc.property(fc.oneof(aV1alpha1Object, aV1alpha2Object), row, fc.anything(), (object, mapping, value) => {
        const { source, direction, fromV1alpha1 } = sourceOf(object);
        setPath(source, (fromV1alpha1 ? mapping.v1alpha1 : mapping.v1alpha2).split("."), value);
        sameEitherWay(source, direction);
      }),
      { numRuns: 1000 },
    );
  });

  it("leaves a value the target refuses in the annotation's entries, as the rows decide", () => {
    // v1alpha1 takes any integer port; v1alpha2 wants 1 to 65535.
    const source: JsonMap = {
      spec: { server: { distribution: { name: "starter" }, containerSpec: { port: 0 } }, replicas: 2 },
    };

    const { body, stash } = carry(structuredClone(source), TO_HUB);

    expect(body.spec).toStrictEqual({ distribution: { name: "starter" }, workload: { replicas: 2 } });
    expect(stash.get("spec.server.containerSpec.port")).toBe(0);
    expect(carryRowByRow(structuredClone(source), TO_HUB)).toStrictEqual({ body, stash });
  });
});

describe("a value its own version refuses, where both versions have the same rules", () => {
  // status.conditions has the same schema in both versions.
  const object = aV2({ "status.conditions": "not a list", "status.phase": "Ready" });

  it("stays in the annotation (the target is asked about every row), and comes back", () => {
    const v1 = ok(fromHub(structuredClone(object)));

    expect(at(v1, "status.conditions")).toBeUndefined();
    expect(kept(v1, V1ALPHA2_FIELDS)).toEqual({ "status.conditions": "not a list" });
    expect(ok(toHub(v1))).toStrictEqual(object);
  });
});
