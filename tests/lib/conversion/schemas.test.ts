/**
 * Which rows the conversion asks the target's schema about (lib/conversion/schemas.ts,
 * table.ts): only those whose two schemas have different rules, or whose value is projected,
 * asked through one schema that checks those fields and nothing else.
 */
import { compile } from "../../../lib/api/schema";
import type { Schema } from "../../../lib/api/schema-parts";
import { sameRules, schemaAt, schemaOfFields, V1ALPHA1_BODY, V1ALPHA2_BODY } from "../../../lib/conversion/schemas";
import { FROM_HUB, TO_HUB } from "../../../lib/conversion/table";

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
  const checked = (direction: typeof TO_HUB): string[] =>
    direction.pairs.filter((pair) => pair.checked).map((pair) => pair.fromPath);

  // Written out: a schema change that gives a row different rules in the two versions shows here.
  it("are the rows whose rules differ between the versions, and the projected one", () => {
    expect(checked(FROM_HUB)).toEqual([
      "spec.distribution",
      "spec.networking.port",
      "spec.networking.tls.caBundle",
      "spec.networking.expose",
      "spec.workload.replicas",
      "spec.workload.autoscaling",
      "spec.workload.storage",
      "spec.workload.overrides.terminationGracePeriodSeconds",
      "spec.overrideConfig",
      "status.observedGeneration",
      "status.availableReplicas",
    ]);
    expect(checked(TO_HUB)).toEqual([
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

  it("leave every unasked row with the same rules on both sides, and unprojected", () => {
    for (const [direction, source] of [
      [TO_HUB, V1ALPHA1_BODY],
      [FROM_HUB, V1ALPHA2_BODY],
    ] as const) {
      const unasked = direction.pairs.filter((p) => !p.checked);
      expect(unasked.length).toBeGreaterThan(0);
      for (const pair of unasked) {
        expect({ row: pair.fromPath, project: pair.project }).toEqual({ row: pair.fromPath, project: undefined });
        expect([pair.fromPath, sameRules(schemaAt(source, pair.from), schemaAt(direction.target, pair.to))]).toEqual([
          pair.fromPath,
          true,
        ]);
      }
    }
  });
});
