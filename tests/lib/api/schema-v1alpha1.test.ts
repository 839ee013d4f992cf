import Ajv, { type ErrorObject } from "ajv";
import addFormats from "ajv-formats";
import { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "../../../lib/api/schema-v1alpha1";
import type { Schema } from "../../../lib/api/schema-parts";
import type { LlsdSpecV1alpha1, LlsdStatusV1alpha1 } from "../../../lib/api/v1alpha1";

function newAjv(options: { useDefaults?: boolean } = {}): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    keywords: ["x-int-or-string", "x-preserve-unknown"],
    ...options,
  });
  addFormats(ajv);
  return ajv;
}

const ajv = newAjv();
const validateSpec = ajv.compile(V1ALPHA1_SPEC_SCHEMA);
const validateStatus = ajv.compile(V1ALPHA1_STATUS_SCHEMA);

/** Distinct instancePaths of the errors, so a test can pin exactly where ajv complains. */
function errorPaths(errors: readonly ErrorObject[] | null | undefined): string[] {
  return [...new Set((errors ?? []).map((e) => e.instancePath))];
}

/** The Go operator's samples (config/samples), spec only. */
const kitchenSink: LlsdSpecV1alpha1 = {
  replicas: 1,
  server: {
    containerSpec: {
      env: [
        { name: "OLLAMA_INFERENCE_MODEL", value: "llama3.2:1b" },
        { name: "OLLAMA_URL", value: "http://ollama-server-service.ollama-dist.svc.cluster.local:11434/v1" },
      ],
      name: "llama-stack",
    },
    distribution: { name: "starter" },
    workers: 2,
    podDisruptionBudget: { maxUnavailable: 1 },
    topologySpreadConstraints: [
      {
        maxSkew: 1,
        topologyKey: "topology.kubernetes.io/zone",
        whenUnsatisfiable: "ScheduleAnyway",
        labelSelector: { matchLabels: { "app.kubernetes.io/instance": "llamastackdistribution-sample" } },
      },
    ],
    autoscaling: {
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 75,
      targetMemoryUtilizationPercentage: 70,
    },
    storage: { size: "20Gi", mountPath: "/home/lls/.lls" },
  },
};

const userConfigSample: LlsdSpecV1alpha1 = {
  replicas: 1,
  server: {
    distribution: { name: "starter" },
    containerSpec: {
      port: 8321,
      env: [{ name: "OLLAMA_URL", value: "http://ollama-server-service.ollama-dist.svc.cluster.local:11434/v1" }],
    },
    userConfig: { configMapName: "llama-stack-config" },
  },
};

const caBundleSample: LlsdSpecV1alpha1 = {
  replicas: 1,
  server: {
    distribution: { name: "starter" },
    containerSpec: {
      port: 8321,
      env: [
        { name: "INFERENCE_MODEL", value: "meta-llama/Llama-3.2-1B-Instruct" },
        { name: "VLLM_URL", value: "https://vllm-server.vllm-dist.svc.cluster.local:8000/v1" },
      ],
    },
    userConfig: { configMapName: "llama-stack-config" },
    tlsConfig: { caBundle: { configMapName: "custom-ca-bundle" } },
  },
};

const networkSample: LlsdSpecV1alpha1 = {
  server: { distribution: { name: "starter" } },
  network: {
    exposeRoute: false,
    allowedFrom: { namespaces: ["nsA", "nsB"], labels: ["myproject/lls-allowed", "team/authorized"] },
  },
};

const publicSample: LlsdSpecV1alpha1 = {
  server: { distribution: { name: "starter" } },
  network: { exposeRoute: true, allowedFrom: { namespaces: ["*"] } },
};

