/**
 * lib/ogx/schema.ts, the model of the peer's OGXServer API: it accepts the objects of
 * objects.yaml, which together use every field it has, and refuses what each of the peer's
 * rules forbids, with the peer's message.
 */
import { ogxServerProblems, OGX_SPEC_SCHEMA } from "../../lib/ogx/schema";
import { isPlainObject, own, type JsonMap } from "../../lib/json";
import { ogxObjects } from "./objects";

const objects = ogxObjects();
const byName = (name: string): JsonMap => objects.find((o) => o.name === name)?.object ?? {};

/** Every field path the schema defines (`[]` for list items, `{}` for map values), down to Kubernetes types. */
function schemaPaths(node: unknown, path: string): string[] {
  const properties = own(node, "properties");
  const items = own(node, "items");
  const values = own(node, "additionalProperties");
  return [
    path,
    ...(isPlainObject(properties)
      ? Object.entries(properties).flatMap(([k, v]) => schemaPaths(v, `${path}.${k}`))
      : []),
    ...(isPlainObject(items) ? schemaPaths(items, `${path}[]`) : []),
    ...(isPlainObject(values) ? schemaPaths(values, `${path}{}`) : []),
  ];
}

/** Every path an object has, in the same notation (map keys as `{}` where the schema has a map). */
function objectPaths(value: unknown, node: unknown, path: string, out: Set<string>): void {
  out.add(path);
  if (Array.isArray(value)) value.forEach((v) => objectPaths(v, own(node, "items"), `${path}[]`, out));
  if (!isPlainObject(value)) return;
  const values = own(node, "additionalProperties");
  for (const [k, v] of Object.entries(value)) {
    if (isPlainObject(values)) objectPaths(v, values, `${path}{}`, out);
    else objectPaths(v, own(own(node, "properties"), k), `${path}.${k}`, out);
  }
}

/**
 * Shapes the model repeats are one field: `custom[]` of every bucket, the settings every remote
 * inference provider shares (`allowedModels`, `refreshModels`, `network`), every routed
 * provider's `id`, the vector-stores config (file search and builtin responses) and its models.
 */
const SHAPES: readonly [RegExp, string][] = [
  [/^spec\.providers\.\w+\.(remote|inline)\.custom/, "custom"],
  [/^spec\.providers\.inference\.remote\.\w+\[\]\.(allowedModels|refreshModels|network)/, "inference.$1"],
  [/^spec\.providers\..*\[\]\.id$/, "id"],
  [/^.*\.vectorStoresConfig/, "vectorStoresConfig"],
  [/^.*\.(model|defaultEmbeddingModel)\./, "qualifiedModel."],
];
const shape = (path: string): string => SHAPES.reduce((p, [pattern, to]) => p.replace(pattern, to), path);

const withSpec = (base: JsonMap, spec: JsonMap): JsonMap => ({ ...base, spec: { ...(base.spec as JsonMap), ...spec } });

describe("the OGXServer v1beta1 model", () => {
  it.each(objects.map((o) => [o.name, o.object] as const))("accepts %s", (_name, object) => {
    expect(ogxServerProblems(object)).toEqual([]);
  });

  it("is exercised field by field: every field of the model is in some test object", () => {
    const used = new Set<string>();
    for (const { object } of objects) objectPaths(object.spec, OGX_SPEC_SCHEMA, "spec", used);
    const usedShapes = new Set([...used].map(shape));
    const missing = schemaPaths(OGX_SPEC_SCHEMA, "spec").filter((p) => !usedShapes.has(shape(p)));
    expect(missing).toEqual([]);
  });

  const minimal = byName("minimal");
  it.each([
    [
      "name and image",
      { distribution: { name: "starter", image: "x:1" } },
      "only one of name or image can be specified",
    ],
    ["no distribution", { distribution: {} }, "one of name or image must be specified"],
    [
      "overrideConfig beside providers",
      { overrideConfig: { name: "c", key: "k" }, providers: {} },
      "overrideConfig and providers are mutually exclusive",
    ],
    [
      "overrideConfig beside baseConfig",
      { overrideConfig: { name: "c", key: "k" }, baseConfig: { name: "b", key: "k" } },
      "overrideConfig and baseConfig are mutually exclusive",
    ],
    [
      "an API disabled and given",
      { disabledAPIs: ["files"], providers: { files: { inline: { localfs: {} } } } },
      "files cannot be both in providers and disabledAPIs",
    ],
    [
      "a redis store without endpoint",
      { storage: { kv: { type: "redis" } } },
      "endpoint is required when type is redis",
    ],
    [
      "a sqlite store with a password",
      { storage: { kv: { password: { name: "p", key: "k" } } } },
      "password is only valid when type is redis",
    ],
    [
      "postgres without a DSN",
      { storage: { sql: { type: "postgres" } } },
      "connectionString is required when type is postgres",
    ],
    ["a zero storage size", { workload: { storage: { size: "0" } } }, "size must be a positive quantity"],
    ["a storage size that is no quantity", { workload: { storage: { size: "ten" } } }, "must match pattern"],
    [
      "both PDB fields",
      { workload: { podDisruptionBudget: { minAvailable: 1, maxUnavailable: 1 } } },
      "minAvailable and maxUnavailable are mutually exclusive",
    ],
    [
      "maxReplicas below minReplicas",
      { workload: { autoscaling: { minReplicas: 3, maxReplicas: 2 } } },
      "maxReplicas must be greater than or equal to minReplicas",
    ],
    [
      "an empty model provider",
      { resources: { models: [{ name: "m", provider: "" }] } },
      "provider must not be empty if specified",
    ],
    [
      "a custom type without prefix",
      { providers: { inference: { remote: { custom: [{ type: "ollama" }] } } } },
      "type must have a 'remote::' or 'inline::' prefix",
    ],
    [
      "an empty provider id",
      { providers: { inference: { remote: { vllm: [{ id: "", endpoint: "http://v" }] } } } },
      "id must not be empty if specified",
    ],
    [
      "qdrant without url or host",
      { providers: { vectorIo: { remote: { qdrant: [{ port: 1 }] } } } },
      "at least one of url or host must be specified",
    ],
    [
      "both pgvector indexes",
      {
        providers: {
          vectorIo: {
            remote: { pgvector: [{ password: { name: "p", key: "k" }, vectorIndex: { hnsw: {}, ivfFlat: {} } }] },
          },
        },
      },
      "only one of hnsw or ivfFlat can be specified",
    ],
    ["an unknown disabled API", { disabledAPIs: ["safety"] }, "must be equal to one of the allowed values"],
    ["an unknown field", { replicaz: 2 }, "must NOT have additional properties (replicaz)"],
    [
      "a Secret key with a slash",
      { storage: { kv: { type: "redis", endpoint: "r:1", password: { name: "p", key: "a/b" } } } },
      "must match pattern",
    ],
  ])("refuses %s", (_what, spec, message) => {
    expect(ogxServerProblems(withSpec(minimal, spec)).join("\n")).toContain(message);
  });
});
