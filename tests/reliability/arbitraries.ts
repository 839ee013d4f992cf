/**
 * fast-check arbitraries for the reliability tests:
 *
 * - `aValidSpec`: v1alpha2 specs built from pieces the real server accepts (providers with
 *   endpoints and keys, the OGX 1.x sections, models, storage, networking with CA bundle lists
 *   and a policy, workload with real Kubernetes sub-objects and DRA claims, auth, monitoring,
 *   baseConfig and overrideConfig keys), meant to pass `validate()`; the tests filter with
 *   `validate()` and check that most pass.
 * - `aSyncRequest` / `aCustomizeRequest` / `anAdmissionReview` / `aConversionReview`: requests
 *   of each endpoint around schema-valid objects (tests/lib/conversion/arbitraries), observed
 *   children and related objects — the seeds the fuzz mutates.
 * - `aMutation`: what the fuzz does to a seed, structurally (delete, replace, retype, deep
 *   nesting, prototype keys, huge strings) or to its bytes (truncate, flip, insert).
 */
import fc from "fast-check";
import { aV1alpha1Object, aV1alpha2Object } from "../lib/conversion/arbitraries";
import { shown } from "../shown";

type Obj = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// Valid specs

const secretName = fc.constantFrom("creds-a", "creds-b", "pg-creds");
const secretKey = fc.constantFrom("token", "key", "url", "host");
const secretRef = fc
  .tuple(secretName, secretKey, fc.boolean())
  .map(([name, key, nested]) => (nested ? { secretKeyRef: { name, key } } : { name, key }));

const inference = fc.oneof(
  fc
    .record(
      {
        provider: fc.constantFrom("vllm", "openai", "remote::vllm"),
        endpoint: fc.constantFrom("http://vllm:8000", "https://api.example.com/v1"),
        apiKey: secretRef,
        settings: fc.record({ max_tokens: fc.integer({ min: 1, max: 32768 }) }),
      },
      { requiredKeys: ["provider", "endpoint"] },
    )
    // max_tokens is a vLLM setting: OpenAI's config has no such key (the server would ignore it).
    .map(({ settings, ...p }) => (p.provider.endsWith("vllm") && settings !== undefined ? { ...p, settings } : p)),
  fc.record({ provider: fc.constant("ollama"), endpoint: fc.constant("http://ollama.models.svc:11434") }),
);
const vectorIo = fc.oneof(
  fc.constant({ provider: "faiss" }),
  secretRef.map((host) => ({ provider: "pgvector", secretRefs: { host } })),
  fc.constant({ provider: "chromadb", endpoint: "http://chroma:8000" }),
);
const toolRuntime = fc.oneof(
  secretRef.map((apiKey) => ({ provider: "tavily-search", apiKey })),
  secretRef.map((apiKey) => ({ provider: "brave-search", apiKey })),
);
const telemetry = fc.constant({ provider: "otel", endpoint: "http://otel-collector:4317" });

// The OGX 1.x sections (issue 37), in the forms samples/files-s3.yaml and docs/spec-reference.md give.
const files = fc.oneof(
  fc.constant({ provider: "localfs" }),
  fc.tuple(secretName, fc.boolean()).map(([name, withEndpoint]) => ({
    provider: "s3",
    ...(withEndpoint ? { endpoint: "http://minio.storage.svc:9000" } : {}),
    secretRefs: { awsAccessKeyId: { name, key: "key" }, awsSecretAccessKey: { name, key: "token" } },
    settings: { bucket_name: "llsd-files", region: "us-east-1" },
  })),
);
const responses = fc.oneof(
  fc.constant({ id: "responses", provider: "builtin" }),
  fc.integer({ min: 100, max: 2000 }).map((size) => ({
    id: "responses",
    provider: "builtin",
    settings: { vector_stores_config: { file_ingestion_params: { default_chunk_size_tokens: size } } },
  })),
);
/** Provider ids are unique across all APIs, so each section's builtin gets its own. */
const builtin = (id: string) => fc.constant({ id, provider: "builtin" });
/** The sections a spec configures (each a single provider but file processors, which may list several). */
const ogxSections = fc.record(
  {
    files,
    batches: fc.constant({ provider: "reference" }),
    responses,
    fileProcessors: providersOf(fc.constantFrom({ provider: "pypdf" }, { provider: "markitdown" }), "fp"),
    messages: builtin("messages"),
    interactions: builtin("interactions"),
    skills: builtin("skills"),
  },
  { requiredKeys: [] },
);

