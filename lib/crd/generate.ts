/**
 * The LlamaStackDistribution CRD, derived from the JSON Schemas in lib/api (fields: docs/spec-reference.md).
 * `buildCrd()` is pure; `npm run gen:crds` writes `crdYaml()` to
 * crds/llamastackdistributions.llamastack.io.yaml, and tests/crd fails when that file is stale.
 *
 * - v1alpha1: served (deprecated, with a warning), not stored; the Go operator's schema, printer
 *   columns and CEL rule. `metacontroller/crd-v1alpha2-only//` patches it to `served: false`.
 * - v1alpha2: served and stored; the schema `validate()` uses, made structural (structural.ts),
 *   plus the CEL rules of rules.ts.
 * - Conversion: the hooks' `POST /convert` on the `llsd-hooks` Service (HTTPS, port 8443), with
 *   the CA bundle injected by cert-manager from the `llsd-hooks-tls` Certificate.
 */
import { stringify } from "yaml";
import { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "../api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../api/schema-v1alpha2";
import { V1ALPHA2_STATUS_SCHEMA } from "../api/schema-status-v1alpha2";
import type { Schema } from "../api/schema-parts";
import { V1ALPHA1_RULES, V1ALPHA2_RULES, type RuleTable } from "./rules";
import { propertySchema, rulesOf, sortKeys, subschema, VALIDATIONS, type JsonSchemaProps } from "./schema-node";
import { toStructural } from "./structural";
import { structuralProblems } from "./structural-check";

export const GROUP = "llamastack.io";
export const KIND = "LlamaStackDistribution";
export const PLURAL = "llamastackdistributions";
export const CRD_NAME = `${PLURAL}.${GROUP}`;
export const CRD_FILE = `crds/${CRD_NAME}.yaml`;

/** Where the apiserver finds the webhooks: the hooks Service's TLS port (metacontroller/overlays/cert-manager). */
export const WEBHOOK_SERVICE = { name: "llsd-hooks", namespace: "llsd-hooks", port: 8443 } as const;
/** cert-manager's CA injector copies this Certificate's CA into the CRD's conversion webhook. */
export const CA_INJECTION = { "cert-manager.io/inject-ca-from": "llsd-hooks/llsd-hooks-tls" } as const;

export interface PrinterColumn {
  readonly name: string;
  readonly type: "string" | "integer" | "date";
  readonly jsonPath: string;
  readonly description: string;
  readonly priority?: number;
}

export interface CrdVersion {
  readonly name: string;
  readonly served: boolean;
  readonly storage: boolean;
  readonly deprecated?: true;
  readonly deprecationWarning?: string;
  readonly schema: { readonly openAPIV3Schema: JsonSchemaProps };
  readonly subresources: { readonly status: Record<string, never> };
  readonly additionalPrinterColumns: readonly PrinterColumn[];
}

export interface Crd {
  readonly apiVersion: "apiextensions.k8s.io/v1";
  readonly kind: "CustomResourceDefinition";
  readonly metadata: {
    readonly name: string;
    readonly annotations: { readonly [k: string]: string };
    readonly labels: { readonly [k: string]: string };
  };
  readonly spec: {
    readonly group: string;
    readonly names: {
      readonly kind: string;
      readonly listKind: string;
      readonly plural: string;
      readonly singular: string;
      readonly shortNames: readonly string[];
    };
    readonly scope: "Namespaced";
    readonly conversion: {
      readonly strategy: "Webhook";
      readonly webhook: {
        readonly conversionReviewVersions: readonly string[];
        readonly clientConfig: {
          readonly service: {
            readonly name: string;
            readonly namespace: string;
            readonly path: string;
            readonly port: number;
          };
        };
      };
    };
    readonly versions: readonly CrdVersion[];
  };
}

const AGE: PrinterColumn = {
  name: "Age",
  type: "date",
  jsonPath: ".metadata.creationTimestamp",
  description: "Time since the resource was created.",
};
const PHASE: PrinterColumn = {
  name: "Phase",
  type: "string",
  jsonPath: ".status.phase",
  description: "Lifecycle phase.",
};
const AVAILABLE: PrinterColumn = {
  name: "Available",
  type: "integer",
  jsonPath: ".status.availableReplicas",
  description: "Ready server pods.",
};

/** The Go operator's columns, in its order. */
const V1ALPHA1_COLUMNS: readonly PrinterColumn[] = [
  PHASE,
  {
    name: "Operator Version",
    type: "string",
    jsonPath: ".status.version.operatorVersion",
    description: "Version of the operator that last reconciled the resource.",
  },
  {
    name: "Server Version",
    type: "string",
    jsonPath: ".status.version.llamaStackServerVersion",
    description: "Version reported by the running server.",
  },
  AVAILABLE,
  AGE,
];

/** v1alpha2's columns; Distribution and Config only with `kubectl get -o wide`. */
const V1ALPHA2_COLUMNS: readonly PrinterColumn[] = [
  PHASE,
  {
    name: "Distribution",
    type: "string",
    jsonPath: ".status.resolvedDistribution.image",
    description: "Server image in use.",
    priority: 1,
  },
  {
    name: "Config",
    type: "string",
    jsonPath: ".status.configGeneration.configMapName",
    description: "ConfigMap holding the config.yaml in use.",
    priority: 1,
  },
  {
    name: "Providers",
    type: "integer",
    jsonPath: ".status.configGeneration.providerCount",
    description: "Providers in the generated config.yaml.",
  },
  AVAILABLE,
  AGE,
];

/** One served version: where its schema comes from, and how `kubectl get` shows it. */
interface VersionSource {
  readonly name: string;
  readonly storage: boolean;
  readonly description: string;
  readonly spec: Schema;
  readonly status: Schema;
  readonly rules: RuleTable;
  readonly columns: readonly PrinterColumn[];
  /** The warning the apiserver returns to every client request of this version (at most 256 ASCII characters). */
  readonly deprecationWarning?: string;
}

/**
 * v1alpha1 is on its way out (docs/upgrading.md#v1alpha1-on-its-way-out): every request of it gets
 * this warning, and `metacontroller/crd-v1alpha2-only/` stops serving it. The apiserver caps the text at 256 characters.
 */
export const V1ALPHA1_DEPRECATION_WARNING =
  "llamastack.io/v1alpha1 LlamaStackDistribution is deprecated; use llamastack.io/v1alpha2 (llsd migrate rewrites manifests)";

const V1ALPHA1_SOURCE: VersionSource = {
  name: "v1alpha1",
  storage: false,
  description:
    "LlamaStackDistribution (v1alpha1, the Go operator's API) runs a Llama Stack server. Served for existing clients; stored as v1alpha2.",
  spec: V1ALPHA1_SPEC_SCHEMA,
  status: V1ALPHA1_STATUS_SCHEMA,
  rules: V1ALPHA1_RULES,
  columns: V1ALPHA1_COLUMNS,
  deprecationWarning: V1ALPHA1_DEPRECATION_WARNING,
};

const V1ALPHA2_SOURCE: VersionSource = {
  name: "v1alpha2",
  storage: true,
  description:
    "LlamaStackDistribution runs a Llama Stack server: a distribution image, the config.yaml generated from providers, resources and storage, and the Kubernetes objects around it.",
  spec: V1ALPHA2_SPEC_SCHEMA,
  status: V1ALPHA2_STATUS_SCHEMA,
  rules: V1ALPHA2_RULES,
  columns: V1ALPHA2_COLUMNS,
};

function rootSchema(source: VersionSource): JsonSchemaProps {
  const version = source.name;
  const root: JsonSchemaProps = {
    type: "object",
    description: source.description,
    properties: {
      apiVersion: {
        type: "string",
        description:
          "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.",
      },
      kind: {
        type: "string",
        description:
          "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. In CamelCase.",
      },
      // The apiserver owns metadata's schema: it must be exactly {type: object}.
      metadata: { type: "object" },
      spec: toStructural(source.spec, `${version}.spec`),
      status: toStructural(source.status, `${version}.status`),
    },
    required: ["spec"],
  };
  for (const [path, list] of Object.entries(source.rules)) attachRules(root, path, list, version);
  const problems = structuralProblems(root);
  if (problems.length > 0) throw new Error(`${version} schema is not structural:\n${problems.join("\n")}`);
  return sortKeys(root);
}

function attachRules(root: JsonSchemaProps, path: string, rules: RuleTable[string], version: string): void {
  let node: JsonSchemaProps | undefined = root;
  // `list[*]`: the list's items (rules on each element of a bounded list).
  for (const name of path.split(".")) {
    const list = name.endsWith("[*]");
    node = propertySchema(node, list ? name.slice(0, -3) : name);
    if (list) node = subschema(node, "items");
  }
  if (node === undefined || node.type !== "object")
    throw new Error(`${version}: rules for ${path}, which is not a typed object field`);
  node[VALIDATIONS] = [...rulesOf(node), ...rules.map((r) => ({ ...r }))];
}

function version(source: VersionSource): CrdVersion {
  return {
    name: source.name,
    served: true,
    storage: source.storage,
    ...(source.deprecationWarning === undefined
      ? {}
      : { deprecated: true as const, deprecationWarning: source.deprecationWarning }),
    schema: { openAPIV3Schema: rootSchema(source) },
    subresources: { status: {} },
    additionalPrinterColumns: source.columns.map((c) => ({ ...c })),
  };
}

export function buildCrd(): Crd {
  return {
    apiVersion: "apiextensions.k8s.io/v1",
    kind: "CustomResourceDefinition",
    metadata: {
      name: CRD_NAME,
      annotations: { ...CA_INJECTION },
      labels: { "app.kubernetes.io/part-of": "llsd-hooks" },
    },
    spec: {
      group: GROUP,
      names: {
        kind: KIND,
        listKind: `${KIND}List`,
        plural: PLURAL,
        singular: "llamastackdistribution",
        shortNames: ["llsd"],
      },
      scope: "Namespaced",
      conversion: {
        strategy: "Webhook",
        webhook: {
          conversionReviewVersions: ["v1"],
          clientConfig: {
            service: {
              name: WEBHOOK_SERVICE.name,
              namespace: WEBHOOK_SERVICE.namespace,
              path: "/convert",
              port: WEBHOOK_SERVICE.port,
            },
          },
        },
      },
      versions: [version(V1ALPHA1_SOURCE), version(V1ALPHA2_SOURCE)],
    },
  };
}

const HEADER = [
  "# Generated by `npm run gen:crds` (scripts/gen-crds.ts, lib/crd/) from the JSON Schemas in lib/api.",
  "# Do not edit: change the schemas or lib/crd/rules.ts and regenerate; tests/crd fails when this file is stale.",
  "#",
  "# Conversion (v1alpha1 <-> v1alpha2) calls the hooks' POST /convert over HTTPS; the CA comes from",
  "# cert-manager (metacontroller/overlays/cert-manager). See crds/README.md.",
].join("\n");

/** The file `npm run gen:crds` writes: a header and the CRD as YAML (no line folding). */
export function crdYaml(crd: Crd = buildCrd()): string {
  return `${HEADER}\n${stringify(crd, { lineWidth: 0 })}`;
}
