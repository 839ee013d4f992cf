/**
 * fast-check arbitraries for whole OGXServer objects the peer's API accepts: generated from
 * lib/ogx/schema.ts node by node (every field can appear), with the few fields whose rules tie
 * them to others drawn from their valid forms, and what the CEL rules still refuse filtered out.
 */
import fc from "fast-check";
import { KEY_PATTERN } from "../../lib/ogx/schema-parts";
import { OGX_SPEC_SCHEMA, ogxServerProblems } from "../../lib/ogx/schema";
import { isPlainObject, own, type JsonMap } from "../../lib/json";

const word = fc.constantFrom("a", "ogx", "x-1", "Tenant", "snake_key", "v1.2");
const json = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const freeObject = fc.dictionary(word, json, { maxKeys: 2, noNullPrototype: true });
const ref = fc.record({ name: word, key: fc.constantFrom("token", "tls.crt", "a_b-c") });

/** Fields drawn from their valid forms rather than from the schema alone (`[]` marks list items). */
const FORMS: { readonly [path: string]: fc.Arbitrary<unknown> } = {
  "spec.distribution": fc.oneof(fc.record({ name: word }), fc.record({ image: word })),
  "spec.storage.kv": fc.oneof(
    fc.record({ type: fc.constant("sqlite") }, { requiredKeys: [] }),
    fc.record({ type: fc.constant("redis"), endpoint: word, password: ref }, { requiredKeys: ["type", "endpoint"] }),
  ),
  "spec.storage.sql": fc.oneof(
    fc.record({ type: fc.constant("sqlite") }, { requiredKeys: [] }),
    fc.record({ type: fc.constant("postgres"), connectionString: ref }),
  ),
  "spec.workload.podDisruptionBudget": fc.oneof(
    fc.record({ minAvailable: fc.constantFrom(1, "50%") }),
    fc.record({ maxUnavailable: fc.constantFrom(1, "25%") }),
  ),
  "spec.workload.storage.size": fc.constantFrom("1Gi", "10Gi", "500Mi", 5),
  "spec.workload.resources": fc.constant({ requests: { cpu: "1" } }),
  "spec.providers.vectorIo.remote.pgvector[].vectorIndex": fc.oneof(
    fc.record({ hnsw: fc.record({ m: fc.integer({ min: 1, max: 64 }) }) }),
    fc.record({ ivfFlat: fc.record({ nlist: fc.integer({ min: 1, max: 9 }) }) }),
  ),
};

const isCustomType = (path: string): boolean => path.endsWith(".custom[].type");

function scalar(node: JsonMap, path: string): fc.Arbitrary<unknown> {
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
  if (isCustomType(path)) return fc.constantFrom("remote::ollama", "inline::faiss", "remote::x-y");
  if (node["x-kubernetes-int-or-string"] === true) return fc.constantFrom(1, 2, "1");
  if (node.type === "boolean") return fc.boolean();
  if (node.type === "integer") {
    const min = typeof node.minimum === "number" ? node.minimum : 0;
    return fc.integer({ min, max: typeof node.maximum === "number" ? node.maximum : min + 1000 });
  }
  if (node.pattern === KEY_PATTERN) return fc.constantFrom("token", "tls.crt", "a_b-c");
  return node.type === "string" ? word : freeObject;
}

function objectOf(node: JsonMap, path: string): fc.Arbitrary<unknown> {
  const properties = own(node, "properties");
  const values = own(node, "additionalProperties");
  if (isPlainObject(values)) {
    const minKeys = typeof node.minProperties === "number" ? node.minProperties : 0;
    return fc.dictionary(word, arbitrary(values, `${path}{}`), { minKeys, maxKeys: 2, noNullPrototype: true });
  }
  if (!isPlainObject(properties)) return freeObject;
  const model = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, arbitrary(v, `${path}.${k}`)]));
  const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === "string") : [];
  return fc.record(model, { requiredKeys: required, noNullPrototype: true });
}

function arbitrary(node: unknown, path: string): fc.Arbitrary<unknown> {
  const form = FORMS[path];
  if (form) return form;
  if (!isPlainObject(node)) return json;
  if (node.type === "array") {
    const items = arbitrary(node.items, `${path}[]`);
    return fc.array(items, { minLength: typeof node.minItems === "number" ? node.minItems : 0, maxLength: 2 });
  }
  return node.type === "object" || node.properties !== undefined ? objectOf(node, path) : scalar(node, path);
}

const spec = arbitrary(OGX_SPEC_SCHEMA, "spec");

export const anOgxServerObject: fc.Arbitrary<JsonMap> = fc
  .record({
    spec,
    // The apiserver never sends an empty annotations map.
    annotations: fc.option(fc.dictionary(word, word, { minKeys: 1, maxKeys: 2, noNullPrototype: true }), {
      nil: undefined,
    }),
    status: fc.option(fc.record({ phase: fc.constantFrom("Ready", "Failed"), availableReplicas: fc.nat(3) }), {
      nil: undefined,
    }),
  })
  .map(({ spec: s, annotations, status }) => ({
    apiVersion: "ogx.io/v1beta1",
    kind: "OGXServer",
    metadata: { name: "random", ...(annotations ? { annotations } : {}) },
    spec: s,
    ...(status ? { status } : {}),
  }))
  .filter((object) => ogxServerProblems(object).length === 0);