/** One provider per API, or a list with unique ids. */
function providersOf<T extends Obj>(item: fc.Arbitrary<T>, prefix: string): fc.Arbitrary<Obj | Obj[]> {
  return fc.oneof(
    item,
    fc
      .array(item, { minLength: 1, maxLength: 3 })
      .map((list) => list.map((p, i) => ({ ...p, id: `${prefix}-${i + 1}` }))),
  );
}

const quantity = fc.constantFrom("100m", "500m", "1", "2");
const memory = fc.constantFrom("256Mi", "1Gi", "4Gi");
const resources = fc.record(
  {
    requests: fc.record({ cpu: quantity, memory }, { requiredKeys: [] }),
    limits: fc.record({ cpu: quantity, memory, "nvidia.com/gpu": fc.constantFrom("1", "2") }, { requiredKeys: [] }),
  },
  { requiredKeys: [] },
);
const envVar = fc.oneof(
  fc.record({ name: fc.constantFrom("FOO", "HF_HOME", "LOG_LEVEL"), value: fc.constantFrom("x", "/data/hf", "debug") }),
  fc.record({
    name: fc.constant("FROM_SECRET"),
    valueFrom: fc.record({ secretKeyRef: fc.record({ name: fc.constant("creds-a"), key: fc.constant("token") }) }),
  }),
);
const workloadFields = fc.record(
  {
    replicas: fc.integer({ min: 0, max: 3 }),
    workers: fc.integer({ min: 1, max: 8 }),
    resources,
    autoscaling: fc
      .tuple(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 3, max: 10 }), fc.integer({ min: 10, max: 100 }))
      .map(([minReplicas, maxReplicas, cpu]) => ({ minReplicas, maxReplicas, targetCPUUtilizationPercentage: cpu })),
    storage: fc.record(
      { size: fc.constantFrom("10Gi", "1Gi", 5), mountPath: fc.constantFrom("/.llama", "/data") },
      { requiredKeys: [] },
    ),
    podDisruptionBudget: fc.oneof(
      fc.constant({ minAvailable: 1 }),
      fc.constant({ maxUnavailable: "50%" }),
      fc.constant({ maxUnavailable: 1 }),
    ),
    topologySpreadConstraints: fc.constant([
      { maxSkew: 1, topologyKey: "kubernetes.io/hostname", whenUnsatisfiable: "ScheduleAnyway" },
    ]),
    overrides: fc.record(
      {
        serviceAccountName: fc.constant("llama-sa"),
        terminationGracePeriodSeconds: fc.integer({ min: 0, max: 600 }),
        env: fc
          .array(envVar, { maxLength: 2 })
          .map((list) => list.filter((e, i) => list.findIndex((x) => x.name === e.name) === i)),
        command: fc.constant(["python", "-m", "llama_stack.core.server.server"]),
        args: fc.constant(["--port", "8321"]),
        volumes: fc.constant([{ name: "extra", emptyDir: {} }]),
        volumeMounts: fc.constant([{ name: "extra", mountPath: "/extra" }]),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);
/** DRA claims the pod holds and the container uses (or none): names always match, as validate() requires. */
const dra = fc.constantFrom(
  undefined,
  { pod: [{ name: "gpu", resourceClaimTemplateName: "one-gpu" }], uses: [{ name: "gpu" }] },
  {
    pod: [
      { name: "gpu", resourceClaimName: "shared-gpu" },
      { name: "nic", resourceClaimTemplateName: "nic" },
    ],
    uses: [{ name: "gpu", request: "big" }, { name: "nic" }],
  },
);
const workload = fc
  .tuple(workloadFields, dra)
  .map(([w, claims]) =>
    claims ? { ...w, resourceClaims: claims.pod, resources: { ...w.resources, claims: claims.uses } } : w,
  );

const networking = fc.record(
  {
    port: fc.oneof(fc.constant(8321), fc.integer({ min: 1024, max: 65535 })),
    tls: fc.oneof(
      fc.constant({ caBundle: { configMapName: "custom-ca" } }),
      fc.constant({ caBundle: { configMapName: "custom-ca", configMapKeys: ["ca.crt", "extra.crt"] } }),
      fc.constant({
        caBundle: [{ configMapName: "custom-ca" }, { configMapName: "more-ca", configMapKeys: ["ca.crt"] }],
      }),
      fc.constant({ enabled: true, secretName: "llama-tls" }),
    ),
    expose: fc.oneof(
      fc.boolean(),
      fc.constant({}),
      fc.constant({ hostname: "llama.example.com" }),
      fc.constant({ enabled: false }),
    ),
    allowedFrom: fc.record(
      { namespaces: fc.subarray(["app-ns", "other", "*"]), labels: fc.subarray(["llama-access", "team"]) },
      { requiredKeys: [] },
    ),
    policy: fc.constantFrom(
      { enabled: false },
      {
        ingress: [
          { from: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } } }] },
        ],
      },
      { egress: [{ to: [{ ipBlock: { cidr: "10.96.0.0/16" } }], ports: [{ protocol: "TCP", port: 8000 }] }] },
    ),
  },
  { requiredKeys: [] },
);

