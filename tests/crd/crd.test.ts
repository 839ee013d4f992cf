/**
 * The CRD (issue: CRD + CEL): generated from lib/api, committed, structural, both versions with
 * their columns, conversion through the hooks' webhook.
 */
import { readFileSync } from "node:fs";
import { CustomResourceDefinition } from "kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition";
import { buildCrd, crdYaml } from "../../lib/crd/generate";
import {
  INT_OR_STRING,
  PRESERVE_UNKNOWN,
  structuralProblems,
  toStructural,
  VALIDATIONS,
  type JsonSchemaProps,
} from "../../lib/crd/structural";
import { CRD_PATH, committedCrd, versionSchema } from "./crd-helpers";

const crd = buildCrd();
type Props = { readonly [k: string]: JsonSchemaProps };

/** The schema node at a dotted path (`spec.server.distribution`); `[*]` steps into items. */
function at(schema: JsonSchemaProps, path: string): JsonSchemaProps {
  let node: JsonSchemaProps | undefined = schema;
  for (const step of path.split(".")) {
    const [name, ...items] = step.split("[*]");
    if (name) node = (node?.properties as Props | undefined)?.[name];
    for (let i = 1; i < items.length + 1; i += 1) node = node?.items as JsonSchemaProps | undefined;
    if (node === undefined) throw new Error(`no schema node at ${path}`);
  }
  return node;
}

/** Every node of a schema with its path. */
function nodes(schema: JsonSchemaProps, path = ""): [string, JsonSchemaProps][] {
  const props = Object.entries((schema.properties ?? {}) as Props);
  return [
    [path, schema],
    ...props.flatMap(([k, s]) => nodes(s, path === "" ? k : `${path}.${k}`)),
    ...(typeof schema.items === "object" ? nodes(schema.items as JsonSchemaProps, `${path}[*]`) : []),
    ...(typeof schema.additionalProperties === "object"
      ? nodes(schema.additionalProperties as JsonSchemaProps, `${path}{*}`)
      : []),
  ];
}

describe("crds/llamastackdistributions.llamastack.io.yaml", () => {
  it("is what `npm run gen:crds` writes (regenerate when this fails)", () => {
    expect(readFileSync(CRD_PATH, "utf8")).toBe(crdYaml());
    expect(committedCrd()).toEqual(JSON.parse(JSON.stringify(crd)));
  });

  it("is a CustomResourceDefinition the Kubernetes schema accepts", () => {
    expect(() => new CustomResourceDefinition(committedCrd() as never).validate()).not.toThrow();
  });

  it("names the resource like the Go operator did", () => {
    expect(crd.metadata.name).toBe("llamastackdistributions.llamastack.io");
    expect(crd.spec.group).toBe("llamastack.io");
    expect(crd.spec.scope).toBe("Namespaced");
    expect(crd.spec.names).toEqual({
      kind: "LlamaStackDistribution",
      listKind: "LlamaStackDistributionList",
      plural: "llamastackdistributions",
      singular: "llamastackdistribution",
      shortNames: ["llsd"],
    });
  });

  it("converts through the hooks' /convert webhook, with cert-manager injecting the CA", () => {
    expect(crd.spec.conversion).toEqual({
      strategy: "Webhook",
      webhook: {
        conversionReviewVersions: ["v1"],
        clientConfig: { service: { name: "llsd-hooks", namespace: "llsd-hooks", path: "/convert", port: 8443 } },
      },
    });
    expect(crd.metadata.annotations).toEqual({ "cert-manager.io/inject-ca-from": "llsd-hooks/llsd-hooks-tls" });
  });

  it("serves v1alpha1 and v1alpha2, stores v1alpha2, both with the status subresource", () => {
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage, v.subresources])).toEqual([
      ["v1alpha1", true, false, { status: {} }],
      ["v1alpha2", true, true, { status: {} }],
    ]);
  });

  it.each(["v1alpha1", "v1alpha2"])("%s has a structural schema", (version) => {
    const schema = versionSchema(crd, version);
    expect(structuralProblems(schema)).toEqual([]);
    expect(schema.required).toEqual(["spec"]);
    const kinds = nodes(schema).map(([, n]) => n);
    expect(kinds.some((n) => n.additionalProperties === false)).toBe(false);
    expect(kinds.some((n) => n.oneOf !== undefined)).toBe(false);
  });

  it.each(["v1alpha1", "v1alpha2"])("%s status accepts observedGeneration (Metacontroller writes it)", (version) => {
    expect(at(versionSchema(crd, version), "status.observedGeneration").type).toBe("integer");
  });
});

