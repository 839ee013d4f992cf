/**
 * The conversion's contract over random objects: LLSD → OGXServer → LLSD and OGXServer → LLSD →
 * OGXServer give back the same bytes (spec, status and metadata), for objects the source schema
 * accepts, and the caller's object is never modified. LLSD objects come from the v1alpha1
 * conversion's arbitraries (tests/lib/conversion/arbitraries.ts), OGXServer objects from
 * ogx-arbitraries.ts.
 */
import fc from "fast-check";
import { fromOgxServer, toOgxServer, type OgxConversion } from "../../lib/ogx/convert";
import type { JsonMap } from "../../lib/json";
import { aV1alpha2Object } from "../lib/conversion/arbitraries";
import { bytes, ok } from "./helpers";
import { anOgxServerObject } from "./ogx-arbitraries";

const RUNS = { numRuns: 300 };

type Convert = (object: unknown) => OgxConversion;

/** `back(there(object))` has the object's bytes, and neither conversion touched the object. */
function comesBack(object: JsonMap, there: Convert, back: Convert): void {
  const before = bytes(object);
  const result = ok(back(ok(there(object))));
  expect(bytes(object)).toBe(before);
  expect(bytes(result)).toBe(before);
}

describe("LLSD ⇄ OGXServer round trips", () => {
  it("LLSD → OGXServer → LLSD is the identity", () => {
    fc.assert(
      fc.property(aV1alpha2Object, (object) => comesBack(object, toOgxServer, fromOgxServer)),
      RUNS,
    );
  });

  it("OGXServer → LLSD → OGXServer is the identity", () => {
    fc.assert(
      fc.property(anOgxServerObject, (object) => comesBack(object, fromOgxServer, toOgxServer)),
      RUNS,
    );
  });
});
