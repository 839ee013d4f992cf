/**
 * The migration guide's pair, samples/v1alpha1-migration.yaml and samples/v1alpha2-migration.yaml:
 * converting the v1alpha1 CR gives the v1alpha2 CR field for field. The one documented
 * difference is `containerSpec.name`, which v1alpha2 has no field for: it rides in the
 * llamastack.io/v1alpha1-fields annotation.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { V1ALPHA1_FIELDS, V1ALPHA2_FIELDS } from "../../../lib/conversion/annotations";
import { fromHub, toHub } from "../../../lib/conversion/v1alpha1";
import { at, kept, ok, type Obj } from "./builders";
import { v1alpha1Errors, v1alpha2Errors } from "./object-schemas";

function crOf(file: string): Obj {
  const docs = parseAllDocuments(readFileSync(join(__dirname, "..", "..", "..", "samples", file), "utf8"));
  const cr = (Array.isArray(docs) ? docs : [])
    .map((d) => d.toJS() as Obj)
    .find((o) => o?.kind === "LlamaStackDistribution");
  if (!cr) throw new Error(`${file} has no LlamaStackDistribution`);
  return cr;
}

const v1alpha1 = crOf("v1alpha1-migration.yaml");
const v1alpha2 = crOf("v1alpha2-migration.yaml");

describe("the migration guide's sample pair", () => {
  it("both samples pass their version's schema", () => {
    expect(v1alpha1Errors(v1alpha1)).toEqual([]);
    expect(v1alpha2Errors(v1alpha2)).toEqual([]);
  });

  it("converts the v1alpha1 sample to exactly the v1alpha2 sample's spec", () => {
    const hub = ok(toHub(v1alpha1));

    expect(hub.apiVersion).toBe("llamastack.io/v1alpha2");
    expect(hub.spec).toStrictEqual(v1alpha2.spec);
  });

  it("keeps only the documented difference, containerSpec.name, in the annotation", () => {
    const hub = ok(toHub(v1alpha1));

    expect(kept(hub, V1ALPHA1_FIELDS)).toStrictEqual({ "spec.server.containerSpec.name": "llama-stack" });
    expect(hub.metadata).toStrictEqual({
      ...(v1alpha1.metadata as Obj),
      annotations: { [V1ALPHA1_FIELDS]: expect.any(String) },
    });
  });

  it("converts the v1alpha2 sample back to the v1alpha1 sample, except the container name it never had (and marked as a v1alpha2 CR)", () => {
    const spoke = ok(fromHub(v1alpha2));
    const expected = structuredClone(v1alpha1);
    delete (at(expected, "spec.server.containerSpec") as Obj).name;
    (expected.metadata as Obj).annotations = { [V1ALPHA2_FIELDS]: "{}" };

    expect(spoke).toStrictEqual(expected);
  });

  it("gives back the v1alpha1 sample exactly when the annotation comes along", () => {
    expect(ok(fromHub(ok(toHub(v1alpha1))))).toStrictEqual(v1alpha1);
  });
});
