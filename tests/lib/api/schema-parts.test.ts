/**
 * The schema builders (lib/api/schema-parts.ts): each field is declared once, so the JSON Schema
 * a builder writes and the type `TypeOf` reads from it must both be right. The types are checked
 * by the compiler (`DeclaredTypes` does not compile unless each pair is the same type); the JSON
 * by value, with TypeBox's symbol marks left out as JSON leaves them out.
 */
import { Type } from "@sinclair/typebox";
import {
  freeObject,
  int,
  intOrString,
  list,
  mapOf,
  obj,
  oneOf,
  str,
  strList,
  withOtherFields,
  type JsonObject,
  type TypeOf,
} from "../../../lib/api/schema-parts";

type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

const asJson = (schema: object): unknown => JSON.parse(JSON.stringify(schema));

const sample = obj(
  "A sample.",
  {
    name: str("Name.", { minLength: 1 }),
    kind: str("Kind.", { enum: ["a", "b"] }),
    count: int("Count.", { minimum: 0 }),
    tags: strList("Tags."),
    size: intOrString("Size."),
    labels: mapOf("Labels.", Type.String()),
    form: oneOf("A flag or a list.", [Type.Boolean(), list("Items.", str("Item."))]),
    settings: freeObject("Settings."),
  },
  ["name", "kind"],
);

const open = withOtherFields(obj("Open.", { id: str("Id.") }), str("Other."));

/**
 * The types the schemas above declare: read-only all the way down, optional where the schema
 * does not require, an enum's values, a oneOf's union, and an index signature where other
 * fields are admitted. Checked by tsc (an entry that is not `true` does not compile).
 */
export type DeclaredTypes = [
  Assert<
    Same<
      TypeOf<typeof sample>,
      {
        readonly name: string;
        readonly kind: "a" | "b";
        readonly count?: number;
        readonly tags?: readonly string[];
        readonly size?: number | string;
        readonly labels?: { readonly [key: string]: string };
        readonly form?: boolean | readonly string[];
        readonly settings?: JsonObject;
      }
    >
  >,
  Assert<Same<TypeOf<typeof open>, { readonly [field: string]: unknown; readonly id?: string }>>,
];

describe("the JSON Schema a builder writes", () => {
  it.each<[string, object, unknown]>([
    ["str", str("S.", { minLength: 1 }), { type: "string", description: "S.", minLength: 1 }],
    ["int", int("I.", { minimum: 0 }), { type: "integer", description: "I.", minimum: 0 }],
    ["strList", strList("L."), { type: "array", description: "L.", items: { type: "string" } }],
    [
      "mapOf",
      mapOf("M.", Type.String()),
      { type: "object", description: "M.", additionalProperties: { type: "string" } },
    ],
    [
      "intOrString",
      intOrString("N."),
      { description: "N.", anyOf: [{ type: "integer" }, { type: "string" }], "x-int-or-string": true },
    ],
    [
      "obj",
      obj("O.", { a: str("A."), b: int("B.") }, ["b"]),
      {
        type: "object",
        description: "O.",
        properties: { a: { type: "string", description: "A." }, b: { type: "integer", description: "B." } },
        required: ["b"],
        additionalProperties: false,
      },
    ],
    [
      "withOtherFields",
      open,
      {
        ...(asJson(obj("Open.", { id: str("Id.") })) as object),
        additionalProperties: { type: "string", description: "Other." },
      },
    ],
    [
      "obj without required",
      obj("O.", { a: str("A.") }),
      {
        type: "object",
        description: "O.",
        properties: { a: { type: "string", description: "A." } },
        additionalProperties: false,
      },
    ],
  ])("%s", (_name, schema, json) => {
    expect(asJson(schema)).toEqual(json);
  });

  it("writes every keyword of a composed object (the sample whose type is checked above)", () => {
    expect(asJson(sample)).toEqual({
      type: "object",
      description: "A sample.",
      properties: {
        name: { type: "string", description: "Name.", minLength: 1 },
        kind: { type: "string", description: "Kind.", enum: ["a", "b"] },
        count: { type: "integer", description: "Count.", minimum: 0 },
        tags: { type: "array", description: "Tags.", items: { type: "string" } },
        size: { description: "Size.", anyOf: [{ type: "integer" }, { type: "string" }], "x-int-or-string": true },
        labels: { type: "object", description: "Labels.", additionalProperties: { type: "string" } },
        form: {
          description: "A flag or a list.",
          oneOf: [
            { type: "boolean" },
            { type: "array", description: "Items.", items: { type: "string", description: "Item." } },
          ],
        },
        settings: { type: "object", description: "Settings.", "x-preserve-unknown": true },
      },
      required: ["name", "kind"],
      additionalProperties: false,
    });
  });

  it("refuses a required list out of property order (TypeBox would reorder it)", () => {
    expect(() => obj("O.", { a: str("A."), b: str("B.") }, ["b", "a"])).toThrow("out of property order");
  });

  it("keeps a subschema shared by two objects one object (the quick validator compiles it once)", () => {
    const shared = str("Shared.");
    const one = obj("One.", { x: shared });
    const two = obj("Two.", { y: shared });
    expect(one.properties.x).toBe(two.properties.y);
  });
});
