/**
 * The peer's CRD, checked here as the apiserver would (structural schema and every CEL rule, the
 * Kubernetes quantity library included): its own objects pass it, and edits its rules forbid fail.
 * The conversion to OGXServer is checked with the same function.
 */
import { celFailures, structuralErrors, versionSchema } from "../../lib/crd/check";
import type { JsonMap } from "../../lib/conversion/paths";
import { peerCrd, peerObjects } from "./peer-objects";

const schema = versionSchema(peerCrd(), "v1beta1");
const objects = peerObjects();

function problems(object: unknown): string[] {
  const { failures } = celFailures(schema, object);
  return [
    ...structuralErrors(schema, object),
    ...failures.map((f) => `${f.path}: ${f.message}${f.error ? ` (${f.error})` : ""}`),
  ];
}

const withSpec = (object: JsonMap, spec: JsonMap): JsonMap => ({
  ...object,
  spec: { ...(object.spec as JsonMap), ...spec },
});

describe("the OGXServer CRD of ogx-k8s-operator v0.14.0", () => {
  it("has objects from its samples, config-generator cases and docs", () => {
    const sources = new Set(objects.map((o) => o.id.split("/")[0]));
    expect([...sources].sort()).toEqual(["configgen", "docs", "samples"]);
    expect(objects.length).toBeGreaterThanOrEqual(40);
  });

  it.each(objects.map((o) => [o.id, o.object] as const))("accepts %s", (_id, object) => {
    expect(problems(object)).toEqual([]);
    expect(celFailures(schema, object).evaluated).toBeGreaterThan(0);
  });

  const base = objects.find((o) => o.id.startsWith("configgen/happy-basic"))?.object ?? {};
  it.each([
    ["a zero storage size", { workload: { storage: { size: "0" } } }, "size must be a positive quantity"],
    ["a storage size that is no quantity", { workload: { storage: { size: "ten" } } }, "is not a Kubernetes quantity"],
    ["overrideConfig beside providers", { overrideConfig: { configMapName: "c" } }, "overrideConfig"],
    ["an unknown field", { replicaz: 2 }, "must NOT have additional properties (replicaz)"],
  ])("refuses %s", (_what, spec, message) => {
    expect(problems(withSpec(base, spec)).join("\n")).toContain(message);
  });
});
