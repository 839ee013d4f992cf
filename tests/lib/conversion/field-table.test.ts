/**
 * The v1alpha1 → v1alpha2 field table (docs/migrating-from-go-operator.md), written out here rather
 * than read from lib/conversion/table.ts: each v1alpha1 field lands where the table says,
 * leaves nothing behind in the annotation (which is `{}`, the mark of the version the object
 * was written in), and comes back.
 */
import { V1ALPHA1_FIELDS, V1ALPHA2_FIELDS } from "../../../lib/conversion/annotations";
import type { Schema } from "../../../lib/api/schema-parts";
import { schemaAt, V1ALPHA1_BODY, V1ALPHA2_BODY } from "../../../lib/conversion/schemas";
import { FIELD_TABLE } from "../../../lib/conversion/table";
import { fromHub, toHub } from "../../../lib/conversion/v1alpha1";
import { aV1, aV2, at, kept, ok } from "./builders";
import { v1alpha1Errors, v1alpha2Errors } from "./object-schemas";

const ENV = [
  { name: "OLLAMA_URL", value: "http://ollama:11434/v1" },
  { name: "KEY", valueFrom: { secretKeyRef: { name: "s", key: "k" } } },
];
const VOLUME = [{ name: "cache", emptyDir: {} }];
const MOUNT = [{ name: "cache", mountPath: "/cache" }];
const TSC = [
  {
    maxSkew: 1,
    topologyKey: "topology.kubernetes.io/zone",
    whenUnsatisfiable: "ScheduleAnyway",
    labelSelector: { matchLabels: { app: "x" } },
  },
];

const TABLE: [v1alpha1: string, v1alpha2: string, value: unknown][] = [
  ["spec.server.distribution", "spec.distribution", { image: "quay.io/acme/llama:1.2" }],
  ["spec.server.containerSpec.port", "spec.networking.port", 9000],
  [
    "spec.server.containerSpec.resources",
    "spec.workload.resources",
    { requests: { cpu: "1", memory: "2Gi" }, limits: { "nvidia.com/gpu": 1 } },
  ],
  ["spec.server.containerSpec.env", "spec.workload.overrides.env", ENV],
  ["spec.server.containerSpec.command", "spec.workload.overrides.command", ["llama", "stack", "run"]],
  ["spec.server.containerSpec.args", "spec.workload.overrides.args", ["--port", "9000"]],
  ["spec.server.userConfig", "spec.overrideConfig", { configMapName: "my-config" }],
  ["spec.server.storage", "spec.workload.storage", { size: "20Gi", mountPath: "/home/lls/.lls" }],
  ["spec.server.storage", "spec.workload.storage", {}],
  [
    "spec.server.tlsConfig.caBundle",
    "spec.networking.tls.caBundle",
    { configMapName: "ca", configMapKeys: ["a.crt", "b.crt"] },
  ],
  [
    "spec.server.autoscaling",
    "spec.workload.autoscaling",
    { minReplicas: 2, maxReplicas: 10, targetCPUUtilizationPercentage: 75, targetMemoryUtilizationPercentage: 60 },
  ],
  ["spec.server.workers", "spec.workload.workers", 4],
  ["spec.server.podDisruptionBudget", "spec.workload.podDisruptionBudget", { minAvailable: "50%" }],
  ["spec.server.topologySpreadConstraints", "spec.workload.topologySpreadConstraints", TSC],
  ["spec.server.podOverrides.serviceAccountName", "spec.workload.overrides.serviceAccountName", "llsd-sa"],
  [
    "spec.server.podOverrides.terminationGracePeriodSeconds",
    "spec.workload.overrides.terminationGracePeriodSeconds",
    0,
  ],
  ["spec.server.podOverrides.volumes", "spec.workload.overrides.volumes", VOLUME],
  ["spec.server.podOverrides.volumeMounts", "spec.workload.overrides.volumeMounts", MOUNT],
  ["spec.replicas", "spec.workload.replicas", 3],
  ["spec.replicas", "spec.workload.replicas", 0],
  ["spec.network.exposeRoute", "spec.networking.expose", true],
  ["spec.network.exposeRoute", "spec.networking.expose", false],
  [
    "spec.network.allowedFrom",
    "spec.networking.allowedFrom",
    { namespaces: ["monitoring", "*"], labels: ["llamastack.io/client"] },
  ],
  ["status.phase", "status.phase", "Ready"],
  [
    "status.conditions",
    "status.conditions",
    [
      {
        type: "DeploymentReady",
        status: "True",
        reason: "DeploymentReady",
        message: "Deployment is ready",
        lastTransitionTime: "2025-01-02T03:04:05Z",
      },
    ],
  ],
  [
    "status.version",
    "status.version",
    { operatorVersion: "v0.9.0", llamaStackServerVersion: "0.7.1", lastUpdated: "2025-01-02T03:04:05Z" },
  ],
  [
    "status.distributionConfig",
    "status.distributionConfig",
    {
      activeDistribution: "starter",
      providers: [
        {
          api: "inference",
          provider_id: "ollama",
          provider_type: "remote::ollama",
          config: { base_url: "http://ollama:11434/v1" },
          health: { status: "OK", message: "" },
        },
      ],
      availableDistributions: { starter: "docker.io/llamastack/distribution-starter:0.7.1" },
    },
  ],
  ["status.availableReplicas", "status.availableReplicas", 2],
  ["status.serviceURL", "status.serviceURL", "http://my-llsd-service.team-a.svc.cluster.local:8321"],
  ["status.routeURL", "status.routeURL", "https://llsd.example.com"],
  ["status.observedGeneration", "status.observedGeneration", 4],
];

