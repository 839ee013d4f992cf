/** `reviewConversion()` as /convert calls it: the ConversionReview contract the apiserver checks (same uid, same order, Success or Failure; docs/hook-api.md). */
import fc from "fast-check";
import { reviewConversion } from "../../../lib/conversion/review";
import { fromHub, toHub, type Conversion } from "../../../lib/conversion/v1alpha1";
import { aV1alpha1Object, aV1alpha2Object } from "./arbitraries";
import { aV1, aV2, ok, type Obj } from "./builders";

const V1 = "llamastack.io/v1alpha1";
const V2 = "llamastack.io/v1alpha2";

/** The answer /convert sends (it also hands the objects over, which changes no answer: round-trip.test.ts). */
const convertReview = (review: unknown) => reviewConversion(review).response;

function aReview(desiredAPIVersion: unknown, objects: unknown, extra: Obj = {}): Obj {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "ConversionReview",
    request: { uid: "705ab4f5-6393-11e8-b7cc-42010a800002", desiredAPIVersion, objects },
    ...extra,
  };
}

describe("reviewConversion()", () => {
  it("echoes the uid and answers a v1 ConversionReview with Success", () => {
    expect(convertReview(aReview(V2, [aV1()]))).toEqual({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "ConversionReview",
      response: {
        uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
        result: { status: "Success" },
        convertedObjects: [ok(toHub(aV1()))],
      },
    });
  });

  it("keeps the order of objects sent in mixed versions, and passes objects already there untouched", () => {
    const a = aV1({ "spec.replicas": 1 }, { metadata: { name: "a" } });
    const b = aV2({ "spec.workload.replicas": 2 }, { metadata: { name: "b" } });
    const c = aV1({ "spec.replicas": 3 }, { metadata: { name: "c" } });

    const { response } = convertReview(aReview(V2, [a, b, c]));

    expect(response.result).toEqual({ status: "Success" });
    expect(response.convertedObjects).toEqual([ok(toHub(a)), b, ok(toHub(c))]);
    expect(response.convertedObjects[1]).toBe(b);
  });

  it("converts every object to the desired version in both directions", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(aV1alpha1Object, aV1alpha2Object), { maxLength: 4 }),
        fc.constantFrom(V1, V2),
        (objects, desired) => {
          const { response } = convertReview(aReview(desired, objects));

          expect(response.result).toEqual({ status: "Success" });
          expect(response.convertedObjects.map((o) => (o as Obj).apiVersion)).toEqual(objects.map(() => desired));
          const convert = (o: Obj): Conversion<unknown> => (desired === V2 ? toHub(o) : fromHub(o));
          const expected = objects.map((o) => (o.apiVersion === desired ? o : ok(convert(o))));
          expect(response.convertedObjects).toStrictEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("answers an empty object list with Success and no objects", () => {
    expect(convertReview(aReview(V1, [])).response).toEqual({
      uid: expect.any(String),
      result: { status: "Success" },
      convertedObjects: [],
    });
  });

  it("answers a v1beta1 review in v1beta1", () => {
    expect(convertReview(aReview(V2, [], { apiVersion: "apiextensions.k8s.io/v1beta1" })).apiVersion).toBe(
      "apiextensions.k8s.io/v1beta1",
    );
  });

  it.each([
    ["not an object", [1, 2], "", "the ConversionReview must be a JSON object, got a list"],
    [
      "not a ConversionReview",
      { ...aReview(V2, []), kind: "AdmissionReview" },
      "705ab4f5-6393-11e8-b7cc-42010a800002",
      'kind must be "ConversionReview", got "AdmissionReview"',
    ],
    [
      "an unknown review version",
      { ...aReview(V2, []), apiVersion: "apiextensions.k8s.io/v2" },
      "705ab4f5-6393-11e8-b7cc-42010a800002",
      "apiVersion must be one of",
    ],
    ["no request", { apiVersion: "apiextensions.k8s.io/v1", kind: "ConversionReview" }, "", "request is required"],
    [
      "no uid",
      {
        apiVersion: "apiextensions.k8s.io/v1",
        kind: "ConversionReview",
        request: { desiredAPIVersion: V2, objects: [] },
      },
      "",
      "request.uid must be a non-empty string",
    ],
    [
      "an unknown desiredAPIVersion",
      aReview("llamastack.io/v1", []),
      "705ab4f5-6393-11e8-b7cc-42010a800002",
      'request.desiredAPIVersion must be one of "llamastack.io/v1alpha1", "llamastack.io/v1alpha2", got "llamastack.io/v1"',
    ],
    [
      "objects that are not a list",
      aReview(V2, { a: 1 }),
      "705ab4f5-6393-11e8-b7cc-42010a800002",
      "request.objects must be a list",
    ],
  ])("fails a review that is %s, with a message", (_title, review, uid, message) => {
    const answer = convertReview(review);

    expect(answer.response).toEqual({
      uid,
      result: { status: "Failure", message: expect.stringContaining(message) },
      convertedObjects: [],
    });
    expect(answer.kind).toBe("ConversionReview");
  });

  it("fails the whole review, with no partial results, when one object is of another kind", () => {
    const deployment = {
      apiVersion: "apps/v1",
      kind: "Deployment",
      metadata: { name: "web", namespace: "team-a" },
      spec: {},
    };

    const { response } = convertReview(aReview(V2, [aV1(), deployment]));

    expect(response.result).toEqual({
      status: "Failure",
      message:
        'cannot convert 1 of 2 object(s) to llamastack.io/v1alpha2: objects[1] (team-a/web): kind: must be "LlamaStackDistribution" (this webhook converts nothing else), got "Deployment"',
    });
    expect(response.convertedObjects).toEqual([]);
  });

  it("names every failing object with its index, name and each problem's field path", () => {
    const noSpec = aV1({}, { metadata: { name: "no-spec" }, spec: "x" });
    const badAnnotation = aV1(
      {},
      { metadata: { name: "bad", namespace: "ns", annotations: { "llamastack.io/v1alpha2-fields": "{" } } },
    );
    const unknownVersion = aV1({}, { apiVersion: "llamastack.io/v9" });

    const message = (
      convertReview(aReview(V2, [aV2(), noSpec, badAnnotation, unknownVersion])).response.result as { message: string }
    ).message;

    expect(message).toMatch(/^cannot convert 3 of 4 object\(s\) to llamastack.io\/v1alpha2: /);
    expect(message).toContain("objects[1] (no-spec): spec: is required and must be an object, got a string");
    expect(message).toContain(
      'objects[2] (ns/bad): metadata.annotations["llamastack.io/v1alpha2-fields"]: is not valid JSON',
    );
    expect(message).toContain(
      'objects[3] (team-a/my-llsd): apiVersion: must be one of "llamastack.io/v1alpha1", "llamastack.io/v1alpha2", got "llamastack.io/v9"',
    );
  });

  it("says how many more failed beyond the first five", () => {
    const bad = Array.from({ length: 7 }, () => "x");

    expect((convertReview(aReview(V2, bad)).response.result as { message: string }).message).toMatch(/; and 2 more$/);
  });

  it("never throws, whatever it is given, and says what the failure was about", () => {
    fc.assert(
      fc.property(fc.anything(), (anything) => {
        const outcome = reviewConversion(anything);
        expect(outcome.response.kind).toBe("ConversionReview");
        expect(outcome.failure).toBe("request");
      }),
      { numRuns: 300 },
    );
  });
});