/** spec.auth in each provider form the server has (one at a time, as validate() requires). */
const auth = fc.constantFrom(
  { kubernetes: {} },
  {
    oidc: {
      issuer: "https://idp.example.com/realms/ai",
      audience: "llsd",
      jwks: { uri: "https://idp.example.com/realms/ai/protocol/openid-connect/certs" },
    },
    accessPolicy: [{ permit: { actions: ["read"] }, when: "user with admin in roles" }],
  },
  { upstreamHeader: { principalHeader: "X-Forwarded-User" } },
  { custom: { endpoint: "http://authz.security.svc:8080/check", allowInsecureHttp: true } },
  { custom: { endpoint: "https://authz.security.svc:8443/check" } },
);

/**
 * upstreamHeader is valid only behind its gateway (lib/api/validate-auth-trust.ts): not exposed,
 * the policy on, the gateway's namespace named and not every namespace.
 */
function behindGateway<T extends { auth?: Obj; networking?: Obj }>(spec: T): T {
  if (spec.auth?.upstreamHeader === undefined) return spec;
  const { expose: _expose, policy, allowedFrom, ...networking } = spec.networking ?? {};
  const from = (allowedFrom ?? {}) as { namespaces?: string[]; labels?: string[] };
  const namespaces = [...(from.namespaces ?? []).filter((n) => n !== "*"), "gateway"];
  const kept = policy === undefined || (policy as Obj).enabled === false ? {} : { policy };
  return { ...spec, networking: { ...networking, ...kept, allowedFrom: { ...from, namespaces } } };
}
const monitoring = fc.constantFrom(
  { enabled: true },
  { port: 9464, allowedFrom: { namespaces: ["openshift-user-workload-monitoring"] } },
  { enabled: false },
);
/** The base config's ConfigMap (relatedFor in valid-specs.test.ts holds it under both keys). */
const baseConfig = fc.constantFrom({ configMapName: "my-base" }, { configMapName: "my-base", key: "run.yaml" });