describe("the v1alpha1 → v1alpha2 field table", () => {
  it.each(TABLE)("%s lands at %s (%j)", (from, to, value) => {
    const v1 = aV1({ [from]: value });
    expect(v1alpha1Errors(v1)).toEqual([]);

    const hub = ok(toHub(v1));

    expect(at(hub, to)).toStrictEqual(value);
    expect(kept(hub, V1ALPHA1_FIELDS)).toStrictEqual({});
    expect(v1alpha2Errors(hub)).toEqual([]);
    expect(ok(fromHub(hub))).toStrictEqual(v1);
  });

  it.each(TABLE)("%s comes from %s (%j)", (v1Path, v2Path, value) => {
    const v2 = aV2({ [v2Path]: value });

    const spoke = ok(fromHub(v2));

    expect(at(spoke, v1Path)).toStrictEqual(value);
    expect(kept(spoke, V1ALPHA2_FIELDS)).toStrictEqual({});
    expect(v1alpha1Errors(spoke)).toEqual([]);
  });

  it("moves containerSpec and podOverrides together into one workload.overrides", () => {
    const v1 = aV1({
      "spec.server.containerSpec": { env: ENV, command: ["run"] },
      "spec.server.podOverrides": { serviceAccountName: "sa", volumes: VOLUME },
    });

    expect(at(ok(toHub(v1)), "spec.workload.overrides")).toStrictEqual({
      env: ENV,
      command: ["run"],
      serviceAccountName: "sa",
      volumes: VOLUME,
    });
  });

  it("invents no defaults: absent fields stay absent (no port, no replicas, no networking)", () => {
    const hub = ok(toHub(aV1()));

    expect(hub.spec).toStrictEqual({ distribution: { name: "starter" } });
    expect(hub.metadata).toStrictEqual({ ...(aV1().metadata as object), annotations: { [V1ALPHA1_FIELDS]: "{}" } });
    expect(hub).not.toHaveProperty("status");
  });

  it("keeps an empty status as an empty status", () => {
    expect(ok(toHub(aV1({}, { status: {} }))).status).toStrictEqual({});
    expect(ok(fromHub(aV2({}, { status: {} }))).status).toStrictEqual({});
  });
});

/** Fields of `schema` that no row moves, walking into objects that hold rows. */
function unmoved(schema: Schema, rows: readonly string[], path = ""): string[] {
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (rows.includes(path)) return [];
  if (!properties || !rows.some((row) => row.startsWith(`${path}.`) || path === "")) return [path];
  return Object.entries(properties).flatMap(([key, sub]) => unmoved(sub, rows, path === "" ? key : `${path}.${key}`));
}

describe("lib/conversion/table.ts", () => {
  it("names fields that exist in each version's schema, and no row sits inside another", () => {
    for (const { v1alpha1, v1alpha2 } of FIELD_TABLE) {
      expect([v1alpha1, schemaAt(V1ALPHA1_BODY, v1alpha1.split("."))]).toEqual([v1alpha1, expect.any(Object)]);
      expect([v1alpha2, schemaAt(V1ALPHA2_BODY, v1alpha2.split("."))]).toEqual([v1alpha2, expect.any(Object)]);
    }
    for (const side of ["v1alpha1", "v1alpha2"] as const) {
      const paths = FIELD_TABLE.map((row) => row[side]);
      expect(paths.filter((p) => paths.some((q) => p.startsWith(`${q}.`)))).toEqual([]);
    }
  });

  it("moves every v1alpha1 field but the container name", () => {
    expect(
      unmoved(
        V1ALPHA1_BODY,
        FIELD_TABLE.map((row) => row.v1alpha1),
      ),
    ).toEqual(["spec.server.containerSpec.name"]);
  });

  it("moves every v1alpha2 field but those v1alpha1 has no words for", () => {
    expect(
      unmoved(
        V1ALPHA2_BODY,
        FIELD_TABLE.map((row) => row.v1alpha2),
      ),
    ).toEqual([
      "spec.providers",
      "spec.resources",
      "spec.storage",
      "spec.disabled",
      "spec.replace",
      "spec.registryRefreshIntervalSeconds",
      "spec.networking.tls.enabled",
      "spec.networking.tls.secretName",
      "spec.networking.policy",
      "spec.workload.resourceClaims",
      "spec.workload.overrides.priorityClassName",
      "spec.externalProviders",
      "spec.baseConfig",
      "spec.monitoring",
      "spec.auth",
      "status.configGeneration",
      "status.resolvedDistribution",
      "status.externalProviders",
      "status.notes",
    ]);
  });
});
