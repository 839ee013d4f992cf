/**
 * A v1alpha1 CR, as the hooks receive it (converted to v1alpha2 by POST /convert, with the
 * llamastack.io/v1alpha1-fields annotation), gets the Go operator's behaviour for what it asked
 * (docs/migrating-from-go-operator.md); a v1alpha2 CR keeps ours.
 */
import type { V1Container, V1Deployment, V1PodSpec } from "@kubernetes/client-node";
import { V1ALPHA1_FIELDS } from "../../../lib/conversion/annotations";
import { toHub } from "../../../lib/conversion/v1alpha1";
import { STARTUP_SCRIPT } from "../../../lib/children/startup-script";
import { legacyOf } from "../../../lib/sync/legacy";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../../lib/wire/metacontroller";
import { aConfigMap, aParent, aRequest, deps, NS } from "../../sync-builders";
import { only, validateChild } from "../children/models";
import { ROOT_CA } from "./certificates";

/** A v1alpha1 CR as stored and sent to the hooks: converted, annotation included. */
function v1alpha1(spec: object, name = "demo"): KubeObject {
  const converted = toHub({
    apiVersion: "llamastack.io/v1alpha1",
    kind: "LlamaStackDistribution",
    metadata: { name, namespace: NS, uid: "uid-1", generation: 1 },
    spec,
  });
  if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
  return converted.object as unknown as KubeObject;
}

const server = (extra: object = {}) => ({
  distribution: { name: "starter" },
  containerSpec: { name: "llama-stack", port: 8321 },
  ...extra,
});
const userConfig = aConfigMap("my-config", {
  "config.yaml": "version: 2\nimage_name: starter\napis: []\nproviders: {}\n",
  "extra.txt": "x",
});
/** The user's config (userConfig above), which keeps no state inside the pod: several pods may run it. */
const SHARED = { userConfig: { configMapName: "my-config" } };
const syncOf = (parent: KubeObject, related: KubeObject[] = []) => sync(aRequest(parent, [], related), deps());
const deploymentOf = (r: SyncResponse) => only(r.children, "Deployment") as unknown as V1Deployment;
const podOf = (r: SyncResponse): V1PodSpec => deploymentOf(r).spec!.template.spec!;
const containerOf = (r: SyncResponse): V1Container => podOf(r).containers[0]!;
const envNames = (r: SyncResponse) => (containerOf(r).env ?? []).map((e) => e.name);
const specOf = (r: SyncResponse, kind: string) => only(r.children, kind).spec as Record<string, unknown>;

describe("legacyOf(): which parents are v1alpha1 CRs", () => {
  it("a converted v1alpha1 CR (annotation present, nothing v1alpha2-only): yes, with what v1alpha2 cannot hold", () => {
    const parent = v1alpha1({
      server: {
        ...server({ containerSpec: { name: "server", port: 8321 } }),
        userConfig: { configMapName: "c", configMapNamespace: "other" },
        tlsConfig: { caBundle: { configMapName: "ca", configMapNamespace: NS } },
      },
      network: { exposeRoute: false },
    });
    expect(legacyOf(parent)).toEqual({
      containerName: "server",
      networkSet: true,
      userConfigNamespace: "other",
      caBundleNamespace: NS,
    });
  });

  it("spec.network given empty still counts as set (it rides in the annotation)", () => {
    expect(legacyOf(v1alpha1({ server: server(), network: {} }))?.networkSet).toBe(true);
    expect(legacyOf(v1alpha1({ server: server() }))?.networkSet).toBe(false);
  });

  it("a v1alpha2 CR: no, however little it says", () => {
    expect(legacyOf(aParent({ distribution: { name: "starter" } }))).toBeUndefined();
  });

  it("a v1alpha1 CR without containerSpec: yes (the conversion marks every object written in v1alpha1)", () => {
    const parent = v1alpha1({ server: { distribution: { name: "starter" } } });
    expect(parent.metadata.annotations?.[V1ALPHA1_FIELDS]).toBe("{}");
    expect(legacyOf(parent)).toEqual({ containerName: "llama-stack", networkSet: false });
  });

  it("a converted CR since given v1alpha2-only fields (providers): no, it is a v1alpha2 CR now", () => {
    const parent = v1alpha1({ server: server() });
    const edited = {
      ...parent,
      spec: { ...(parent.spec as object), providers: { inference: { provider: "vllm", endpoint: "http://v:8000" } } },
    };
    expect(legacyOf(edited)).toBeUndefined();
  });

  it("an annotation that cannot be read: no", () => {
    const parent = v1alpha1({ server: server() });
    expect(
      legacyOf({ ...parent, metadata: { ...parent.metadata, annotations: { [V1ALPHA1_FIELDS]: "{nope" } } }),
    ).toBeUndefined();
  });
});