const storage = fc.record(
  {
    kv: fc.oneof(
      fc.constant({ type: "sqlite" }),
      fc.constant({ type: "redis", endpoint: "redis.cache.svc:6379" }),
      // Key "dsn" of a drawn name: sometimes the sql store's Secret key too (one DSN, one copy of its parts).
      secretName.map((name) => ({ type: "postgres", connectionString: { name, key: "dsn" } })),
    ),
    sql: fc.oneof(
      fc.constant({ type: "sqlite" }),
      fc.tuple(secretName, fc.boolean()).map(([name, nested]) => ({
        type: "postgres",
        connectionString: nested ? { secretKeyRef: { name, key: "dsn" } } : { name, key: "dsn" },
      })),
    ),
  },
  { requiredKeys: [] },
);

/**
 * The OGX sections joined to the other providers; a section the spec configures is not also
 * disabled (validate() refuses that for these sections).
 */
function withOgxSections<T extends { ogx?: Obj; providers?: Obj; disabled?: string[] }>(spec: T): Omit<T, "ogx"> {
  const { ogx, ...rest } = spec;
  if (ogx === undefined || Object.keys(ogx).length === 0) return rest;
  const disabled = rest.disabled?.filter((d) => !(d in ogx));
  return { ...rest, providers: { ...rest.providers, ...ogx }, ...(disabled ? { disabled } : {}) };
}

const generated = fc
  .record(
    {
      distribution: fc.constantFrom({ name: "starter" }, { name: "postgres-demo" }),
      providers: fc.record(
        {
          inference: providersOf(inference, "inf"),
          // No safety: a new CR runs the 1.x line, which has no Safety API (refused, tested elsewhere).
          vectorIo: providersOf(vectorIo, "vec"),
          toolRuntime: providersOf(toolRuntime, "tool"),
          telemetry,
        },
        { requiredKeys: [] },
      ),
      ogx: ogxSections,
      storage,
      // On 0.7 eval needs scoring and datasetio, scoring needs datasetio: disabling one alone is refused, so dependents go with it.
      disabled: fc
        .subarray([
          "postTraining",
          "eval",
          "datasetio",
          "scoring",
          "batches",
          "skills",
          "containers",
          "containerRuntime",
        ])
        .map((list) =>
          list.includes("datasetio")
            ? [...list, "scoring", "eval"]
            : list.includes("scoring")
              ? [...list, "eval"]
              : list,
        )
        .map((list) => [...new Set(list)]),
      networking,
      workload,
      externalProviders: fc.constant({
        inference: [{ providerId: "custom-inference", image: "registry.example.com/custom:v1" }],
      }),
      baseConfig,
      registryRefreshIntervalSeconds: fc.integer({ min: 1, max: 86400 }),
      auth,
      monitoring,
    },
    { requiredKeys: ["distribution"] },
  )
  .map(withOgxSections)
  .map(behindGateway)
  .chain((spec) => {
    // Models and shields that name providers that exist.
    const providers = (spec.providers ?? {}) as Obj;
    const ids = (api: string, fallback: string): string[] => {
      const p = providers[api];
      if (p === undefined) return [];
      return Array.isArray(p) ? p.map((x) => String((x as Obj).id)) : [fallback];
    };
    const inferenceIds = ids("inference", shown((providers.inference as Obj | undefined)?.provider ?? ""));
    const model =
      inferenceIds.length === 0
        ? fc.constantFrom("llama3.2-3b", "granite-8b")
        : fc.oneof(
            fc.constantFrom("llama3.2-3b", "granite-8b"),
            fc.record({
              name: fc.constant("pinned-model"),
              provider: fc.constantFrom(...inferenceIds),
              contextLength: fc.integer({ min: 1, max: 131072 }),
            }),
          );
    const resourcesArb = fc.record(
      {
        models: fc
          .array(model, { maxLength: 3 })
          .map((list) => list.filter((m, i) => list.findIndex((x) => JSON.stringify(x) === JSON.stringify(m)) === i)),
      },
      { requiredKeys: [] },
    );
    // Only the sections the spec lists providers for can be replaced (validate() refuses the others).
    const sections = Object.keys(providers).filter((api) => api !== "telemetry");
    const replaceArb = fc.subarray([...sections, "models"], { maxLength: Math.min(3, sections.length + 1) });
    return fc.tuple(resourcesArb, replaceArb).map(([resourcesValue, replace]) => {
      const withResources =
        inferenceIds.length > 0 && Object.keys(resourcesValue).length > 0
          ? { ...spec, resources: resourcesValue }
          : spec;
      return replace.length > 0 ? { ...withResources, replace } : withResources;
    });
  });

