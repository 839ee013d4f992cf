/**
 * The quick validator compiles the spec schema with shared subschemas moved to `$defs`
 * (lib/api/schema-defs.ts); the error-listing one compiles it as written. They must give the
 * same verdict on every input: the samples, and each sample broken at every field in turn.
 */
import Ajv from "ajv";
import { readdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseAllDocuments } from "yaml";
import { compile } from "../../../lib/api/schema";
import { withSharedDefs } from "../../../lib/api/schema-defs";
import { V1ALPHA1_SPEC_SCHEMA } from "../../../lib/api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../../../lib/api/schema-v1alpha2";
import { everyGoStyleCr } from "../../parity/go-style-crs";

const SAMPLES = join(__dirname, "..", "..", "..", "samples");

/** The project's samples and the CRs written in the Go operator's style. */
function sampleSpecs(apiVersion: string): { name: string; spec: unknown }[] {
  const files = readdirSync(SAMPLES)
    .filter((f) => f.endsWith(".yaml"))
    .map((f) => join(SAMPLES, f));
  const goStyle = everyGoStyleCr()
    .filter(({ cr }) => cr.apiVersion === apiVersion)
    .map(({ name, cr }) => ({ name: `go-style ${name}`, spec: cr.spec }));
  return goStyle.concat(
    files.flatMap((file) =>
      parseAllDocuments(readFileSync(file, "utf8"))
        .map((doc) => doc.toJS() as { apiVersion?: string; kind?: string; spec?: unknown } | null)
        .filter((o) => o?.kind === "LlamaStackDistribution" && o.apiVersion === apiVersion)
        .map((o) => ({ name: basename(file), spec: o?.spec })),
    ),
  );
}

/** Every way to break `value` at one place: each leaf retyped, each map given an unknown key, each list emptied. */
function breakages(value: unknown, at = "spec"): { at: string; broken: (root: unknown) => unknown }[] {
  const here = [{ at, broken: () => (typeof value === "string" ? 42 : "not-this") }];
  if (Array.isArray(value)) {
    const list: readonly unknown[] = value;
    const inner = list.flatMap((v, i) =>
      breakages(v, `${at}[${i}]`).map((b) => ({
        at: b.at,
        broken: () => list.map((x, j) => (j === i ? b.broken(x) : x)),
      })),
    );
    return [...here, { at: `${at} emptied`, broken: () => [] }, ...inner];
  }
  if (typeof value === "object" && value !== null) {
    const inner = Object.entries(value).flatMap(([k, v]) =>
      breakages(v, `${at}.${k}`).map((b) => ({ at: b.at, broken: () => ({ ...value, [k]: b.broken(v) }) })),
    );
    return [...here, { at: `${at} + unknown key`, broken: () => ({ ...value, notAField: true }) }, ...inner];
  }
  return here;
}

describe.each([
  ["v1alpha2", "llamastack.io/v1alpha2", V1ALPHA2_SPEC_SCHEMA],
  ["v1alpha1", "llamastack.io/v1alpha1", V1ALPHA1_SPEC_SCHEMA],
])("withSharedDefs(%s spec schema)", (_version, apiVersion, schema) => {
  const quick = compile(schema).fast;
  const full = compile(schema).full;
  const cases = sampleSpecs(apiVersion).flatMap(({ name, spec }) =>
    breakages(spec).map((b) => ({ what: `${name} ${b.at}`, spec: b.broken(spec) })),
  );

  it("has samples broken in many ways to compare on", () => {
    expect(cases.length).toBeGreaterThan(100);
  });

  it("gives the same verdict as the schema as written, on every sample and breakage", () => {
    const disagreements = cases
      .filter(({ spec }) => quick(spec) !== full(spec))
      .map(({ what, spec }) => `${what}: quick ${String(quick(spec))}, as written ${String(full(spec))}`);
    expect(disagreements).toEqual([]);
    // Both verdicts occur: the comparison is not all-valid or all-invalid.
    expect(new Set(cases.map(({ spec }) => quick(spec)))).toEqual(new Set([true, false]));
  });
});

describe("withSharedDefs()", () => {
  const ref = { type: "object", description: "a reference ".repeat(20), properties: { name: { type: "string" } } };
  const schema = {
    type: "object",
    properties: { a: ref, b: { type: "array", items: ref }, c: { type: "string" } },
  };

  it("moves a subschema used twice to $defs and refers to it from both places", () => {
    const out = withSharedDefs(schema);
    expect(out.$defs).toEqual({ s0: ref });
    expect(out.properties).toEqual({
      a: { $ref: "#/$defs/s0" },
      b: { type: "array", items: { $ref: "#/$defs/s0" } },
      c: { type: "string" },
    });
  });

  it("never replaces a keyword's map (properties) or a schema used once and small", () => {
    const small = { type: "object", properties: { x: { type: "string" } } };
    expect(withSharedDefs(small)).toBe(small);
  });

  it("compiles under ajv's strict mode with the same verdicts", () => {
    const ajv = new Ajv({ strict: true, inlineRefs: false });
    const quick = ajv.compile(withSharedDefs(schema));
    const full = new Ajv({ strict: true }).compile(schema);
    for (const value of [{ a: { name: "x" } }, { a: { name: 1 } }, { b: [{ name: "y" }, { name: false }] }, { c: 3 }])
      expect(quick(value)).toBe(full(value));
  });
});
