/**
 * What the conversion asks the target's schema about (lib/conversion/schemas.ts, table.ts):
 * every row, through one schema that checks the rows' fields and nothing else.
 */
import { compile } from "../../../lib/api/schema";
import type { Schema } from "../../../lib/api/schema-parts";
import { schemaAt, schemaOfFields, V1ALPHA1_BODY, V1ALPHA2_BODY } from "../../../lib/conversion/schemas";
import { FIELD_TABLE, FROM_HUB, TO_HUB } from "../../../lib/conversion/table";

describe("schemaOfFields", () => {
  const check = schemaOfFields(V1ALPHA2_BODY, [
    ["spec", "networking", "port"],
    ["status", "phase"],
  ]);
  const accepts = (body: unknown): boolean => compile(check).fast(body) === true;

  it("checks each named field's value with the version's own schema for it", () => {
    expect(accepts({ spec: { networking: { port: 8321 } }, status: { phase: "Ready" } })).toBe(true);
    expect(accepts({ spec: { networking: { port: "8321" } } })).toBe(false);
    expect(accepts({ spec: { networking: { port: 0 } } })).toBe(false);
    expect(accepts({ spec: {}, status: { phase: "Sleeping" } })).toBe(false);
  });

  it("asks nothing else: no required field, no other field's rules", () => {
    // v1alpha2 requires spec.distribution and closes spec to unknown fields; this schema does not.
    expect(accepts({ spec: {} })).toBe(true);
    expect(accepts({ spec: { distribution: 42, unknown: true, networking: { expose: "x" } } })).toBe(true);
  });
});

describe("the rows the conversion asks about", () => {
  it.each([
    ["to v1alpha2", TO_HUB, V1ALPHA2_BODY],
    ["from v1alpha2", FROM_HUB, V1ALPHA1_BODY],
  ])("are every row %s, each with the target version's own schema for its field", (_way, direction, target) => {
    expect(direction.pairs).toHaveLength(FIELD_TABLE.length);
    for (const pair of direction.pairs) {
      const own = schemaAt(target, pair.to);
      expect({ row: pair.fromPath, asked: schemaAt(direction.check, pair.to) }).toEqual({
        row: pair.fromPath,
        asked: own,
      });
      expect({ row: pair.fromPath, schema: pair.toSchema }).toEqual({ row: pair.fromPath, schema: own });
    }
  });

  it("include a row whose rules are the same in both versions: its value is asked about too", () => {
    // status.conditions has the same schema in both versions; a file's value was never validated.
    const asks = (check: Schema): boolean =>
      compile(check).fast({ spec: {}, status: { conditions: "not a list" } }) === true;

    expect(asks(TO_HUB.check)).toBe(false);
    expect(asks(FROM_HUB.check)).toBe(false);
  });
});
