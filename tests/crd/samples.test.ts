/**
 * Every LlamaStackDistribution in samples/ (v1alpha1 and v1alpha2) is accepted by the CRD the
 * way the apiserver would check it: the structural schema (ajv, unknown fields refused) and
 * every CEL rule on the defaulted object.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { celFailures, committedCrd, ROOT, structuralErrors, versionSchema } from "./crd-helpers";

const SAMPLES_DIR = join(ROOT, "samples");
const crd = committedCrd();

interface Llsd {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string };
  readonly spec: { [k: string]: unknown };
}

const LLSDS: [string, Llsd][] = readdirSync(SAMPLES_DIR)
  .filter((f) => f.endsWith(".yaml"))
  .sort()
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(SAMPLES_DIR, file), "utf8"))
      .map((d) => d.toJS() as Llsd)
      .filter((o) => o?.kind === "LlamaStackDistribution")
      .map((o) => [`${file} ${o.apiVersion} ${o.metadata.name}`, o] as [string, Llsd]),
  );

function schemaFor(object: Llsd) {
  const [group, version] = object.apiVersion.split("/");
  expect(group).toBe(crd.spec.group);
  return versionSchema(crd, version ?? "");
}

describe("samples against the CRD", () => {
  it("include LlamaStackDistributions of both versions", () => {
    const versions = new Set(LLSDS.map(([, o]) => o.apiVersion));
    expect([...versions].sort()).toEqual(["llamastack.io/v1alpha1", "llamastack.io/v1alpha2"]);
    expect(LLSDS.length).toBeGreaterThanOrEqual(10);
  });

  it.each(LLSDS)("%s passes the structural schema", (_name, object) => {
    expect(structuralErrors(schemaFor(object), object)).toEqual([]);
  });

  it.each(LLSDS)("%s passes every CEL rule", (_name, object) => {
    const { failures, evaluated } = celFailures(schemaFor(object), object);
    expect(failures).toEqual([]);
    expect(evaluated).toBeGreaterThan(0);
  });
});

describe("the checks themselves", () => {
  const complete = LLSDS.find(([name]) => name.startsWith("complete.yaml"))?.[1];
  const migration = LLSDS.find(([, o]) => o.apiVersion === "llamastack.io/v1alpha1")?.[1];

  it("find a sample whose spec breaks a rule, at the rule's node", () => {
    const broken = structuredClone(complete!);
    broken.spec.overrideConfig = { configMapName: "mine" };
    expect(celFailures(schemaFor(broken), broken).failures.map((f) => `${f.path}: ${f.message}`)).toEqual([
      "spec: overrideConfig and providers are mutually exclusive",
      "spec: overrideConfig and resources are mutually exclusive",
      "spec: overrideConfig and storage are mutually exclusive",
      "spec: overrideConfig and disabled are mutually exclusive",
      "spec: overrideConfig and registryRefreshIntervalSeconds are mutually exclusive",
    ]);
  });

  it("apply defaults first, as the apiserver does (kv without a type is sqlite)", () => {
    const broken = structuredClone(complete!);
    broken.spec.storage = { kv: { endpoint: "redis:6379" } };
    expect(celFailures(schemaFor(broken), broken).failures.map((f) => `${f.path}: ${f.message}`)).toEqual([
      "spec.storage.kv: endpoint is only valid when type is redis",
    ]);
  });

  it("refuse unknown fields, wrong types and bad quantities, and accept int-or-string forms", () => {
    const broken = structuredClone(complete!);
    broken.spec.replicas = 3;
    (broken.spec.workload as { storage: { size: string } }).storage.size = "ten gigs";
    (broken.spec.networking as { port: unknown }).port = "8321";
    expect(structuralErrors(schemaFor(broken), broken)).toEqual(
      expect.arrayContaining([
        "/spec: must NOT have additional properties (replicas)",
        "/spec/networking/port: must be integer",
        '/spec/workload/storage/size: must match pattern "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$"',
      ]),
    );
    const pdb = structuredClone(complete!);
    (pdb.spec.workload as { podDisruptionBudget: unknown }).podDisruptionBudget = { minAvailable: "50%" };
    expect(structuralErrors(schemaFor(pdb), pdb)).toEqual([]);
  });

  it("hold the v1alpha1 sample to the Go operator's rule", () => {
    const broken = structuredClone(migration!);
    (broken.spec.server as { distribution: unknown }).distribution = { name: "starter", image: "quay.io/x/y:1" };
    expect(celFailures(schemaFor(broken), broken).failures.map((f) => `${f.path}: ${f.message}`)).toEqual([
      "spec.server.distribution: Only one of name or image can be specified",
    ]);
  });

  it("leave polymorphic fields to /validate: any provider shape passes the CRD", () => {
    const odd = structuredClone(complete!);
    odd.spec.providers = { inference: "not-an-object", telemetry: [1, 2] };
    (odd.spec.networking as { expose: unknown }).expose = true;
    expect(structuralErrors(schemaFor(odd), odd)).toEqual([]);
  });
});
