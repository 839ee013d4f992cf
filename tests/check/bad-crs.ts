/**
 * The broken CRs every voice must refuse alike (tests/check/one-voice.test.ts): one row per class
 * of rule, each naming the fields it must report, in order, and a fragment of the first message.
 */
export const starter = { distribution: { name: "starter" } };
/** 60 characters: the apiserver takes it, its children's names would not fit. */
const LONG_NAME = "a".repeat(60);
export const vllm = { provider: "vllm", endpoint: "http://vllm:8000" };

export type Json = { readonly [k: string]: unknown };

export const object = (spec: object, name = "demo"): Json => ({
  apiVersion: "llamastack.io/v1alpha2",
  kind: "LlamaStackDistribution",
  metadata: { name },
  spec,
});

/** [title, spec, the fields reported, in order, and a fragment of the first message] */
const BAD_SPECS: [string, object, string[], RegExp][] = [
  // Issue 46's three settings, which every voice called valid while the server ignored or refused them.
  [
    "vLLM settings with a fractional max_tokens and an unknown key (config class)",
    { ...starter, providers: { inference: { ...vllm, settings: { max_tokens: 0.5, bogus_key: 1 } } } },
    ["spec.providers.inference.settings.max_tokens", "spec.providers.inference.settings.bogus_key"],
    /remote::vllm on the 1.3 line takes an integer here, not 0.5/,
  ],
  [
    "S3 files settings with an unknown key and a number for the region (config class)",
    { ...starter, providers: { files: { provider: "s3", settings: { bucket_name: "b", bogus: 1, region: 5.5 } } } },
    ["spec.providers.files.settings.bogus", "spec.providers.files.settings.region"],
    /unknown key "bogus" for remote::s3 on the 1.3 line/,
  ],
  [
    "responses settings with a fractional threshold and an unknown key (config class)",
    {
      ...starter,
      providers: {
        responses: {
          provider: "builtin",
          settings: { compaction_config: { default_compact_threshold: 0.8 }, max_tool_calls: "lots" },
        },
      },
    },
    [
      "spec.providers.responses.settings.compaction_config.default_compact_threshold",
      "spec.providers.responses.settings.max_tool_calls",
    ],
    /inline::builtin on the 1.3 line takes an integer or null here, not 0.8/,
  ],
  ["an unknown field (schema)", { ...starter, bogus: 1 }, ["spec"], /unknown field "bogus"/],
  [
    "a value of the wrong type (schema)",
    { ...starter, providers: { inference: { provider: "vllm", endpoint: 3 } } },
    ["spec.providers.inference.endpoint"],
    /must be string/,
  ],
  [
    "an unknown distribution (semantic)",
    { distribution: { name: "rh-dev" } },
    ["spec.distribution.name"],
    /Unknown distribution "rh-dev"/,
  ],
  [
    "a provider the servers removed (provider type)",
    { ...starter, providers: { inference: { provider: "tgi", endpoint: "http://tgi:8080" } } },
    ["spec.providers.inference.provider"],
    /remote::tgi does not exist/,
  ],
  [
    "a misspelled provider (provider type)",
    { ...starter, providers: { inference: { provider: "vlm", endpoint: "http://x:8000" } } },
    ["spec.providers.inference.provider"],
    /did you mean "vllm"\?/,
  ],
  [
    "a misspelled field (schema)",
    { ...starter, resource: { models: ["llama3"] } },
    ["spec"],
    /unknown field "resource"; did you mean "resources"\?/,
  ],
  [
    "a misspelled distribution (semantic)",
    { distribution: { name: "startr" } },
    ["spec.distribution.name"],
    /Unknown distribution "startr": did you mean "starter"\?/,
  ],
  [
    "a model on a misspelled provider id (generation)",
    { ...starter, providers: { inference: vllm }, resources: { models: [{ name: "m", provider: "vlm" }] } },
    ["spec.resources.models[0].provider"],
    /not an inference provider: did you mean "vllm"\?/,
  ],
  [
    "a provider name no type of the line matches (provider type)",
    { ...starter, providers: { inference: { provider: "vllm-openai", endpoint: "http://x:8000" } } },
    ["spec.providers.inference.provider"],
    /unknown inference provider "vllm-openai" on 1.3.x servers; the closest are "openai", "vllm"/,
  ],
  [
    "a provider named like an Object property (fuzz regression)",
    { ...starter, providers: { inference: { provider: "constructor", endpoint: "http://x:8000" } } },
    ["spec.providers.inference.provider"],
    /unknown inference provider "constructor"/,
  ],
  [
    "a misspelled vector store",
    { ...starter, providers: { vectorIo: { provider: "fiass" } } },
    ["spec.providers.vectorIo.provider"],
    /did you mean "faiss"\?/,
  ],
  [
    "a model on an unknown provider (generation)",
    { ...starter, providers: { inference: vllm }, resources: { models: [{ name: "m", provider: "nope" }] } },
    ["spec.resources.models[0].provider"],
    /names provider "nope", which is not an inference provider/,
  ],
  [
    "a tool without its provider (generation)",
    { ...starter, disabled: ["responses", "toolRuntime"], resources: { tools: ["websearch"] } },
    ["spec.resources.tools[0]"],
    /toolRuntime provider that serves "websearch"/,
  ],
  [
    "overrideConfig beside providers (semantic)",
    { ...starter, overrideConfig: { configMapName: "cfg" }, providers: { inference: vllm } },
    ["spec.providers"],
    /mutually exclusive/,
  ],
  [
    "replicas above the autoscaler's maximum (semantic)",
    { ...starter, workload: { replicas: 5, autoscaling: { maxReplicas: 2 } } },
    // Two pods at most, and the starter's own config keeps its state inside each (docs/scaling.md).
    ["spec.workload.replicas", "spec.workload.autoscaling.maxReplicas"],
    /maxReplicas/,
  ],
  [
    "every class at once",
    {
      distribution: { name: "rh-dev" },
      providers: { inference: [{ provider: "tgi" }, { provider: "vllm" }] },
      workload: { replicas: 5, autoscaling: { maxReplicas: 2 } },
    },
    [
      "spec.distribution.name",
      "spec.providers.inference[0].id",
      "spec.providers.inference[1].id",
      "spec.workload.replicas",
      "spec.providers.inference[0].provider",
    ],
    /Unknown distribution/,
  ],
  [
    "semantic and generation problems together",
    {
      ...starter,
      providers: {
        inference: [
          { provider: "vllm", endpoint: "http://a:8000" },
          { provider: "ollama", endpoint: "http://b:11434" },
        ],
      },
      resources: { models: [{ name: "m", provider: "nope" }] },
    },
    ["spec.providers.inference[0].id", "spec.providers.inference[1].id", "spec.resources.models[0].provider"],
    /unique id/,
  ],
  [
    "a type error beside four rule errors, the first hour's file (issue 41: the type error hid the others)",
    {
      ...starter,
      providers: { inference: { id: "vllm-primary", provider: "vllm", endpoint: "vllm:8000" } },
      resources: { models: [{ name: "llama3", provider: "vllm-primery" }] },
      workload: {
        replicas: "2",
        autoscaling: { minReplicas: 3, maxReplicas: 2 },
        podDisruptionBudget: { minAvailable: 1, maxUnavailable: 1 },
      },
    },
    [
      "spec.workload.replicas",
      "spec.providers.inference.endpoint",
      "spec.workload.autoscaling.maxReplicas",
      "spec.workload.podDisruptionBudget",
      "spec.resources.models[0].provider",
    ],
    /must be integer/,
  ],
  [
    "a removed provider with a model on it (one cause, one message)",
    {
      ...starter,
      providers: { inference: { provider: "remote::tgi", endpoint: "http://tgi:8080" } },
      resources: { models: ["llama3"] },
    },
    ["spec.providers.inference.provider"],
    /remote::tgi does not exist/,
  ],
  // Issue 48: identity that cannot be forged.
  [
    "upstreamHeader on an exposed server, with no gateway named (semantic)",
    { ...starter, auth: { upstreamHeader: { principalHeader: "x-auth-user" } }, networking: { expose: true } },
    ["spec.networking.expose", "spec.networking.allowedFrom"],
    /believes the x-auth-user header without any check.*expose the gateway that sets the headers, not the server/,
  ],
  [
    "upstreamHeader with the NetworkPolicy off (semantic)",
    {
      ...starter,
      auth: { upstreamHeader: { principalHeader: "x-auth-user" } },
      networking: { policy: { enabled: false }, allowedFrom: { namespaces: ["gateway"] } },
    },
    ["spec.networking.policy.enabled"],
    /every pod of the cluster reaches it/,
  ],
  [
    "an http introspection URL, which receives the client secret (semantic)",
    {
      ...starter,
      auth: {
        oidc: { introspection: { url: "http://idp/introspect", clientId: "c", clientSecret: { name: "s", key: "k" } } },
      },
    },
    ["spec.auth.oidc.introspection.url"],
    /plain http: every caller's token and the client secret would cross the network unencrypted/,
  ],
];

