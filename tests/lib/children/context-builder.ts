/**
 * ChildContext builders for the child tests: a v1alpha2 spec goes through the real
 * `normalize()`, the sync pipeline's decisions (image, config, env) are given directly.
 * Every call returns fresh objects.
 */
import { normalize } from "../../../lib/api/normalize";
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import type { ChildContext, MountedConfig } from "../../../lib/children/context";
import type { DerivedPostgres, SplitDsn } from "../../../lib/config/postgres-stores";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
export type ContextOverrides = Partial<Mutable<Omit<ChildContext, "spec">>> & {
  spec?: Partial<Mutable<LlsdSpecV1alpha2>>;
};

export const NAME = "demo";
export const NAMESPACE = "team-a";
export const HOOKS_NAMESPACE = "llsd-hooks";
export const IMAGE = "docker.io/llamastack/distribution-starter@sha256:" + "a".repeat(64);
export const HASH = "0123456789abcdef".repeat(4);

/** Secret values planted in the full context: no child but the postgres Secret may carry them. */
/** The derived Secret's DSNs as the sync hook splits them; by default each the SQL store's (prefix ""). */
export function derivedPostgres(
  secretName: string,
  dsns: readonly { parts: SplitDsn["parts"]; prefix?: SplitDsn["prefix"]; path?: string; key?: string }[],
): DerivedPostgres {
  return {
    secretName,
    dsns: dsns.map((d) => ({
      secret: { name: "pg", key: d.key ?? "dsn", path: d.path ?? "spec.storage.sql.connectionString" },
      prefix: d.prefix ?? "",
      parts: d.parts,
    })),
  };
}

export const POSTGRES_PARTS = {
  host: "pg-7f3a.db.svc",
  port: "57341",
  db: "db-7f3a",
  user: "user-7f3a",
  password: "pw-7f3a:S3cr3t@/#",
};

export function aGeneratedConfig(overrides: Partial<Mutable<MountedConfig>> = {}): MountedConfig {
  return {
    source: "generated",
    configMapName: `${NAME}-config-${HASH.slice(0, 10)}`,
    hash: HASH,
    configYaml: "version: 2\nimage_name: starter\n",
    ...overrides,
  };
}

export function aContext(overrides: ContextOverrides = {}): ChildContext {
  const { spec, ...rest } = structuredClone(overrides);
  return {
    name: NAME,
    namespace: NAMESPACE,
    spec: normalize({ distribution: { name: "starter" }, ...spec }),
    image: IMAGE,
    release: "1.3",
    secretEnv: [],
    plainEnv: [],
    hooksNamespace: HOOKS_NAMESPACE,
    exposeWith: "ingress",
    ...rest,
  };
}

/** A spec that switches on every child and every optional field the builders read. */
export function aFullSpec(): Partial<Mutable<LlsdSpecV1alpha2>> {
  return {
    networking: {
      port: 9000,
      expose: { enabled: true, hostname: "llama.apps.example.com" },
      tls: { enabled: true, secretName: "demo-tls" },
      allowedFrom: { namespaces: ["frontend", "batch"], labels: ["team.example.com/ai"] },
    },
    workload: {
      replicas: 3,
      workers: 4,
      resources: { requests: { memory: "8Gi" }, limits: { memory: "16Gi" } },
      autoscaling: {
        minReplicas: 2,
        maxReplicas: 6,
        targetCPUUtilizationPercentage: 70,
        targetMemoryUtilizationPercentage: 85,
      },
      storage: { size: "50Gi", mountPath: "/data" },
      podDisruptionBudget: { minAvailable: 2 },
      topologySpreadConstraints: [
        {
          maxSkew: 2,
          topologyKey: "topology.kubernetes.io/zone",
          whenUnsatisfiable: "DoNotSchedule",
          labelSelector: { matchLabels: { app: "llama-stack" } },
        },
      ],
      overrides: {
        serviceAccountName: "llama-sa",
        terminationGracePeriodSeconds: 60,
        env: [
          { name: "LLS_WORKERS", value: "8" },
          { name: "EXTRA", value: "1" },
        ],
        command: ["/usr/local/bin/ogx-entrypoint.sh"],
        args: ["--log-level", "debug"],
        volumes: [{ name: "models", persistentVolumeClaim: { claimName: "shared-models" } }],
        volumeMounts: [{ name: "models", mountPath: "/models", readOnly: true }],
      },
    },
  };
}

export function aFullContext(overrides: ContextOverrides = {}): ChildContext {
  return aContext({
    spec: aFullSpec(),
    config: aGeneratedConfig(),
    secretEnv: [
      {
        name: "LLSD_VLLM_API_KEY",
        secretName: "vllm-creds",
        secretKey: "token",
        path: "spec.providers.inference.apiKey",
      },
      ...(["host", "port", "db", "user", "password"] as const).map((part) => ({
        name: `LLSD_STORAGE_SQL_${part.toUpperCase()}`,
        secretName: `${NAME}-postgres`,
        secretKey: part,
        path: "spec.storage.sql.connectionString",
      })),
    ],
    plainEnv: [
      { name: "OTEL_EXPORTER_OTLP_ENDPOINT", value: "http://otel.observability:4318" },
      { name: "OTEL_SERVICE_NAME", value: NAME },
    ],
    postgres: derivedPostgres(`${NAME}-postgres`, [{ parts: { ...POSTGRES_PARTS } }]),
    ...overrides,
  });
}