/** overrideConfig: the ConfigMap is used as is, so no providers/resources/storage/disabled. */
const overridden = fc.record(
  {
    distribution: fc.constantFrom({ name: "starter" }, { image: "quay.io/acme/llama:0.7.1" }),
    overrideConfig: fc.constantFrom({ configMapName: "my-config" }, { configMapName: "my-config", key: "run.yaml" }),
    networking,
    workload,
  },
  { requiredKeys: ["distribution", "overrideConfig"] },
);

const minimal = fc.constantFrom({ distribution: { name: "starter" } }, { distribution: { name: "postgres-demo" } });

export const aValidSpec: fc.Arbitrary<Obj> = fc.oneof(
  { arbitrary: generated, weight: 6 },
  { arbitrary: overridden, weight: 1 },
  { arbitrary: minimal, weight: 1 },
);

// ---------------------------------------------------------------------------------------------
// Request seeds

const NAMESPACE = "team-a";
const parentOf = (object: Obj, name: string): Obj => ({
  ...object,
  metadata: { ...(object.metadata as Obj | undefined), name, namespace: NAMESPACE, uid: "uid-1", generation: 1 },
});
const dns = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/);

const observed = fc
  .array(
    fc.tuple(
      fc.constantFrom("ConfigMap.v1", "Deployment.apps/v1", "Service.v1", "Secret.v1", "PersistentVolumeClaim.v1"),
      dns,
    ),
    { maxLength: 3 },
  )
  .map((entries) => {
    const map: Record<string, Record<string, Obj>> = {};
    for (const [key, name] of entries) {
      const [kind, apiVersion] = [key.slice(0, key.indexOf(".")), key.slice(key.indexOf(".") + 1)];
      map[key] = {
        ...map[key],
        [`${NAMESPACE}/${name}`]: {
          apiVersion,
          kind,
          metadata: {
            name,
            namespace: NAMESPACE,
            annotations: {
              "metacontroller.k8s.io/last-applied-configuration": JSON.stringify({
                apiVersion,
                kind,
                metadata: { name },
              }),
            },
          },
          ...(kind === "Deployment" ? { status: { readyReplicas: 1 } } : {}),
        },
      };
    }
    return map;
  });

/** Values of related objects, YAML anchors and aliases (`&`, `*`) included: an override config.yaml may carry any of them. */
const relatedValue = fc.string({ maxLength: 12, unit: fc.constantFrom(..."abcxyz019 :-_./{}[]#!|>'\"\n*&".split("")) });

const related = fc
  .array(
    fc.tuple(
      fc.constantFrom("Secret.v1", "ConfigMap.v1"),
      fc.constantFrom("creds-a", "creds-b", "pg-creds", "my-config", "custom-ca"),
      fc.dictionary(fc.constantFrom("token", "key", "url", "dsn", "config.yaml", "ca-bundle.crt"), relatedValue, {
        maxKeys: 2,
      }),
    ),
    { maxLength: 3 },
  )
  .map((entries) => {
    const map: Record<string, Record<string, Obj>> = { "Secret.v1": {}, "ConfigMap.v1": {} };
    for (const [key, name, values] of entries) {
      const kind = key.slice(0, key.indexOf("."));
      const data =
        kind === "Secret"
          ? Object.fromEntries(Object.entries(values).map(([k, v]) => [k, Buffer.from(v).toString("base64")]))
          : values;
      map[key]![`${NAMESPACE}/${name}`] = { apiVersion: "v1", kind, metadata: { name, namespace: NAMESPACE }, data };
    }
    return map;
  });