describe("V1ALPHA1_SPEC_SCHEMA", () => {
  it.each<[string, unknown]>([
    ["kitchen-sink sample", kitchenSink],
    ["userConfig sample", userConfigSample],
    ["CA bundle sample", caBundleSample],
    ["network sample", networkSample],
    ["public exposeRoute sample", publicSample],
    ["minimal image distribution", { server: { distribution: { image: "quay.io/acme/lls:1.0" } } }],
    ["empty distribution (CEL and controller decide)", { server: { distribution: {} } }],
    [
      "every optional field",
      {
        replicas: 2,
        server: {
          distribution: { name: "starter" },
          containerSpec: {
            name: "server",
            port: 9000,
            resources: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: 2 } },
            env: [{ name: "TOKEN", valueFrom: { secretKeyRef: { name: "s", key: "k" } } }],
            command: ["python"],
            args: ["-m", "llama_stack.core.server.server"],
          },
          podOverrides: {
            serviceAccountName: "custom-sa",
            terminationGracePeriodSeconds: 0,
            volumes: [{ name: "extra", emptyDir: {} }],
            volumeMounts: [{ name: "extra", mountPath: "/extra" }],
          },
          podDisruptionBudget: { minAvailable: "50%" },
          storage: {},
          tlsConfig: {
            caBundle: { configMapName: "ca", configMapNamespace: "certs", configMapKeys: ["a.crt", "b.crt"] },
          },
          userConfig: { configMapName: "cfg", configMapNamespace: "other" },
        },
        network: { allowedFrom: {} },
      },
    ],
  ])("accepts %s", (_name, spec) => {
    expect(validateSpec(spec)).toBe(true);
    expect(validateSpec.errors).toBeNull();
  });

  it.each<[string, unknown, string, string]>([
    ["missing server", { replicas: 1 }, "", "required"],
    ["missing distribution", { server: { workers: 1 } }, "/server", "required"],
    [
      "unknown top-level field",
      { server: { distribution: { name: "starter" } }, replica: 1 },
      "",
      "additionalProperties",
    ],
    [
      "unknown nested field",
      { server: { distribution: { name: "starter", version: "1" } } },
      "/server/distribution",
      "additionalProperties",
    ],
    ["workers 0", { server: { distribution: { name: "starter" }, workers: 0 } }, "/server/workers", "minimum"],
    [
      "autoscaling without maxReplicas",
      { server: { distribution: { name: "starter" }, autoscaling: { minReplicas: 1 } } },
      "/server/autoscaling",
      "required",
    ],
    [
      "configMapKeys with 51 items",
      {
        server: {
          distribution: { name: "starter" },
          tlsConfig: {
            caBundle: { configMapName: "ca", configMapKeys: Array.from({ length: 51 }, (_, i) => `k${i}.crt`) },
          },
        },
      },
      "/server/tlsConfig/caBundle/configMapKeys",
      "maxItems",
    ],
    [
      "caBundle without configMapName",
      { server: { distribution: { name: "starter" }, tlsConfig: { caBundle: {} } } },
      "/server/tlsConfig/caBundle",
      "required",
    ],
    [
      "userConfig without configMapName",
      { server: { distribution: { name: "starter" }, userConfig: { configMapNamespace: "x" } } },
      "/server/userConfig",
      "required",
    ],
    ["replicas as a string", { replicas: "2", server: { distribution: { name: "starter" } } }, "/replicas", "type"],
    ["replicas fractional", { replicas: 1.5, server: { distribution: { name: "starter" } } }, "/replicas", "type"],
    ["distribution name not a string", { server: { distribution: { name: 7 } } }, "/server/distribution/name", "type"],
    [
      "port as a string",
      { server: { distribution: { name: "starter" }, containerSpec: { port: "8321" } } },
      "/server/containerSpec/port",
      "type",
    ],
    [
      "env not a list",
      { server: { distribution: { name: "starter" }, containerSpec: { env: { A: "b" } } } },
      "/server/containerSpec/env",
      "type",
    ],
    [
      "exposeRoute as a string",
      { server: { distribution: { name: "starter" } }, network: { exposeRoute: "true" } },
      "/network/exposeRoute",
      "type",
    ],
    [
      "allowedFrom namespaces not strings",
      { server: { distribution: { name: "starter" } }, network: { allowedFrom: { namespaces: [1] } } },
      "/network/allowedFrom/namespaces/0",
      "type",
    ],
    [
      "maxUnavailable as a boolean",
      { server: { distribution: { name: "starter" }, podDisruptionBudget: { maxUnavailable: true } } },
      "/server/podDisruptionBudget/maxUnavailable",
      "anyOf",
    ],
    [
      "bad storage quantity",
      { server: { distribution: { name: "starter" }, storage: { size: "20 GiB" } } },
      "/server/storage/size",
      "anyOf",
    ],
    [
      "bad resource quantity",
      { server: { distribution: { name: "starter" }, containerSpec: { resources: { limits: { memory: "lots" } } } } },
      "/server/containerSpec/resources/limits/memory",
      "anyOf",
    ],
  ])("rejects %s at %j", (_name, spec, instancePath, keyword) => {
    expect(validateSpec(spec)).toBe(false);
    expect(errorPaths(validateSpec.errors)).toEqual([instancePath]);
    expect(validateSpec.errors?.map((e) => e.keyword)).toContain(keyword);
  });

  it("fills the kubebuilder defaults and nothing else", () => {
    const validate = newAjv({ useDefaults: true }).compile(V1ALPHA1_SPEC_SCHEMA);
    const spec = { server: { distribution: { name: "starter" }, containerSpec: {}, storage: {} }, network: {} };
    expect(validate(spec)).toBe(true);
    expect(spec).toEqual({
      replicas: 1,
      server: { distribution: { name: "starter" }, containerSpec: { name: "llama-stack" }, storage: {} },
      network: { exposeRoute: false },
    });
  });
});