export interface BadObject {
  readonly title: string;
  /** The CR as written in the file. */
  readonly cr: Json;
  /** The fields reported, in order. */
  readonly paths: string[];
  /** A fragment of the first message. */
  readonly first: RegExp;
  /** Fields the apiserver refuses before any hook sees the object (docs/cli.md says which). */
  readonly apiserverOnly?: string[];
}

export const BAD_OBJECTS: BadObject[] = [
  ...BAD_SPECS.map(([title, spec, paths, first]) => ({ title, cr: object(spec), paths, first })),
  {
    title: "a name too long for its children",
    cr: object(starter, LONG_NAME),
    paths: ["metadata.name"],
    first: /at most 55 characters/,
  },
  {
    title: "a long name and an unknown field",
    cr: object({ ...starter, bogus: 1 }, LONG_NAME),
    paths: ["metadata.name", "spec"],
    first: /at most 55 characters/,
  },
  {
    title: "a v1alpha1 CR with a long name and an unknown field",
    cr: {
      apiVersion: "llamastack.io/v1alpha1",
      kind: "LlamaStackDistribution",
      metadata: { name: LONG_NAME },
      spec: { replica: 1, server: { distribution: { name: "starter" } } },
    },
    paths: ["metadata.name", "spec"],
    first: /at most 55 characters/,
    // kubectl's strict field validation (the default) refuses the field; pruning would drop it.
    apiserverOnly: ["spec"],
  },
];