/** A parent with a schema-valid (not necessarily semantically valid) spec, or a valid one. */
const parent = fc.oneof(
  fc.tuple(aV1alpha2Object, dns).map(([o, name]) => parentOf(o, name)),
  fc.tuple(aValidSpec, dns).map(([spec, name]) => ({
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: { name, namespace: NAMESPACE, uid: "uid-1", generation: 1 },
    spec,
  })),
);

export const aSyncRequest: fc.Arbitrary<Obj> = fc.record(
  { parent, children: observed, related, finalizing: fc.boolean() },
  { requiredKeys: ["parent"] },
);

export const aCustomizeRequest: fc.Arbitrary<Obj> = parent.map((p) => ({ parent: p }));

export const anAdmissionReview: fc.Arbitrary<Obj> = fc
  .tuple(
    parent,
    fc.constantFrom("CREATE", "UPDATE", "DELETE", "CONNECT"),
    fc.uuid(),
    fc.option(parent, { nil: undefined }),
  )
  .map(([object, operation, uid, old]) => ({
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid,
      operation,
      name: (object.metadata as Obj).name,
      namespace: NAMESPACE,
      kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
      resource: { group: "llamastack.io", version: "v1alpha2", resource: "llamastackdistributions" },
      object,
      ...(old === undefined ? {} : { oldObject: old }),
    },
  }));

export const aConversionReview: fc.Arbitrary<Obj> = fc
  .tuple(
    fc.array(fc.oneof(aV1alpha1Object, aV1alpha2Object), { maxLength: 3 }),
    fc.constantFrom("llamastack.io/v1alpha1", "llamastack.io/v1alpha2"),
    fc.uuid(),
    fc.constantFrom("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1"),
  )
  .map(([objects, desiredAPIVersion, uid, apiVersion]) => ({
    apiVersion,
    kind: "ConversionReview",
    request: { uid, desiredAPIVersion, objects },
  }));

// ---------------------------------------------------------------------------------------------
// Mutations