describe("the children of a v1alpha1 CR", () => {
  it("env in the Go operator's order (HF_HOME, SSL_CERT_FILE, LLS_WORKERS, LLS_PORT, LLAMA_STACK_CONFIG), the line's port and state variables, then the user's", () => {
    const r = syncOf(
      v1alpha1({
        server: {
          ...server({
            containerSpec: {
              name: "llama-stack",
              port: 9000,
              env: [
                { name: "OLLAMA_URL", value: "http://o:11434/v1" },
                { name: "LLS_WORKERS", value: "3" },
              ],
            },
          }),
          workers: 2,
          tlsConfig: { caBundle: { configMapName: "ca" } },
        },
      }),
      [aConfigMap("ca", { "ca-bundle.crt": ROOT_CA })],
    );
    expect(containerOf(r).env).toEqual([
      { name: "HF_HOME", value: "/.llama" },
      { name: "SSL_CERT_FILE", value: "/etc/ssl/certs/ca-bundle/ca-bundle.crt" },
      { name: "LLS_WORKERS", value: "3" },
      { name: "LLS_PORT", value: "9000" },
      { name: "LLAMA_STACK_CONFIG", value: "/etc/llama-stack/config.yaml" },
      { name: "LLAMA_STACK_PORT", value: "9000" },
      { name: "HOME", value: "/" },
      { name: "LLAMA_STACK_CONFIG_DIR", value: "/.llama" },
      { name: "OLLAMA_URL", value: "http://o:11434/v1" },
    ]);
  });

  it("userConfig: the whole ConfigMap at /etc/llama-stack/ as `user-config`, started by the version-sniffing script", () => {
    const r = syncOf(v1alpha1({ server: { ...server(), userConfig: { configMapName: "my-config" } } }), [userConfig]);
    expect(r.status.phase).toBe("Pending");
    expect(podOf(r).volumes).toContainEqual({ name: "user-config", configMap: { name: "my-config" } });
    expect(containerOf(r).volumeMounts).toEqual([
      { name: "lls-storage", mountPath: "/.llama" },
      { name: "user-config", mountPath: "/etc/llama-stack/", readOnly: true },
    ]);
    expect(containerOf(r).command).toEqual(["/bin/sh", "-c", STARTUP_SCRIPT]);
    expect(containerOf(r).args).toEqual([]);
    expect(envNames(r)).not.toContain("RUN_CONFIG_PATH");
    expect(deploymentOf(r).spec!.template.metadata!.annotations).toEqual({
      "llamastack.io/config-hash": expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    for (const child of r.children) validateChild(child);
  });

  it("a user command or args replace the script's (non-empty ones only, as in the Go operator)", () => {
    const withCommand = syncOf(
      v1alpha1({
        server: {
          ...server({ containerSpec: { name: "llama-stack", command: ["llama", "stack", "run"], args: [] } }),
          userConfig: { configMapName: "my-config" },
        },
      }),
      [userConfig],
    );
    expect(containerOf(withCommand)).toEqual(expect.objectContaining({ command: ["llama", "stack", "run"], args: [] }));
    const withArgs = syncOf(
      v1alpha1({
        server: {
          ...server({ containerSpec: { name: "llama-stack", args: ["--verbose"] } }),
          userConfig: { configMapName: "my-config" },
        },
      }),
      [userConfig],
    );
    expect(containerOf(withArgs)).toEqual(
      expect.objectContaining({ command: ["/bin/sh", "-c", STARTUP_SCRIPT], args: ["--verbose"] }),
    );
  });

  it("without userConfig, the image entrypoint runs (no command) and LLAMA_STACK_CONFIG is still set, as the Go operator did", () => {
    const r = syncOf(v1alpha1({ server: server() }));
    expect(containerOf(r).command).toBeUndefined();
    expect(containerOf(r).args).toBeUndefined();
    expect(envNames(r)).toEqual([
      "HF_HOME",
      "LLS_WORKERS",
      "LLS_PORT",
      "LLAMA_STACK_CONFIG",
      "LLAMA_STACK_PORT",
      "HOME",
      "LLAMA_STACK_CONFIG_DIR",
    ]);
  });

  it("the container keeps containerSpec.name, and the startup probe has the Go operator's timings", () => {
    const r = syncOf(v1alpha1({ server: server({ containerSpec: { name: "server", port: 8321 } }) }));
    expect(containerOf(r).name).toBe("server");
    expect(containerOf(r).startupProbe).toEqual({
      httpGet: { path: "/v1/health", port: "http", scheme: "HTTP" },
      initialDelaySeconds: 15,
      periodSeconds: 10,
      timeoutSeconds: 30,
      failureThreshold: 3,
      successThreshold: 1,
    });
  });

  it("a running one keeps the image of its own container, found by containerSpec.name among others", () => {
    const parent = v1alpha1({ server: server({ containerSpec: { name: "server", port: 8321 } }) });
    const first = deploymentOf(syncOf(parent));
    const running = "docker.io/llamastack/distribution-starter:0.7.0";
    const pod = first.spec!.template.spec!;
    const observed = structuredClone(first);
    observed.spec!.template.spec!.containers = [
      { name: "proxy", image: "docker.io/envoyproxy/envoy:v1.31.0" },
      { ...pod.containers[0]!, image: running },
    ];
    const r = sync(aRequest(parent, [observed as unknown as KubeObject]), deps());
    expect(containerOf(r).name).toBe("server");
    expect(containerOf(r).image).toBe(running);
  });

  it("replicas > 1: PDB maxUnavailable 1, spread over region/zone/host and preferred anti-affinity, on the instance label", () => {
    // Several pods run a config without state inside the pod (docs/scaling.md): the user's.
    const r = syncOf(v1alpha1({ replicas: 3, server: server(SHARED) }), [userConfig]);
    expect(specOf(r, "PodDisruptionBudget")).toEqual({
      selector: { matchLabels: { app: "llama-stack", "app.kubernetes.io/instance": "demo" } },
      maxUnavailable: 1,
    });
    expect(podOf(r).topologySpreadConstraints!.map((t) => [t.topologyKey, t.labelSelector])).toEqual([
      ["topology.kubernetes.io/region", { matchLabels: { "app.kubernetes.io/instance": "demo" } }],
      ["topology.kubernetes.io/zone", { matchLabels: { "app.kubernetes.io/instance": "demo" } }],
      ["kubernetes.io/hostname", { matchLabels: { "app.kubernetes.io/instance": "demo" } }],
    ]);
    expect(podOf(r).affinity!.podAntiAffinity!.preferredDuringSchedulingIgnoredDuringExecution![0]).toEqual({
      weight: 100,
      podAffinityTerm: {
        labelSelector: { matchLabels: { "app.kubernetes.io/instance": "demo" } },
        topologyKey: "kubernetes.io/hostname",
      },
    });
  });

  it("one replica under an HPA: no default PDB, spread or anti-affinity (Go: they follow spec.replicas); a v1alpha2 CR gets them", () => {
    const legacy = syncOf(v1alpha1({ replicas: 1, server: { ...server(SHARED), autoscaling: { maxReplicas: 5 } } }), [
      userConfig,
    ]);
    expect(legacy.children.some((c) => c.kind === "PodDisruptionBudget")).toBe(false);
    expect(podOf(legacy).topologySpreadConstraints).toBeUndefined();
    expect(specOf(legacy, "HorizontalPodAutoscaler")).toEqual(
      expect.objectContaining({ minReplicas: 1, maxReplicas: 5 }),
    );
    const ours = syncOf(
      aParent({
        distribution: { name: "starter" },
        overrideConfig: { configMapName: "my-config" },
        workload: { replicas: 1, autoscaling: { maxReplicas: 5 } },
      }),
      [userConfig],
    );
    expect(ours.children.some((c) => c.kind === "PodDisruptionBudget")).toBe(true);
  });

  it.each([
    ["network: {exposeRoute: false}", true, false, { network: { exposeRoute: false } }],
    ["network: {}", true, false, { network: {} }],
    ["network: {exposeRoute: true}", true, true, { network: { exposeRoute: true } }],
    ["no network", false, false, {}],
  ])(
    "given %s, the NetworkPolicy admits the OpenShift router: %s, ingress-nginx: %s",
    (_title, router, nginx, extra) => {
      const r = syncOf(v1alpha1({ server: server(), ...extra }));
      const peers = JSON.stringify((specOf(r, "NetworkPolicy").ingress as { from: unknown[] }[])[0]!.from);
      expect(peers.includes('"network.openshift.io/policy-group":"ingress"')).toBe(router);
      expect(peers.includes('"kubernetes.io/metadata.name":"ingress-nginx"')).toBe(nginx);
    },
  );

  it("exposeRoute: the Ingress backend port is the number, as in the Go operator's Ingress", () => {
    const r = syncOf(v1alpha1({ server: server(), network: { exposeRoute: true } }));
    expect(JSON.stringify(specOf(r, "Ingress").rules)).toContain(
      '"service":{"name":"demo-service","port":{"number":8321}}',
    );
  });

  it.each([
    [
      "userConfig",
      { userConfig: { configMapName: "my-config", configMapNamespace: "shared" } },
      [userConfig],
      "spec.server.userConfig.configMapNamespace: ConfigMap my-config is in namespace shared",
    ],
    [
      "caBundle",
      { tlsConfig: { caBundle: { configMapName: "ca", configMapNamespace: "shared" } } },
      [aConfigMap("ca", { "ca-bundle.crt": ROOT_CA })],
      "spec.server.tlsConfig.caBundle.configMapNamespace: ConfigMap ca is in namespace shared",
    ],
  ])(
    "a %s ConfigMap in another namespace fails with what to do; the CR's own namespace is fine",
    (_title, extra, related, message) => {
      const r = syncOf(v1alpha1({ server: { ...server(), ...extra } }), related);
      expect(r.status.phase).toBe("Failed");
      expect((r.status.conditions as { type: string; reason: string; message: string }[])[0]).toEqual(
        expect.objectContaining({
          type: "ConfigGenerated",
          reason: "ConfigMapNamespaceUnsupported",
          message: `${message}, but only ConfigMaps in the CR's own namespace (${NS}) are supported; copy it into ${NS} and remove configMapNamespace`,
        }),
      );
      const here = JSON.parse(JSON.stringify(extra).replace('"shared"', `"${NS}"`)) as object;
      expect(syncOf(v1alpha1({ server: { ...server(), ...here } }), related).status.phase).toBe("Pending");
    },
  );

  it("every child validates and the selectors are the Go operator's", () => {
    const r = syncOf(
      v1alpha1({
        replicas: 2,
        server: {
          ...server(SHARED),
          autoscaling: { maxReplicas: 4 },
          podDisruptionBudget: { minAvailable: 1 },
        },
        network: { exposeRoute: true, allowedFrom: { namespaces: ["*"] } },
      }),
      [userConfig],
    );
    // The state volume is ReadWriteOnce: one pod (docs/scaling.md).
    const withVolume = syncOf(v1alpha1({ replicas: 1, server: { ...server(SHARED), storage: {} } }), [userConfig]);
    expect(withVolume.children.map((c) => c.kind)).toContain("PersistentVolumeClaim");
    for (const child of [...r.children, ...withVolume.children]) validateChild(child);
    expect(deploymentOf(r).spec!.selector.matchLabels).toEqual({
      app: "llama-stack",
      "app.kubernetes.io/instance": "demo",
    });
  });
});
