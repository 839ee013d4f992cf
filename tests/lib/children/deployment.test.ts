import type { V1Container, V1Deployment, V1PodSpec } from "@kubernetes/client-node";
import { buildDeployment } from "../../../lib/children/deployment";
import { CONFIG_PATH } from "../../../lib/defaults";
import type { Release } from "../../../lib/distributions/table";
import { CONFIG_HASH_ANNOTATION, CONTAINER_NAME, names, selectorLabels } from "../../../lib/names";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aContext, aFullContext, aGeneratedConfig, HASH, IMAGE, NAME, type ContextOverrides } from "./context-builder";
import { validateChild } from "./models";

function deploymentOf(overrides: ContextOverrides = {}): V1Deployment {
  return buildDeployment(aContext(overrides));
}
const podOf = (d: V1Deployment): V1PodSpec => d.spec!.template.spec!;
const containerOf = (d: V1Deployment): V1Container => podOf(d).containers[0]!;
const envNames = (d: V1Deployment): string[] => (containerOf(d).env ?? []).map((e) => e.name);
const envValue = (d: V1Deployment, name: string): string | undefined =>
  containerOf(d).env?.find((e) => e.name === name)?.value;

describe("buildDeployment()", () => {
  it("given a minimal context, builds one container with the image, a named port and the selector labels", () => {
    const d = deploymentOf();
    expect(d.metadata?.name).toBe(names.deployment(NAME));
    expect(d.spec?.replicas).toBe(1);
    expect(d.spec?.template.metadata?.labels).toEqual(selectorLabels(NAME));
    expect(d.spec?.template.metadata?.annotations).toBeUndefined();
    expect(podOf(d).containers).toHaveLength(1);
    expect(containerOf(d)).toMatchObject({
      name: CONTAINER_NAME,
      image: IMAGE,
      ports: [{ name: "http", containerPort: 8321, protocol: "TCP" }],
    });
    expect(containerOf(d).command).toBeUndefined();
  });

  describe("env", () => {
    it("given the full context, is in the fixed order: secrets, plain, port, workers, config path, state, then the user's", () => {
      expect(envNames(buildDeployment(aFullContext()))).toEqual([
        "LLSD_VLLM_API_KEY",
        "LLSD_STORAGE_SQL_HOST",
        "LLSD_STORAGE_SQL_PORT",
        "LLSD_STORAGE_SQL_DB",
        "LLSD_STORAGE_SQL_USER",
        "LLSD_STORAGE_SQL_PASSWORD",
        "OTEL_EXPORTER_OTLP_ENDPOINT",
        "OTEL_SERVICE_NAME",
        "OGX_PORT",
        "OGX_WORKERS",
        "RUN_CONFIG_PATH",
        "HOME",
        "OGX_CONFIG_DIR",
        "HF_HOME",
        "LLS_WORKERS",
        "EXTRA",
      ]);
    });

    it("given secret env, carries only a secretKeyRef, never a value", () => {
      const env = containerOf(buildDeployment(aFullContext())).env!.find((e) => e.name === "LLSD_VLLM_API_KEY");
      expect(env).toEqual({
        name: "LLSD_VLLM_API_KEY",
        valueFrom: { secretKeyRef: { name: "vllm-creds", key: "token" } },
      });
    });

    it.each<[string, Release, ContextOverrides, { [name: string]: string | undefined }]>([
      ["no config", "1.3", {}, { RUN_CONFIG_PATH: undefined, LLAMA_STACK_CONFIG: undefined }],
      [
        "a generated config",
        "1.3",
        { config: aGeneratedConfig() },
        { RUN_CONFIG_PATH: CONFIG_PATH, LLAMA_STACK_CONFIG: undefined },
      ],
      [
        "a generated config",
        "0.8",
        { config: aGeneratedConfig() },
        { RUN_CONFIG_PATH: CONFIG_PATH, LLAMA_STACK_CONFIG: undefined },
      ],
      [
        "a generated config",
        "0.7",
        { config: aGeneratedConfig() },
        { RUN_CONFIG_PATH: CONFIG_PATH, LLAMA_STACK_CONFIG: CONFIG_PATH },
      ],
      [
        "an override config",
        "0.7",
        { config: { source: "override", configMapName: "mine", hash: "h" } },
        { RUN_CONFIG_PATH: CONFIG_PATH, LLAMA_STACK_CONFIG: CONFIG_PATH },
      ],
    ])(
      "given %s on %s, points the variables the line reads at the mounted file",
      (_title, release, overrides, expected) => {
        const d = deploymentOf({ ...overrides, release });
        for (const [name, value] of Object.entries(expected)) expect([name, envValue(d, name)]).toEqual([name, value]);
      },
    );

    // Only what each line's launcher reads (its Containerfile and start-up code), and the state on the volume.
    it.each<[Release, object, { [name: string]: string | undefined }]>([
      [
        "1.3",
        {},
        {
          OGX_PORT: "8321",
          OGX_WORKERS: undefined,
          HOME: "/.llama",
          OGX_CONFIG_DIR: "/.llama/.ogx",
          HF_HOME: "/.llama",
        },
      ],
      ["0.8", {}, { OGX_PORT: "8321", HOME: "/.llama", OGX_CONFIG_DIR: "/.llama/.ogx", LLAMA_STACK_PORT: undefined }],
      ["0.7", {}, { LLAMA_STACK_PORT: "8321", HOME: "/", LLAMA_STACK_CONFIG_DIR: "/.llama", OGX_PORT: undefined }],
      [
        "1.3",
        { networking: { port: 9443 }, workload: { workers: 3, storage: { mountPath: "/state" } } },
        { OGX_PORT: "9443", OGX_WORKERS: "3", HOME: "/state", OGX_CONFIG_DIR: "/state/.ogx", HF_HOME: "/state" },
      ],
      [
        "0.7",
        { workload: { workers: 3, storage: { mountPath: "/state" } } },
        { HOME: "/state", LLAMA_STACK_CONFIG_DIR: "/state/.llama", OGX_WORKERS: undefined },
      ],
      ["1.3", { workload: { storage: { mountPath: "/data/.ogx/" } } }, { HOME: "/data", OGX_CONFIG_DIR: "/data/.ogx" }],
      ["1.3", {}, { LLS_WORKERS: undefined, LLS_PORT: undefined }],
    ])("on %s, given spec %j, sets %j", (release, spec, expected) => {
      const d = deploymentOf({ spec, release });
      for (const [name, value] of Object.entries(expected)) expect([name, envValue(d, name)]).toEqual([name, value]);
    });

    it("given a user entry whose name the hooks set, replaces it in place without a duplicate", () => {
      const d = deploymentOf({
        spec: {
          workload: {
            overrides: {
              env: [
                { name: "NEW_ONE", value: "a" },
                { name: "OGX_PORT", value: "1234" },
                { name: "HF_HOME", valueFrom: { fieldRef: { fieldPath: "metadata.name" } } },
              ],
            },
          },
        },
      });
      expect(envNames(d)).toEqual(["OGX_PORT", "HOME", "OGX_CONFIG_DIR", "HF_HOME", "NEW_ONE"]);
      expect(envValue(d, "OGX_PORT")).toBe("1234");
      expect(containerOf(d).env![3]).toEqual({
        name: "HF_HOME",
        valueFrom: { fieldRef: { fieldPath: "metadata.name" } },
      });
    });

    it("given a user entry that replaces a secret env var, the Secret reference is gone", () => {
      const ctx = aFullContext({
        spec: { workload: { overrides: { env: [{ name: "LLSD_VLLM_API_KEY", value: "from-user" }] } } },
      });
      const env = containerOf(buildDeployment(ctx)).env!;
      expect(env[0]).toEqual({ name: "LLSD_VLLM_API_KEY", value: "from-user" });
      expect(env.filter((e) => e.name === "LLSD_VLLM_API_KEY")).toHaveLength(1);
    });
  });

  describe("replicas and strategy", () => {
    it.each([
      ["default", {}, 1],
      ["replicas 3", { replicas: 3 }, 3],
      ["replicas 0 (scaled down)", { replicas: 0 }, 0],
      ["autoscaling (the HPA owns the count)", { replicas: 3, autoscaling: { maxReplicas: 5 } }, undefined],
    ])("given %s, replicas is %s", (_title, workload, replicas) => {
      const d = deploymentOf({ spec: { workload } });
      expect(d.spec?.replicas).toBe(replicas);
      expect(d.spec !== undefined && "replicas" in d.spec).toBe(replicas !== undefined);
    });

    it.each([
      ["storage", { storage: {} }, { type: "Recreate" }],
      ["no storage", {}, { type: "RollingUpdate", rollingUpdate: { maxSurge: "25%", maxUnavailable: "25%" } }],
    ])("given %s, the strategy is %j", (_title, workload, strategy) => {
      expect(deploymentOf({ spec: { workload } }).spec?.strategy).toEqual(strategy);
    });
  });

  describe("config", () => {
    it("given a mounted config, annotates the pod with its hash and mounts config.yaml read-only", () => {
      const d = deploymentOf({ config: aGeneratedConfig() });
      expect(d.spec?.template.metadata?.annotations).toEqual({ [CONFIG_HASH_ANNOTATION]: HASH });
      expect(podOf(d).volumes).toContainEqual({
        name: "config",
        configMap: { name: `${NAME}-config-0123456789`, items: [{ key: "config.yaml", path: "config.yaml" }] },
      });
      expect(containerOf(d).volumeMounts).toContainEqual({
        name: "config",
        mountPath: "/etc/llama-stack",
        readOnly: true,
      });
    });
  });

  describe("volumes", () => {
    it.each([
      ["no storage: an emptyDir", {}, { name: "lls-storage", emptyDir: {} }, "/.llama"],
      [
        "storage: the PVC",
        { storage: { mountPath: "/data" } },
        { name: "lls-storage", persistentVolumeClaim: { claimName: `${NAME}-pvc` } },
        "/data",
      ],
    ])("given %s", (_title, workload, volume, mountPath) => {
      const d = deploymentOf({ spec: { workload } });
      expect(podOf(d).volumes?.[0]).toEqual(volume);
      expect(containerOf(d).volumeMounts?.[0]).toEqual({ name: "lls-storage", mountPath });
    });

    it("given TLS, mounts the Secret read-only", () => {
      const d = deploymentOf({ spec: { networking: { tls: { enabled: true, secretName: "srv-tls" } } } });
      expect(podOf(d).volumes).toContainEqual({ name: "tls", secret: { secretName: "srv-tls" } });
      expect(containerOf(d).volumeMounts).toContainEqual({
        name: "tls",
        mountPath: "/etc/llama-stack/tls",
        readOnly: true,
      });
    });

    it("given user volumes and mounts, appends them after ours; a reused name or path replaces ours in place", () => {
      const d = deploymentOf({
        spec: {
          workload: {
            overrides: {
              volumes: [
                { name: "lls-storage", persistentVolumeClaim: { claimName: "existing" } },
                { name: "extra", emptyDir: {} },
              ],
              volumeMounts: [
                { name: "extra", mountPath: "/extra" },
                { name: "lls-storage", mountPath: "/.llama", subPath: "x" },
              ],
            },
          },
        },
      });
      expect(podOf(d).volumes).toEqual([
        { name: "lls-storage", persistentVolumeClaim: { claimName: "existing" } },
        { name: "extra", emptyDir: {} },
      ]);
      expect(containerOf(d).volumeMounts).toEqual([
        { name: "lls-storage", mountPath: "/.llama", subPath: "x" },
        { name: "extra", mountPath: "/extra" },
      ]);
    });
  });

  describe("probes", () => {
    it.each([
      ["plain", { enabled: false }, "HTTP"],
      ["TLS", { enabled: true, secretName: "srv-tls" }, "HTTPS"],
    ])(
      "given %s serving, startup, readiness and liveness probe /v1/health on port http over %s",
      (_title, tls, scheme) => {
        const c = containerOf(deploymentOf({ spec: { networking: { tls } } }));
        for (const probe of [c.startupProbe, c.readinessProbe, c.livenessProbe])
          expect(probe?.httpGet).toEqual({ path: "/v1/health", port: "http", scheme });
        expect(c.startupProbe!.periodSeconds! * c.startupProbe!.failureThreshold!).toBeGreaterThanOrEqual(300);
      },
    );

    /** How long a pod may stop answering before the probe acts (consecutive misses × period). */
    const window = (p: { periodSeconds?: number; failureThreshold?: number } | undefined) =>
      p!.periodSeconds! * p!.failureThreshold!;

    it("restarts only a server silent for a minute, after it left the Service; each check waits at most its period", () => {
      const c = containerOf(deploymentOf());
      expect(window(c.livenessProbe)).toBeGreaterThanOrEqual(60);
      expect(window(c.livenessProbe)).toBeGreaterThan(window(c.readinessProbe));
      expect(c.livenessProbe!.timeoutSeconds!).toBeLessThanOrEqual(c.livenessProbe!.periodSeconds!);
    });
  });

  describe("hardening", () => {
    it("runs non-root with fsGroup 1001, RuntimeDefault seccomp, no privilege escalation and no capabilities", () => {
      const d = deploymentOf();
      expect(podOf(d).securityContext).toEqual(
        expect.objectContaining({ runAsNonRoot: true, fsGroup: 1001, seccompProfile: { type: "RuntimeDefault" } }),
      );
      expect(podOf(d).securityContext?.runAsUser).not.toBe(0);
      expect(containerOf(d).securityContext).toEqual({
        allowPrivilegeEscalation: false,
        capabilities: { drop: ["ALL"] },
      });
    });

    it("turns off Service links (they would inject LLAMA_STACK_*/OGX_* look-alike variables)", () => {
      expect(podOf(deploymentOf()).enableServiceLinks).toBe(false);
    });
  });

  describe("resources", () => {
    it.each([
      ["nothing", {}, { requests: { cpu: "1", memory: "1Gi" } }],
      ["workers only", { workers: 4 }, { requests: { cpu: "4", memory: "1Gi" }, limits: { cpu: "4", memory: "1Gi" } }],
      ["a zero cpu request", { resources: { requests: { cpu: "0" } } }, { requests: { cpu: "1", memory: "1Gi" } }],
      [
        "requests given",
        { resources: { requests: { cpu: "500m", memory: "2Gi" } } },
        { requests: { cpu: "500m", memory: "2Gi" } },
      ],
      [
        "limits only (request follows the limit, never above it)",
        { resources: { limits: { cpu: "250m", memory: "512Mi" } } },
        { requests: { cpu: "250m", memory: "512Mi" }, limits: { cpu: "250m", memory: "512Mi" } },
      ],
      [
        "workers with a user limit",
        { workers: 2, resources: { limits: { memory: "4Gi" } } },
        { requests: { cpu: "2", memory: "4Gi" }, limits: { cpu: "2", memory: "4Gi" } },
      ],
      [
        "numeric quantities and a GPU",
        { resources: { requests: { cpu: 2 }, limits: { "nvidia.com/gpu": 1 } } },
        { requests: { cpu: "2", memory: "1Gi" }, limits: { "nvidia.com/gpu": "1" } },
      ],
    ])("given %s, resources are %j", (_title, workload, resources) => {
      expect(containerOf(deploymentOf({ spec: { workload } })).resources).toEqual(resources);
    });
  });

  describe("DRA claims", () => {
    const gpu = { name: "gpu", resourceClaimTemplateName: "one-gpu" };
    const nic = { name: "nic", resourceClaimName: "shared-nic" };

    it.each([
      ["a template claim", [gpu], [{ name: "gpu" }]],
      [
        "a shared claim and one request of a template claim",
        [nic, gpu],
        [{ name: "gpu", request: "big" }, { name: "nic" }],
      ],
    ])(
      "given %s, the pod holds the claims and the container uses them, as the Deployment model accepts",
      (_t, pod, used) => {
        const d = deploymentOf({ spec: { workload: { resourceClaims: pod, resources: { claims: used } } } });
        expect(podOf(d).resourceClaims).toEqual(pod);
        expect(containerOf(d).resources?.claims).toEqual(used);
        expect(() => validateChild(d as unknown as KubeObject)).not.toThrow();
      },
    );

    it("copies the claims: the answer never aliases the request", () => {
      const resourceClaims = [gpu];
      const ctx = aContext({ spec: { workload: { resourceClaims } } });
      const pod = podOf(buildDeployment(ctx));
      expect(pod.resourceClaims).toEqual(ctx.spec.workload.resourceClaims);
      expect(pod.resourceClaims).not.toBe(ctx.spec.workload.resourceClaims);
      expect(pod.resourceClaims![0]).not.toBe(ctx.spec.workload.resourceClaims![0]);
    });

    it.each([
      ["unset", {}],
      ["empty", { resourceClaims: [] }],
    ])("%s, the pod spec has no resourceClaims key", (_t, workload) => {
      expect(Object.keys(podOf(deploymentOf({ spec: { workload } })))).not.toContain("resourceClaims");
    });
  });

  describe("scheduling", () => {
    it("given one replica, adds no spread constraints and no anti-affinity", () => {
      const pod = podOf(deploymentOf());
      expect(pod.topologySpreadConstraints).toBeUndefined();
      expect(pod.affinity).toBeUndefined();
    });

    it.each([
      ["replicas 2", { replicas: 2 }],
      ["an HPA that can scale past one pod", { autoscaling: { maxReplicas: 3 } }],
    ])("given %s, spreads over region, zone and host and prefers distinct hosts", (_title, workload) => {
      const pod = podOf(deploymentOf({ spec: { workload } }));
      expect(pod.topologySpreadConstraints?.map((t) => [t.topologyKey, t.maxSkew, t.whenUnsatisfiable])).toEqual([
        ["topology.kubernetes.io/region", 1, "ScheduleAnyway"],
        ["topology.kubernetes.io/zone", 1, "ScheduleAnyway"],
        ["kubernetes.io/hostname", 1, "ScheduleAnyway"],
      ]);
      for (const t of pod.topologySpreadConstraints ?? [])
        expect(t.labelSelector?.matchLabels).toEqual(selectorLabels(NAME));
      const preferred = pod.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
      expect(preferred).toEqual([
        {
          weight: 100,
          podAffinityTerm: {
            labelSelector: { matchLabels: selectorLabels(NAME) },
            topologyKey: "kubernetes.io/hostname",
          },
        },
      ]);
    });

    it("given the user's spread constraints, uses them instead of the defaults", () => {
      const mine = [{ maxSkew: 2, topologyKey: "zone", whenUnsatisfiable: "DoNotSchedule" }];
      expect(
        podOf(deploymentOf({ spec: { workload: { replicas: 3, topologySpreadConstraints: mine } } }))
          .topologySpreadConstraints,
      ).toEqual(mine);
    });
  });

  it.each([
    [{ priorityClassName: "high" }, "high"],
    [{}, undefined],
  ])("given overrides %j, the pod's priorityClassName is %s", (overrides, expected) => {
    expect(podOf(deploymentOf({ spec: { workload: { overrides } } })).priorityClassName).toBe(expected);
  });

  it("given overrides, sets serviceAccountName, terminationGracePeriodSeconds, command and args", () => {
    const d = buildDeployment(aFullContext());
    expect(podOf(d)).toMatchObject({ serviceAccountName: "llama-sa", terminationGracePeriodSeconds: 60 });
    expect(containerOf(d)).toMatchObject({
      command: ["/usr/local/bin/ogx-entrypoint.sh"],
      args: ["--log-level", "debug"],
    });
  });
});