describe("printer columns", () => {
  const columns = (version: string) =>
    crd.spec.versions
      .find((v) => v.name === version)!
      .additionalPrinterColumns.map(({ name, type, jsonPath, priority }) => ({
        name,
        type,
        jsonPath,
        ...(priority === undefined ? {} : { priority }),
      }));

  it("v1alpha1: the Go operator's", () => {
    expect(columns("v1alpha1")).toEqual([
      { name: "Phase", type: "string", jsonPath: ".status.phase" },
      { name: "Operator Version", type: "string", jsonPath: ".status.version.operatorVersion" },
      { name: "Server Version", type: "string", jsonPath: ".status.version.llamaStackServerVersion" },
      { name: "Available", type: "integer", jsonPath: ".status.availableReplicas" },
      { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
    ]);
  });

  it("v1alpha2: Phase, Distribution and Config (wide), Providers, Available, Age", () => {
    expect(columns("v1alpha2")).toEqual([
      { name: "Phase", type: "string", jsonPath: ".status.phase" },
      { name: "Distribution", type: "string", jsonPath: ".status.resolvedDistribution.image", priority: 1 },
      { name: "Config", type: "string", jsonPath: ".status.configGeneration.configMapName", priority: 1 },
      { name: "Providers", type: "integer", jsonPath: ".status.configGeneration.providerCount" },
      { name: "Available", type: "integer", jsonPath: ".status.availableReplicas" },
      { name: "Age", type: "date", jsonPath: ".metadata.creationTimestamp" },
    ]);
  });

  it.each(["v1alpha1", "v1alpha2"])(
    "%s: every status column points at a status field of the column's type",
    (version) => {
      for (const c of columns(version).filter((col) => col.jsonPath.startsWith(".status."))) {
        expect({ column: c.name, type: at(versionSchema(crd, version), c.jsonPath.slice(1)).type }).toEqual({
          column: c.name,
          type: c.type,
        });
      }
    },
  );
});

describe("the v1alpha1 schema", () => {
  const schema = versionSchema(crd, "v1alpha1");

  it("has every field of the Go operator's spec and status", () => {
    const fields = [
      "spec.replicas",
      "spec.server.distribution.name",
      "spec.server.distribution.image",
      "spec.server.containerSpec.name",
      "spec.server.containerSpec.port",
      "spec.server.containerSpec.resources.limits",
      "spec.server.containerSpec.resources.requests",
      "spec.server.containerSpec.resources.claims",
      "spec.server.containerSpec.env",
      "spec.server.containerSpec.command",
      "spec.server.containerSpec.args",
      "spec.server.workers",
      "spec.server.podOverrides.serviceAccountName",
      "spec.server.podOverrides.terminationGracePeriodSeconds",
      "spec.server.podOverrides.volumes",
      "spec.server.podOverrides.volumeMounts",
      "spec.server.podDisruptionBudget.minAvailable",
      "spec.server.podDisruptionBudget.maxUnavailable",
      "spec.server.topologySpreadConstraints",
      "spec.server.autoscaling.minReplicas",
      "spec.server.autoscaling.maxReplicas",
      "spec.server.autoscaling.targetCPUUtilizationPercentage",
      "spec.server.autoscaling.targetMemoryUtilizationPercentage",
      "spec.server.storage.size",
      "spec.server.storage.mountPath",
      "spec.server.userConfig.configMapName",
      "spec.server.userConfig.configMapNamespace",
      "spec.server.tlsConfig.caBundle.configMapName",
      "spec.server.tlsConfig.caBundle.configMapNamespace",
      "spec.server.tlsConfig.caBundle.configMapKeys",
      "spec.network.exposeRoute",
      "spec.network.allowedFrom.namespaces",
      "spec.network.allowedFrom.labels",
      "status.phase",
      "status.version.operatorVersion",
      "status.version.llamaStackServerVersion",
      "status.version.lastUpdated",
      "status.distributionConfig.activeDistribution",
      "status.distributionConfig.providers[*].api",
      "status.distributionConfig.providers[*].provider_id",
      "status.distributionConfig.providers[*].provider_type",
      "status.distributionConfig.providers[*].config",
      "status.distributionConfig.providers[*].health.status",
      "status.distributionConfig.providers[*].health.message",
      "status.distributionConfig.availableDistributions",
      "status.conditions[*].type",
      "status.conditions[*].status",
      "status.conditions[*].reason",
      "status.conditions[*].message",
      "status.conditions[*].lastTransitionTime",
      "status.conditions[*].observedGeneration",
      "status.availableReplicas",
      "status.serviceURL",
      "status.routeURL",
    ];
    for (const f of fields) expect(() => at(schema, f)).not.toThrow();
  });

  it("keeps the Go operator's requirements, defaults and markers", () => {
    expect(at(schema, "spec").required).toEqual(["server"]);
    expect(at(schema, "spec.server").required).toEqual(["distribution"]);
    expect(at(schema, "spec.server.autoscaling").required).toEqual(["maxReplicas"]);
    expect(at(schema, "spec.server.userConfig").required).toEqual(["configMapName"]);
    expect(at(schema, "spec.replicas").default).toBe(1);
    expect(at(schema, "spec.network.exposeRoute").default).toBe(false);
    expect(at(schema, "spec.server.containerSpec.name").default).toBe("llama-stack");
    expect(at(schema, "spec.server.workers").minimum).toBe(1);
    expect(at(schema, "spec.server.tlsConfig.caBundle.configMapKeys").maxItems).toBe(50);
    expect(at(schema, "spec.server.podDisruptionBudget.minAvailable")[INT_OR_STRING]).toBe(true);
    expect(at(schema, "spec.server.storage.size")[INT_OR_STRING]).toBe(true);
    expect(at(schema, "status.phase").enum).toEqual(["Pending", "Initializing", "Ready", "Failed", "Terminating"]);
    expect(at(schema, "status.distributionConfig.providers[*].config")[PRESERVE_UNKNOWN]).toBe(true);
    expect(at(schema, "spec.server.distribution")[VALIDATIONS]).toEqual([
      { rule: "!(has(self.name) && has(self.image))", message: "Only one of name or image can be specified" },
    ]);
  });
});

describe("the v1alpha2 schema", () => {
  const schema = versionSchema(crd, "v1alpha2");

  it("describes every field (kubectl explain); only metadata, owned by the apiserver, has none", () => {
    const undescribed = nodes(schema)
      .filter(([path]) => path !== "" && !path.endsWith("[*]") && !path.endsWith("{*}") && !path.includes("anyOf"))
      .filter(([path, n]) => path !== "metadata" && (typeof n.description !== "string" || n.description.trim() === ""))
      .map(([path]) => path);
    expect(undescribed).toEqual([]);
  });

  it("keeps polymorphic fields as written (preserve-unknown, untyped)", () => {
    for (const path of [
      "spec.providers.inference",
      "spec.providers.safety",
      "spec.providers.vectorIo",
      "spec.providers.toolRuntime",
      "spec.providers.telemetry",
      "spec.resources.models[*]",
      "spec.networking.expose",
    ]) {
      const node = at(schema, path);
      expect({ path, type: node.type, preserve: node[PRESERVE_UNKNOWN] }).toEqual({
        path,
        type: undefined,
        preserve: true,
      });
    }
  });

  it("renders int-or-string fields the one way the apiserver allows", () => {
    for (const path of [
      "spec.workload.podDisruptionBudget.minAvailable",
      "spec.workload.podDisruptionBudget.maxUnavailable",
      "spec.workload.storage.size",
    ]) {
      const node = at(schema, path);
      expect(node[INT_OR_STRING]).toBe(true);
      expect(node.anyOf).toEqual([{ type: "integer" }, { type: "string" }]);
      expect(node.type).toBeUndefined();
    }
    expect(new RegExp(at(schema, "spec.workload.storage.size").pattern as string).test("10Gi")).toBe(true);
    expect((at(schema, "spec.workload.resources.limits").additionalProperties as JsonSchemaProps)[INT_OR_STRING]).toBe(
      true,
    );
  });

  it("types Secret references with both forms, so rules on storage can name them", () => {
    const ref = at(schema, "spec.storage.sql.connectionString");
    expect(ref.type).toBe("object");
    expect(Object.keys(ref.properties as Props).sort()).toEqual(["key", "name", "secretKeyRef"]);
    expect(at(schema, "spec.storage.sql.connectionString.secretKeyRef").required).toEqual(["name", "key"]);
  });

  it("keeps enums, defaults and bounds", () => {
    expect(at(schema, "spec").required).toEqual(["distribution"]);
    expect(at(schema, "spec.storage.kv.type")).toMatchObject({
      enum: ["sqlite", "redis", "postgres"],
      default: "sqlite",
    });
    expect(at(schema, "spec.storage.sql.type")).toMatchObject({ enum: ["sqlite", "postgres"], default: "sqlite" });
    expect(at(schema, "spec.networking.port")).toMatchObject({ default: 8321, minimum: 1, maximum: 65535 });
    expect(at(schema, "spec.workload.autoscaling.targetCPUUtilizationPercentage")).toMatchObject({
      minimum: 1,
      maximum: 100,
    });
    expect(at(schema, "status.conditions[*].lastTransitionTime").format).toBe("date-time");
  });

  it("makes workload.resourceClaims a list-map keyed by name, as pod.spec.resourceClaims is", () => {
    expect(at(schema, "spec.workload.resourceClaims")).toMatchObject({
      "x-kubernetes-list-type": "map",
      "x-kubernetes-list-map-keys": ["name"],
      maxItems: 32,
    });
    expect(at(schema, "spec.workload.resourceClaims[*]").required).toEqual(["name"]);
    expect(at(schema, "spec.workload.resources.claims[*]").required).toEqual(["name"]);
  });
});

describe("toStructural", () => {
  it("drops additionalProperties: false and keeps map schemas", () => {
    expect(
      toStructural(
        { type: "object", description: "d", properties: { a: { type: "string" } }, additionalProperties: false },
        "x",
      ),
    ).toEqual({ type: "object", description: "d", properties: { a: { type: "string" } } });
    expect(toStructural({ type: "object", additionalProperties: { type: "string" } }, "x")).toEqual({
      type: "object",
      additionalProperties: { type: "string" },
    });
  });

  it("moves the branches' checks of an int-or-string up, out of anyOf", () => {
    expect(
      toStructural(
        {
          description: "q",
          anyOf: [
            { type: "integer", minimum: 0 },
            { type: "string", pattern: "^a$" },
          ],
          "x-int-or-string": true,
        },
        "x",
      ),
    ).toEqual({
      description: "q",
      anyOf: [{ type: "integer" }, { type: "string" }],
      [INT_OR_STRING]: true,
      minimum: 0,
      pattern: "^a$",
    });
  });

  it("turns a union of different types into an untyped preserve-unknown node", () => {
    expect(
      toStructural({ description: "b", oneOf: [{ type: "boolean" }, { type: "object", properties: {} }] }, "x"),
    ).toEqual({ description: "b", [PRESERVE_UNKNOWN]: true });
    // Objects that share a field cannot be merged either.
    const a = { type: "object", properties: { n: { type: "string" } }, additionalProperties: false };
    expect(toStructural({ description: "o", oneOf: [a, a] }, "x")).toEqual({
      description: "o",
      [PRESERVE_UNKNOWN]: true,
    });
  });

  it("merges a union of closed objects with disjoint fields and adds the form rules", () => {
    const out = toStructural(
      {
        description: "r",
        oneOf: [
          {
            type: "object",
            properties: { a: { type: "string" }, b: { type: "string" } },
            required: ["a", "b"],
            additionalProperties: false,
          },
          { type: "object", properties: { c: { type: "string" } }, required: ["c"], additionalProperties: false },
          { type: "object", properties: { d: { type: "string" } }, additionalProperties: false },
        ],
      },
      "x",
    );
    expect(out).toEqual({
      type: "object",
      description: "r",
      properties: { a: { type: "string" }, b: { type: "string" }, c: { type: "string" }, d: { type: "string" } },
      [VALIDATIONS]: [
        {
          rule: "[(has(self.a) || has(self.b)), (has(self.c)), (has(self.d))].filter(x, x).size() == 1",
          message: "set exactly one form: a and b, or c, or d",
        },
        {
          rule: "!(has(self.a) || has(self.b)) || (has(self.a) && has(self.b))",
          message: "a and b must be set together",
        },
      ],
    });
  });

  it("refuses what it cannot convert, loudly", () => {
    expect(() => toStructural({ const: "x" }, "at.here")).toThrow(
      'at.here: JSON Schema keyword "const" has no structural form',
    );
    expect(() => toStructural({ type: "array" }, "a")).toThrow("a: an array needs an items schema");
    expect(() => toStructural({ description: "no type" }, "n")).toThrow("n: a node needs a type");
    expect(() =>
      toStructural({ type: "object", properties: {}, additionalProperties: { type: "string" } }, "m"),
    ).toThrow("m: properties and an additionalProperties schema cannot both be structural");
  });
});

describe("structuralProblems", () => {
  it("reports what the apiserver would refuse", () => {
    expect(
      structuralProblems({
        type: "object",
        properties: {
          metadata: { type: "object", description: "mine" },
          a: { description: "untyped" },
          b: { anyOf: [{ type: "string" }, { type: "integer" }] },
          c: { type: "object", properties: {}, additionalProperties: { type: "string" } },
          d: { [PRESERVE_UNKNOWN]: true, [VALIDATIONS]: [{ rule: "true", message: "m" }] },
          e: {
            type: "object",
            properties: { f: { type: "string" } },
            [VALIDATIONS]: [{ rule: "true", message: "m", fieldPath: ".g" }],
          },
          g: {
            type: "array",
            items: { type: "object", properties: { n: { type: "string" }, o: { type: "object" } }, required: ["o"] },
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["n", "o", "p"],
          },
        },
      }),
    ).toEqual([
      "openAPIV3Schema.properties.a: type is required (or x-kubernetes-int-or-string / x-kubernetes-preserve-unknown-fields)",
      "openAPIV3Schema.properties.b: type is required (or x-kubernetes-int-or-string / x-kubernetes-preserve-unknown-fields)",
      'openAPIV3Schema.properties.b.anyOf[0]: "type" is not allowed inside anyOf/oneOf/allOf/not',
      'openAPIV3Schema.properties.b.anyOf[1]: "type" is not allowed inside anyOf/oneOf/allOf/not',
      "openAPIV3Schema.properties.c: properties and additionalProperties are mutually exclusive",
      "openAPIV3Schema.properties.d: rules need a typed node (the apiserver gives an untyped node no CEL type)",
      'openAPIV3Schema.properties.e.x-kubernetes-validations[0]: fieldPath ".g" does not name a field of this node',
      'openAPIV3Schema.properties.g: list-map key "n" must be a scalar field every item has',
      'openAPIV3Schema.properties.g: list-map key "o" must be a scalar field every item has',
      'openAPIV3Schema.properties.g: list-map key "p" must be a scalar field every item has',
      "openAPIV3Schema.properties.metadata: the root metadata schema must be exactly {type: object}",
    ]);
  });
});
