/**
 * Which rows the conversion asks the target's schema about (lib/conversion/schemas.ts,
 * table.ts): every row, except on the webhook path, which asks only those where the target's
 * rules may refuse what the source's accept, or whose value is projected; asked through one
 * schema that checks those fields and nothing else.
 */
import { compile } from "../../../lib/api/schema";
import type { Schema } from "../../../lib/api/schema-parts";
import {
  acceptsAll,
  sameRules,
  schemaAt,
  schemaOfFields,
  V1ALPHA1_BODY,
  V1ALPHA2_BODY,
} from "../../../lib/conversion/schemas";
import { FIELD_TABLE, FROM_HUB, TO_HUB, type Direction } from "../../../lib/conversion/table";

const port = (extra: Schema = {}): Schema => ({ type: "integer", minimum: 1, maximum: 65535, ...extra });

describe("sameRules", () => {
  it.each<[string, Schema, Schema, boolean]>([
    ["the same schema", port(), port(), true],
    ["only descriptions differ", port({ description: "a" }), port({ description: "b" }), true],
    [
      "only nested descriptions differ",
      { type: "object", properties: { p: port({ description: "a" }) }, description: "x" },
      { type: "object", properties: { p: port({ description: "b" }) } },
      true,
    ],
    ["a bound differs", port(), port({ maximum: 1024 }), false],
    [
      "a field named description differs (a field, not prose)",
      { type: "object", properties: { description: { type: "string" } } },
      { type: "object", properties: { description: { type: "integer" } } },
      false,
    ],
    [
      "an items schema differs",
      { type: "array", items: { type: "string", maxLength: 3 } },
      { type: "array", items: { type: "string" } },
      false,
    ],
  ])("%s", (_case, a, b, same) => {
    expect(sameRules(a, b)).toBe(same);
  });

  it("is false when either side has no schema (a field the version does not have)", () => {
    expect(sameRules(port(), undefined)).toBe(false);
    expect(sameRules(undefined, port())).toBe(false);
  });
});

const closed = (properties: Record<string, Schema>, extra: Schema = {}): Schema => ({
  type: "object",
  properties,
  additionalProperties: false,
  ...extra,
});
const name = (extra: Schema = {}): Schema => ({ type: "string", ...extra });

describe("acceptsAll (the target accepts every value the source accepts)", () => {
  it.each<[string, Schema, Schema, boolean]>([
    ["the same rules", port(), port({ description: "prose" }), true],
    ["the target lacks a bound the source has", { type: "integer" }, port(), true],
    ["the target has a bound the source lacks", port(), { type: "integer" }, false],
    ["the target has another bound", port({ maximum: 1024 }), port(), false],
    ["another type", name(), { type: "integer" }, false],
    ["the target lacks the type", {}, name(), true],
    ["only a default differs", { type: "integer", default: 1 }, { type: "integer" }, true],
    [
      "the target names a field the source forbids",
      closed({ a: name(), b: name() }),
      closed({ a: name({ minLength: 1 }) }),
      true,
    ],
    [
      "the target names a field the source leaves open",
      closed({ a: name(), b: { type: "integer" } }),
      { type: "object", properties: { a: name() } },
      false,
    ],
    [
      "the target is closed, the source open",
      closed({ a: name() }),
      { type: "object", properties: { a: name() } },
      false,
    ],
    [
      "the source has a field the closed target does not name",
      closed({ a: name() }),
      closed({ a: name(), b: name() }),
      false,
    ],
    ["a field's rules are stricter in the target", closed({ a: name({ minLength: 1 }) }), closed({ a: name() }), false],
    [
      "the target requires what the source requires",
      closed({ a: name() }, { required: ["a"] }),
      closed({ a: name() }, { required: ["a"] }),
      true,
    ],
    [
      "the target requires a field the source does not",
      closed({ a: name() }, { required: ["a"] }),
      closed({ a: name() }),
      false,
    ],
    ["looser items", { type: "array", items: name() }, { type: "array", items: name({ maxLength: 3 }) }, true],
    ["stricter items", { type: "array", items: name({ maxLength: 3 }) }, { type: "array", items: name() }, false],
    [
      "the source keeps unknown fields the target would judge",
      { type: "object" },
      { type: "object", "x-kubernetes-preserve-unknown-fields": true },
      false,
    ],
    [
      "the same oneOf",
      { oneOf: [{ type: "boolean" }, closed({})] },
      { oneOf: [{ type: "boolean" }, closed({})] },
      true,
    ],
    ["a oneOf the source lacks", { oneOf: [{ type: "boolean" }, closed({})] }, { type: "boolean" }, false],
  ])("%s: %s", (_case, target, source, accepts) => {
    expect(acceptsAll(target, source)).toBe(accepts);
  });

  it("is false when either side has no schema (a field the version does not have)", () => {
    expect(acceptsAll(port(), undefined)).toBe(false);
    expect(acceptsAll(undefined, port())).toBe(false);
  });
});

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
  const checked = (direction: Direction): string[] =>
    direction.pairs.filter((pair) => pair.checked).map((pair) => pair.fromPath);

  it.each([
    ["to v1alpha2", TO_HUB],
    ["from v1alpha2", FROM_HUB],
  ])("are every row %s when the apiserver has not validated the source", (_way, { plain }) => {
    expect(checked(plain)).toEqual(plain.pairs.map((pair) => pair.fromPath));
    expect(plain.pairs).toHaveLength(FIELD_TABLE.length);
  });

  // Written out: a schema change that makes a target's rules stricter than its source's shows here.
  it("are, on the webhook path, the rows whose target may refuse what the source accepts, and the projected one", () => {
    // v1alpha1 (the Go operator's API) has no minLength, minimum or maximum where v1alpha2 has.
    expect(checked(FROM_HUB.validated)).toEqual(["spec.networking.expose"]);
    expect(checked(TO_HUB.validated)).toEqual([
      "spec.server.distribution",
      "spec.server.containerSpec.port",
      "spec.server.tlsConfig.caBundle",
      "spec.network.exposeRoute",
      "spec.replicas",
      "spec.server.autoscaling",
      "spec.server.storage",
      "spec.server.podOverrides.terminationGracePeriodSeconds",
      "spec.server.userConfig",
      "status.observedGeneration",
      "status.availableReplicas",
    ]);
  });

  it("leave every unasked row unprojected, with a target that accepts all its source does", () => {
    for (const [direction, source] of [
      [TO_HUB.validated, V1ALPHA1_BODY],
      [FROM_HUB.validated, V1ALPHA2_BODY],
    ] as const) {
      const unasked = direction.pairs.filter((p) => !p.checked);
      expect(unasked.length).toBeGreaterThan(0);
      for (const pair of unasked) {
        expect({ row: pair.fromPath, project: pair.project }).toEqual({ row: pair.fromPath, project: undefined });
        expect([pair.fromPath, acceptsAll(schemaAt(direction.target, pair.to), schemaAt(source, pair.from))]).toEqual([
          pair.fromPath,
          true,
        ]);
      }
    }
  });
});