describe("V1ALPHA1_STATUS_SCHEMA", () => {
  const status: LlsdStatusV1alpha1 = {
    phase: "Ready",
    version: { operatorVersion: "0.1.0", llamaStackServerVersion: "0.2.23", lastUpdated: "2026-04-15T10:00:00Z" },
    distributionConfig: {
      activeDistribution: "starter",
      providers: [
        {
          api: "inference",
          provider_id: "ollama",
          provider_type: "remote::ollama",
          config: { url: "http://ollama:11434", nested: { any: ["thing"] } },
          health: { status: "OK", message: "" },
        },
      ],
      availableDistributions: { starter: "docker.io/llamastack/distribution-starter:latest" },
    },
    conditions: [
      {
        type: "DeploymentReady",
        status: "True",
        reason: "DeploymentReady",
        message: "Deployment is ready",
        lastTransitionTime: "2026-04-15T10:00:00Z",
        observedGeneration: 3,
      },
    ],
    availableReplicas: 1,
    serviceURL: "http://sample-service.default.svc.cluster.local:8321",
    routeURL: "",
    observedGeneration: 3,
  };

  it.each<[string, unknown]>([
    ["a full status", status],
    ["an empty status", {}],
    ["the Terminating phase", { phase: "Terminating" }],
  ])("accepts %s", (_name, value) => {
    expect(validateStatus(value)).toBe(true);
  });

  const provider = status.distributionConfig?.providers?.[0];
  const condition = status.conditions?.[0];

  it.each<[string, unknown, string, string]>([
    ["an unknown phase", { phase: "Running" }, "/phase", "enum"],
    ["a non-date lastUpdated", { version: { lastUpdated: "yesterday" } }, "/version/lastUpdated", "format"],
    [
      "a provider without health",
      { distributionConfig: { providers: [{ ...provider, health: undefined }] } },
      "/distributionConfig/providers/0",
      "required",
    ],
    [
      "a non-string available distribution",
      { distributionConfig: { availableDistributions: { starter: 1 } } },
      "/distributionConfig/availableDistributions/starter",
      "type",
    ],
    [
      "a condition with a bad status",
      { conditions: [{ ...condition, status: "Yes" }] },
      "/conditions/0/status",
      "enum",
    ],
    ["a condition without reason", { conditions: [{ ...condition, reason: undefined }] }, "/conditions/0", "required"],
    ["an unknown status field", { ready: true }, "", "additionalProperties"],
    ["a string observedGeneration", { observedGeneration: "3" }, "/observedGeneration", "type"],
  ])("rejects %s", (_name, value, instancePath, keyword) => {
    // JSON round trip drops the `undefined` fields used above to delete required keys.
    expect(validateStatus(JSON.parse(JSON.stringify(value)))).toBe(false);
    expect(errorPaths(validateStatus.errors)).toEqual([instancePath]);
    expect(validateStatus.errors?.map((e) => e.keyword)).toContain(keyword);
  });
});

/** Every schema reachable under a `properties` key, with its dotted path. */
function propertySchemas(schema: Schema, path: string): [string, Schema][] {
  const found: [string, Schema][] = [];
  const visit = (s: unknown, p: string): void => {
    if (typeof s !== "object" || s === null) return;
    const node = s as Schema;
    const properties = node["properties"] as { readonly [k: string]: Schema } | undefined;
    for (const [key, child] of Object.entries(properties ?? {})) {
      found.push([`${p}.${key}`, child]);
      visit(child, `${p}.${key}`);
    }
    visit(node["items"], `${p}[]`);
    visit(node["additionalProperties"], `${p}{}`);
    for (const branch of (node["anyOf"] as unknown[] | undefined) ?? []) visit(branch, p);
  };
  visit(schema, path);
  return found;
}

describe("descriptions", () => {
  const all = [...propertySchemas(V1ALPHA1_SPEC_SCHEMA, "spec"), ...propertySchemas(V1ALPHA1_STATUS_SCHEMA, "status")];

  it("walks the whole tree", () => {
    const paths = all.map(([p]) => p);
    expect(paths).toEqual(
      expect.arrayContaining(["spec.server.tlsConfig.caBundle.configMapKeys", "status.conditions[].reason"]),
    );
    expect(paths).toContain("status.distributionConfig.providers[].health.message");
  });

  it.each(all)("%s has a description", (_path, schema) => {
    expect(typeof schema["description"]).toBe("string");
    expect((schema["description"] as string).trim()).not.toBe("");
  });

  it("has descriptions on both roots", () => {
    expect(V1ALPHA1_SPEC_SCHEMA["description"]).toBeTruthy();
    expect(V1ALPHA1_STATUS_SCHEMA["description"]).toBeTruthy();
  });
});