/** A JSON value that is awkward for code that walks objects. */
const nasty: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, 0, -1, 1e308, -0, "", "\u0000", "\ud800", "../../etc/passwd", "${env.X}", "1e309", []),
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant(
    JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}') as unknown,
  ),
  fc.integer({ min: 100, max: 127 }).map((depth) => JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`) as unknown),
  fc.integer({ min: 1000, max: 20_000 }).map((n) => "x".repeat(n)),
  fc.integer({ min: 50, max: 400 }).map((n) => Array.from({ length: n }, (_, i) => i)),
);

export type Mutation =
  | { readonly kind: "none" }
  | { readonly kind: "delete"; readonly pick: number }
  | { readonly kind: "replace"; readonly pick: number; readonly value: unknown }
  | { readonly kind: "add"; readonly pick: number; readonly key: string; readonly value: unknown }
  | { readonly kind: "truncate"; readonly at: number }
  | { readonly kind: "flip"; readonly at: number; readonly char: string }
  | { readonly kind: "insert"; readonly at: number; readonly text: string }
  | { readonly kind: "deep"; readonly depth: number }
  | { readonly kind: "wrap"; readonly how: "array" | "string" | "number" | "null" | "empty" };

export const aMutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.constant({ kind: "none" as const }), weight: 2 },
  { arbitrary: fc.nat().map((pick) => ({ kind: "delete" as const, pick })), weight: 3 },
  {
    arbitrary: fc.tuple(fc.nat(), nasty).map(([pick, value]) => ({ kind: "replace" as const, pick, value })),
    weight: 5,
  },
  {
    arbitrary: fc
      .tuple(fc.nat(), fc.constantFrom("__proto__", "constructor", "prototype", "x", "", "spec", "data", "kind"), nasty)
      .map(([pick, key, value]) => ({ kind: "add" as const, pick, key, value })),
    weight: 2,
  },
  { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ kind: "truncate" as const, at })), weight: 1 },
  {
    arbitrary: fc
      .tuple(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom("{", "}", "[", "]", '"', ",", ":", "\\", "\u0000", "é", "0"),
      )
      .map(([at, char]) => ({ kind: "flip" as const, at, char })),
    weight: 1,
  },
  {
    arbitrary: fc
      .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.string({ maxLength: 6 }))
      .map(([at, text]) => ({ kind: "insert" as const, at, text })),
    weight: 1,
  },
  { arbitrary: fc.integer({ min: 129, max: 5000 }).map((depth) => ({ kind: "deep" as const, depth })), weight: 1 },
  {
    arbitrary: fc
      .constantFrom("array", "string", "number", "null", "empty")
      .map((how) => ({ kind: "wrap" as const, how: how as "array" })),
    weight: 1,
  },
);

/** Every object and array of `root` with a way to reach it, in a fixed order. */
function containers(root: unknown): { holder: Obj | unknown[]; key: string | number }[] {
  const out: { holder: Obj | unknown[]; key: string | number }[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value))
      value.forEach((v, i) => {
        out.push({ holder: value, key: i });
        walk(v);
      });
    else if (typeof value === "object" && value !== null)
      for (const [k, v] of Object.entries(value)) {
        out.push({ holder: value as Obj, key: k });
        walk(v);
      }
  };
  walk(root);
  return out;
}

/** The body text for `seed` after `mutation` (seed is copied, never changed). */
export function mutate(seed: unknown, mutation: Mutation): string {
  const copy = JSON.parse(JSON.stringify(seed)) as unknown;
  const text = (): string => JSON.stringify(copy);
  const at = (fraction: number, length: number): number => Math.min(length, Math.floor(fraction * length));
  const slots = containers(copy);
  const slot = (pick: number) => slots[pick % Math.max(1, slots.length)];
  switch (mutation.kind) {
    case "none":
      return text();
    case "delete": {
      const s = slot(mutation.pick);
      if (s === undefined) return text();
      if (Array.isArray(s.holder)) s.holder.splice(s.key as number, 1);
      else delete s.holder[s.key as string];
      return text();
    }
    case "replace": {
      const s = slot(mutation.pick);
      if (s === undefined) return JSON.stringify(mutation.value);
      (s.holder as Record<string | number, unknown>)[s.key] = mutation.value;
      return text();
    }
    case "add": {
      const s = slot(mutation.pick);
      const target = s === undefined ? copy : (s.holder as Record<string | number, unknown>)[s.key];
      if (typeof target !== "object" || target === null || Array.isArray(target)) return text();
      // Written into the text so `__proto__` arrives as a real key, as JSON.parse reads it.
      const body = text();
      const json = JSON.stringify(target);
      const extended =
        json === "{}"
          ? `{${JSON.stringify(mutation.key)}:${JSON.stringify(mutation.value) ?? "null"}}`
          : `{${JSON.stringify(mutation.key)}:${JSON.stringify(mutation.value) ?? "null"},${json.slice(1)}`;
      return body.replace(json, extended);
    }
    case "truncate": {
      const body = text();
      return body.slice(0, at(mutation.at, body.length));
    }
    case "flip": {
      const body = text();
      const i = at(mutation.at, body.length - 1);
      return body.slice(0, i) + mutation.char + body.slice(i + 1);
    }
    case "insert": {
      const body = text();
      const i = at(mutation.at, body.length);
      return body.slice(0, i) + mutation.text + body.slice(i);
    }
    case "deep": {
      const body = text();
      return body.replace(/\{/, `{"deep":${"[".repeat(mutation.depth)}${"]".repeat(mutation.depth)},`);
    }
    case "wrap":
      switch (mutation.how) {
        case "array":
          return `[${text()}]`;
        case "string":
          return JSON.stringify(text());
        case "number":
          return "42";
        case "null":
          return "null";
        case "empty":
          return "";
      }
  }
}
