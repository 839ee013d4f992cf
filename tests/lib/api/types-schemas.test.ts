/**
 * The hand-written API types and the JSON Schemas say the same thing, field for field: the
 * schema is what the apiserver enforces, the type is what the code reads. `canonical.ts` is not
 * here: it is the normalized form, which has no schema of its own.
 */
import * as path from "node:path";
import { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "../../../lib/api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../../../lib/api/schema-v1alpha2";
import { V1ALPHA2_STATUS_SCHEMA } from "../../../lib/api/schema-status-v1alpha2";
import type { Schema } from "../../../lib/api/schema-parts";
import { loadTypes } from "./type-walk";

const API = path.join(__dirname, "../../../lib/api");
const FILES = ["v1alpha2.ts", "auth-types.ts", "schema-status-v1alpha2.ts", "v1alpha1.ts"].map((f) =>
  path.join(API, f),
);

const PAIRS: readonly (readonly [string, Schema, string])[] = [
  ["LlsdSpecV1alpha2", V1ALPHA2_SPEC_SCHEMA, "v1alpha2 spec"],
  ["LlsdStatusV1alpha2", V1ALPHA2_STATUS_SCHEMA, "v1alpha2 status"],
  ["LlsdSpecV1alpha1", V1ALPHA1_SPEC_SCHEMA, "v1alpha1 spec"],
  ["LlsdStatusV1alpha1", V1ALPHA1_STATUS_SCHEMA, "v1alpha1 status"],
];

describe("API types and JSON Schemas", () => {
  const types = loadTypes(FILES);

  it.each(PAIRS)("%s agrees with its schema for every field", (typeName, schema, where) => {
    const problems = types.compare(typeName, schema, where);
    expect(problems.join("\n")).toBe("");
  });
});

describe("the type walker", () => {
  const FILE = "/virtual/sample.ts";
  const compare = (source: string, schema: Schema) => loadTypes([], { [FILE]: source }).compare("T", schema, "t");
  const str = { type: "string" };
  const closed = (properties: { [k: string]: Schema }, required: string[] = []): Schema => ({
    type: "object",
    properties,
    required,
    additionalProperties: false,
  });

  it("accepts a type and a schema that agree", () => {
    const source = `export interface T { readonly a: string; readonly b?: number; readonly c?: readonly ("x" | "y")[] }`;
    const schema = closed(
      { a: str, b: { type: "integer" }, c: { type: "array", items: { type: "string", enum: ["x", "y"] } } },
      ["a"],
    );
    expect(compare(source, schema)).toEqual([]);
  });

  it("reports every mismatch with its path", () => {
    const source = `export interface T {
      readonly a?: string;
      readonly onlyInType: string;
      readonly kind: "x" | "y";
      readonly n: { readonly [k: string]: number };
      readonly u: boolean | { readonly on?: boolean };
    }`;
    const schema = closed(
      {
        a: str,
        onlyInSchema: str,
        kind: { type: "string", enum: ["x", "z"] },
        n: { type: "object", additionalProperties: str },
        u: { oneOf: [{ type: "boolean" }, closed({ on: { type: "boolean" }, off: { type: "boolean" } })] },
      },
      ["a", "kind", "n", "u"],
    );
    expect(compare(source, schema)).toEqual([
      "t.onlyInType: in the type, not in the schema",
      "t.onlyInSchema: in the schema, not in the type",
      "t.a: optional in the type, required in the schema",
      "t.kind: y in the type, not the schema's enum",
      "t.kind: z in the schema's enum, not the type",
      "t.n.*: the type is number, the schema is string",
      "t.u.off: in the schema, not in the type",
    ]);
  });

  it("reports an enum against an open string, and a map against a closed object", () => {
    const source = `export interface T { readonly s: readonly string[]; readonly m: { readonly [k: string]: string } }`;
    const schema = closed({ s: { type: "array", items: { type: "string", enum: ["a"] } }, m: closed({}) }, ["s", "m"]);
    expect(compare(source, schema)).toEqual([
      "t.s[]: the schema's enum is a; the type accepts any string",
      "t.m: the type has an index signature, the schema takes no other keys",
    ]);
  });
});
