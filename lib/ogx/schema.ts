/**
 * A model of the OGXServer v1beta1 API (`ogx.io/v1beta1`), written here from the peer's Go types
 * and kubebuilder markers (ogx-ai/ogx-k8s-operator api/v1beta1/ogxserver_types.go at commit
 * 1784464, v0.14.0), CEL rules included: `ogxServerProblems` says what the peer's apiserver
 * would refuse, with lib/crd/check.ts (ajv for the structure, @bufbuild/cel for the rules). This
 * project installs no `ogx.io` CRD: the model exists for `llsd convert` and its tests.
 * Kubernetes types the peer embeds (env, volumes, NetworkPolicy rules…) are checked for their
 * required fields only.
 */
import { celFailures, structuralErrors } from "../crd/check";
import { PROVIDERS } from "./schema-providers";
import { NETWORK, rule, TLS, WORKLOAD } from "./schema-platform";
import type { OgxSection } from "./types";
import {
  bool,
  freeJson,
  int32,
  keyRef,
  list,
  nonEmptyStr,
  notEmptyRule,
  obj,
  port,
  str,
  type Node,
} from "./schema-parts";

export const OGX_GROUP = "ogx.io";
export const OGX_API_VERSION = "ogx.io/v1beta1";
export const OGX_KIND = "OGXServer";

/** `disabledAPIs` items (`+kubebuilder:validation:items:Enum`). */
export const OGX_DISABLED_APIS = [
  "batches",
  "file_processors",
  "inference",
  "responses",
  "tool_runtime",
  "vector_io",
  "files",
] as const;
/** `spec.providers` sections and the API name `disabledAPIs` uses for each. */
export const OGX_PROVIDER_SECTIONS = {
  inference: "inference",
  vectorIo: "vector_io",
  toolRuntime: "tool_runtime",
  files: "files",
  batches: "batches",
  responses: "responses",
  fileProcessors: "file_processors",
} as const;

/** The sections in the peer's order. */
export const OGX_SECTIONS: readonly OgxSection[] = [
  "inference",
  "vectorIo",
  "toolRuntime",
  "files",
  "batches",
  "responses",
  "fileProcessors",
];

const exclusive = (field: string): Node =>
  rule(`!has(self.overrideConfig) || !has(self.${field})`, `overrideConfig and ${field} are mutually exclusive`);
const notBothDisabled = ([section, api]: [string, string]): Node =>
  rule(
    `!has(self.providers) || !has(self.disabledAPIs) || !self.disabledAPIs.exists(d, d == '${api}') || !has(self.providers.${section})`,
    `${api} cannot be both in providers and disabledAPIs`,
  );

const MODEL = obj(
  { name: nonEmptyStr, provider: str(), contextLength: { type: "integer" }, modelType: str(), quantization: str() },
  { required: ["name"], rules: ["provider", "modelType", "quantization"].map(notEmptyRule) },
);

const STORAGE = obj({
  kv: obj(
    { type: str({ enum: ["sqlite", "redis"], default: "sqlite" }), endpoint: str(), password: keyRef },
    {
      rules: [
        rule("self.type != 'redis' || has(self.endpoint)", "endpoint is required when type is redis"),
        rule("!has(self.endpoint) || self.type == 'redis'", "endpoint is only valid when type is redis"),
        rule("!has(self.password) || self.type == 'redis'", "password is only valid when type is redis"),
      ],
    },
  ),
  sql: obj(
    { type: str({ enum: ["sqlite", "postgres"], default: "sqlite" }), connectionString: keyRef },
    {
      rules: [
        rule(
          "self.type != 'postgres' || has(self.connectionString)",
          "connectionString is required when type is postgres",
        ),
        rule(
          "!has(self.connectionString) || self.type == 'postgres'",
          "connectionString is only valid when type is postgres",
        ),
      ],
    },
  ),
});

export const OGX_SPEC_SCHEMA: Node = obj(
  {
    distribution: obj(
      { name: str(), image: str() },
      {
        rules: [
          rule("!(has(self.name) && has(self.image))", "only one of name or image can be specified"),
          rule("has(self.name) || has(self.image)", "one of name or image must be specified"),
        ],
      },
    ),
    providers: PROVIDERS,
    resources: obj({ models: list(MODEL) }),
    storage: STORAGE,
    disabledAPIs: { type: "array", minItems: 1, maxItems: 7, items: str({ enum: [...OGX_DISABLED_APIS] }) },
    registryRefreshIntervalSeconds: int32({ minimum: 1 }),
    network: NETWORK,
    tls: TLS,
    workload: WORKLOAD,
    monitoring: obj({ enabled: { ...bool, default: true }, metricsPort: port }),
    baseConfig: keyRef,
    overrideConfig: keyRef,
  },
  {
    required: ["distribution"],
    rules: [
      ...["providers", "resources", "storage", "disabledAPIs", "baseConfig"].map(exclusive),
      ...Object.entries(OGX_PROVIDER_SECTIONS).map(notBothDisabled),
    ],
  },
);

/** The whole object, as the CRD's `openAPIV3Schema` (status kept free: it is the peer's to write). */
export const OGX_OBJECT_SCHEMA: Node = obj({
  apiVersion: str(),
  kind: str(),
  metadata: { type: "object" },
  spec: OGX_SPEC_SCHEMA,
  status: { type: "object", ...freeJson },
});

/** What the peer's apiserver would refuse in `object`: structure first, then every CEL rule (`path: message`). */
export function ogxServerProblems(object: unknown): string[] {
  const structural = structuralErrors(OGX_OBJECT_SCHEMA, object);
  if (structural.length > 0) return structural;
  return celFailures(OGX_OBJECT_SCHEMA, object).failures.map(
    (f) => `${f.path}: ${f.message}${f.error ? ` (${f.error})` : ""}`,
  );
}
