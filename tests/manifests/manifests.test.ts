/**
 * The kustomize manifests in metacontroller/ (docs/install.md): both builds work offline, the
 * CompositeController matches the Metacontroller contract and points at the Service in the same
 * build, and the hooks Deployment is hardened. Builds run the real `kubectl kustomize`.
 */
import request from "supertest";
import { createApp } from "../../hooks/app";
import { fileToken } from "../../hooks/auth";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { customizeHook } from "../../lib/sync/customize";
import { createSyncHook } from "../../lib/sync";
import { syncSettingsFromEnv } from "../../hooks/sync-settings";
import { packageVersion } from "../../lib/package-version";
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1";
import { NetworkPolicy, type INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget, type IPodDisruptionBudget } from "kubernetes-models/policy/v1";
import { Namespace, Service, ServiceAccount, type IService, type IServiceAccount } from "kubernetes-models/v1";
import { parseAllDocuments } from "yaml";

const ROOT = join(__dirname, "..", "..");
const BASE_DIR = join(ROOT, "metacontroller");
const OPENSHIFT_DIR = join(ROOT, "metacontroller", "overlays", "openshift");
const HOOKS_NAMESPACE = "llsd-hooks";

interface KubeDoc {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Readonly<Record<string, string>>;
  };
}

interface Webhook {
  readonly url?: string;
  readonly timeout?: string;
  readonly authorization?: unknown;
}

interface CompositeController extends KubeDoc {
  readonly spec: {
    readonly parentResource: { readonly apiVersion: string; readonly resource: string };
    readonly childResources: readonly {
      readonly apiVersion: string;
      readonly resource: string;
      readonly updateStrategy?: { readonly method?: string };
    }[];
    readonly generateSelector?: boolean;
    readonly resyncPeriodSeconds?: number;
    readonly hooks: { readonly [hook: string]: { readonly version?: string; readonly webhook?: Webhook } | undefined };
  };
}

interface LabelSelector {
  readonly matchLabels?: { readonly [k: string]: string };
  readonly matchExpressions?: readonly {
    readonly key: string;
    readonly operator: string;
    readonly values?: readonly string[];
  }[];
}

/** Every child type and the update strategy it needs; PVCs are immutable after creation. */
const EXPECTED_CHILDREN: readonly [apiVersion: string, resource: string, method: string][] = [
  ["v1", "configmaps", "InPlace"],
  ["v1", "services", "InPlace"],
  ["v1", "secrets", "InPlace"],
  ["apps/v1", "deployments", "InPlace"],
  ["networking.k8s.io/v1", "networkpolicies", "InPlace"],
  ["networking.k8s.io/v1", "ingresses", "InPlace"],
  ["autoscaling/v2", "horizontalpodautoscalers", "InPlace"],
  ["policy/v1", "poddisruptionbudgets", "InPlace"],
  ["v1", "persistentvolumeclaims", "OnDelete"],
];
const ROUTE_CHILD = ["route.openshift.io/v1", "routes", "InPlace"] as const;

/** The real app's dependencies with the real hooks: a manifest's hook URL must reach a route that answers 200. */
const appDeps = {
  handlers: { sync: createSyncHook(syncSettingsFromEnv({})), customize: customizeHook },
  logger: createLogger({ level: "silent", destination: { write: () => undefined } }),
  metrics: createMetrics(),
  isReady: () => true,
};
/** The Secret both the CompositeController and the hooks Deployment name (README: create it before applying). */
const TOKEN_SECRET = { name: "llsd-hooks-token", namespace: "llsd-hooks", key: "token" };
const minimalParent = {
  apiVersion: "llamastack.io/v1alpha2",
  kind: "LlamaStackDistribution",
  metadata: { name: "probe", namespace: "default" },
  spec: { distribution: { name: "starter" } },
};

function kustomize(dir: string): string {
  // A missing kubeconfig proves the build needs no cluster.
  return execFileSync("kubectl", ["kustomize", dir], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, KUBECONFIG: join(ROOT, "no-such-kubeconfig") },
  });
}

function parse(text: string): KubeDoc[] {
  return parseAllDocuments(text).map((doc, i) => {
    expect({ document: i, errors: doc.errors.map((e) => e.message) }).toEqual({ document: i, errors: [] });
    return doc.toJS() as KubeDoc;
  });
}

class Build {
  constructor(readonly objects: readonly KubeDoc[]) {}

  all(kind: string): KubeDoc[] {
    return this.objects.filter((o) => o.kind === kind);
  }

  one<T extends KubeDoc>(kind: string, name?: string): T {
    const found = this.all(kind).filter((o) => name === undefined || o.metadata.name === name);
    if (found.length !== 1) throw new Error(`expected one ${kind}${name ? ` ${name}` : ""}, found ${found.length}`);
    return found[0] as T;
  }

  get controller(): CompositeController {
    return this.one<CompositeController>("CompositeController", "llamastackdistributions.llamastack.io");
  }
  get deployment(): IDeployment & KubeDoc {
    return this.one<IDeployment & KubeDoc>("Deployment", "llsd-hooks");
  }
  get podLabels(): { readonly [k: string]: string } {
    return this.deployment.spec?.template.metadata?.labels ?? {};
  }
  get container() {
    const containers = this.deployment.spec?.template.spec?.containers ?? [];
    const hooks = containers.find((c) => c.name === "hooks");
    if (!hooks) throw new Error("the hooks Deployment has no container named hooks");
    return hooks;
  }
}

/** A label selector as the apiserver evaluates it; an empty selector would select every pod. */
function selects(selector: LabelSelector | undefined, labels: { readonly [k: string]: string }): boolean {
  const matchLabels = Object.entries(selector?.matchLabels ?? {});
  const expressions = selector?.matchExpressions ?? [];
  if (matchLabels.length + expressions.length === 0) return false;
  return (
    matchLabels.every(([k, v]) => labels[k] === v) &&
    expressions.every(({ key, operator, values = [] }) => {
      switch (operator) {
        case "In":
          return key in labels && values.includes(labels[key]!);
        case "NotIn":
          return !(key in labels) || !values.includes(labels[key]!);
        case "Exists":
          return key in labels;
        case "DoesNotExist":
          return !(key in labels);
        default:
          throw new Error(`unknown selector operator ${operator}`);
      }
    })
  );
}

function childKey(c: { apiVersion: string; resource: string }): string {
  return `${c.resource}.${c.apiVersion}`;
}

function strategies(cc: CompositeController): Record<string, string | undefined> {
  return Object.fromEntries(cc.spec.childResources.map((c) => [childKey(c), c.updateStrategy?.method]));
}

let base: Build;
let openshift: Build;

beforeAll(() => {
  base = new Build(parse(kustomize(BASE_DIR)));
  openshift = new Build(parse(kustomize(OPENSHIFT_DIR)));
}, 30_000);

const BUILDS: [string, () => Build][] = [
  ["metacontroller/", () => base],
  ["metacontroller/overlays/openshift/", () => openshift],
];

describe.each(BUILDS)("kubectl kustomize %s", (_dir, build) => {
  it("builds offline into one of each expected object, with no duplicates", () => {
    const ids = build().objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ""}/${o.metadata.name}`);
    expect(new Set(ids).size).toBe(ids.length);
    expect(
      build()
        .objects.map((o) => o.kind)
        .sort(),
    ).toEqual([
      "CompositeController",
      "Deployment",
      "Namespace",
      "NetworkPolicy",
      "PodDisruptionBudget",
      "Service",
      "ServiceAccount",
    ]);
  });

  it("has only objects the Kubernetes schemas accept", () => {
    const models: Record<string, new (data: never) => { validate(): void }> = {
      Namespace,
      ServiceAccount,
      Service,
      Deployment,
      PodDisruptionBudget,
      NetworkPolicy,
    };
    for (const o of build().objects) {
      if (o.kind === "CompositeController") continue;
      const Model = models[o.kind];
      expect(Model).toBeDefined();
      expect(() => new Model!(o as never).validate()).not.toThrow();
    }
  });

  it("puts every namespaced object in llsd-hooks and leaves the cluster-scoped ones without a namespace", () => {
    for (const o of build().objects) {
      const clusterScoped = o.kind === "Namespace" || o.kind === "CompositeController";
      expect({ object: `${o.kind}/${o.metadata.name}`, namespace: o.metadata.namespace }).toEqual({
        object: `${o.kind}/${o.metadata.name}`,
        namespace: clusterScoped ? undefined : HOOKS_NAMESPACE,
      });
    }
    expect(build().one("Namespace").metadata.name).toBe(HOOKS_NAMESPACE);
  });

  describe("the CompositeController", () => {
    it("runs llamastackdistributions at the storage version v1alpha2", () => {
      expect(build().controller.spec.parentResource).toEqual({
        apiVersion: "llamastack.io/v1alpha2",
        resource: "llamastackdistributions",
      });
    });

    it("lists every child type once, InPlace, except PVCs which are OnDelete", () => {
      const cc = build().controller;
      const keys = cc.spec.childResources.map(childKey);
      expect(new Set(keys).size).toBe(keys.length);
      const got = strategies(cc);
      for (const [apiVersion, resource, method] of EXPECTED_CHILDREN) {
        expect({ child: `${resource}.${apiVersion}`, method: got[`${resource}.${apiVersion}`] }).toEqual({
          child: `${resource}.${apiVersion}`,
          method,
        });
      }
    });

    it("generates its selector and resyncs periodically", () => {
      const { spec } = build().controller;
      expect(spec.generateSelector).toBe(true);
      expect(Number.isInteger(spec.resyncPeriodSeconds)).toBe(true);
      expect(spec.resyncPeriodSeconds).toBeGreaterThanOrEqual(60);
    });

    it("has sync and customize hooks at version v2 with explicit timeouts", () => {
      const { hooks } = build().controller.spec;
      expect(Object.keys(hooks).sort()).toEqual(["customize", "sync"]);
      for (const name of ["sync", "customize"]) {
        const hook = hooks[name];
        expect({ hook: name, version: hook?.version }).toEqual({ hook: name, version: "v2" });
        // A Go duration Metacontroller accepts; at most the 10 s the hooks' metrics are built for.
        expect(hook?.webhook?.timeout).toMatch(/^([1-9]\d*)(ms|s)$/);
        const [, n, unit] = /^(\d+)(ms|s)$/.exec(hook!.webhook!.timeout!)!;
        expect(Number(n) * (unit === "s" ? 1000 : 1)).toBeLessThanOrEqual(10_000);
        expect(hook?.webhook?.authorization).toEqual({ type: "Bearer", secretRef: TOKEN_SECRET });
      }
    });

    it("sends the token the hooks Deployment reads: its HOOK_BEARER_TOKEN_FILE is that Secret's key, mounted", () => {
      const b = build();
      const file = b.container.env?.find((e) => e.name === "HOOK_BEARER_TOKEN_FILE")?.value ?? "";
      const mount = (b.container.volumeMounts ?? []).find((m) => file.startsWith(`${m.mountPath}/`));
      const volume = (b.deployment.spec?.template.spec?.volumes ?? []).find((v) => v.name === mount?.name);
      expect({
        namespace: b.deployment.metadata.namespace,
        secret: volume?.secret?.secretName,
        key: file.slice((mount?.mountPath.length ?? 0) + 1),
      }).toEqual({ namespace: TOKEN_SECRET.namespace, secret: TOKEN_SECRET.name, key: TOKEN_SECRET.key });
      expect(volume?.secret?.optional).not.toBe(true); // no Secret: the pod waits rather than serving unauthenticated
      expect(b.container.env?.some((e) => e.name === "HOOK_BEARER_TOKEN")).toBe(false);
    });

    it("calls hooks whose paths the app serves with 200 with the token, 401 without", async () => {
      const dir = mkdtempSync(join(tmpdir(), "llsd-token-"));
      writeFileSync(join(dir, TOKEN_SECRET.key), "s3cr3t-token\n");
      const logger = createLogger({ level: "silent", destination: { write: () => undefined } });
      const authed = createApp({ ...appDeps, bearerToken: fileToken(join(dir, TOKEN_SECRET.key), { logger }) });
      for (const [name, hook] of Object.entries(build().controller.spec.hooks)) {
        const path = new URL(hook?.webhook?.url ?? "").pathname;
        const body = name === "sync" ? { parent: minimalParent, children: {}, related: {} } : { parent: minimalParent };
        const ok = await request(authed).post(path).set("Authorization", "Bearer s3cr3t-token").send(body);
        const refused = await request(authed).post(path).send(body);
        expect({ hook: name, path, status: ok.status, without: refused.status }).toEqual({
          hook: name,
          path,
          status: 200,
          without: 401,
        });
      }
    });

    it("calls the hooks at <service>.<namespace>.svc and the Service's port", () => {
      const b = build();
      const services = b.all("Service") as (IService & KubeDoc)[];
      for (const [name, hook] of Object.entries(b.controller.spec.hooks)) {
        const url = new URL(hook?.webhook?.url ?? "");
        expect(url.protocol).toBe("http:");
        const service = services.find((s) => url.hostname === `${s.metadata.name}.${s.metadata.namespace}.svc`);
        expect({ hook: name, host: url.hostname, service: service?.metadata.name }).toEqual({
          hook: name,
          host: url.hostname,
          service: "llsd-hooks",
        });
        const ports = (service!.spec?.ports ?? []).map((p) => p.port);
        expect(ports).toContain(Number(url.port));
        expect(url.search + url.hash).toBe("");
      }
      expect(new URL(b.controller.spec.hooks.sync!.webhook!.url!).pathname).toBe("/sync");
      expect(new URL(b.controller.spec.hooks.customize!.webhook!.url!).pathname).toBe("/customize");
    });
  });

  describe("the hooks Deployment", () => {
    it("runs 2 replicas of the pinned image with the hooks entrypoint", () => {
      const b = build();
      expect(b.deployment.spec?.replicas).toBe(2);
      expect(b.container.image).toBe(`llsd-hooks:${packageVersion()}`);
      expect(b.container.command).toEqual(["node", "--max-old-space-size=160", "dist/hooks/main.js"]);
      expect(selects(b.deployment.spec?.selector, b.podLabels)).toBe(true);
    });

    it("caps the V8 heap at most at two thirds of the memory limit (the rest: young generation, code, buffers)", () => {
      const b = build();
      const heapMb = Number(
        /^--max-old-space-size=(\d+)$/.exec(
          b.container.command?.find((a) => a.startsWith("--max-old-space-size=")) ?? "",
        )?.[1],
      );
      const limit = String(b.container.resources?.limits?.memory ?? "");
      const limitMb = Number(/^(\d+)Mi$/.exec(limit)?.[1]) * 1.048576;
      expect({ heapMb: heapMb > 0, limit }).toEqual({ heapMb: true, limit: expect.stringMatching(/^\d+Mi$/) });
      expect(heapMb).toBeLessThanOrEqual((limitMb * 2) / 3);
    });

    it("runs non-root with a read-only root filesystem, no privilege escalation and no capabilities", () => {
      const b = build();
      const pod = b.deployment.spec?.template.spec;
      expect(pod?.securityContext?.runAsNonRoot).toBe(true);
      expect(pod?.securityContext?.runAsUser ?? 1000).not.toBe(0);
      expect(pod?.securityContext?.seccompProfile?.type).toBe("RuntimeDefault");
      expect(b.container.securityContext).toMatchObject({
        readOnlyRootFilesystem: true,
        allowPrivilegeEscalation: false,
        capabilities: { drop: ["ALL"] },
      });
      expect(b.container.securityContext?.privileged).toBeFalsy();
      expect(b.container.securityContext?.runAsUser ?? 1000).not.toBe(0);
    });

    it("listens on the port named http and probes it: startup, readiness /readyz, liveness /healthz", () => {
      const c = build().container;
      expect(c.ports).toEqual([{ name: "http", containerPort: 8080, protocol: "TCP" }]);
      expect(c.env).toContainEqual({ name: "PORT", value: "8080" });
      expect(c.readinessProbe?.httpGet).toEqual({ path: "/readyz", port: "http" });
      expect(c.livenessProbe?.httpGet).toEqual({ path: "/healthz", port: "http" });
      expect(c.startupProbe?.httpGet?.port).toBe("http");
    });

    it("has resource requests and a memory limit", () => {
      expect(build().container.resources).toEqual({
        requests: { cpu: "100m", memory: "128Mi" },
        limits: { memory: "256Mi" },
      });
    });

    it("gets its namespace from the downward API and logs at info", () => {
      const env = build().container.env ?? [];
      expect(env).toContainEqual({
        name: "HOOKS_NAMESPACE",
        valueFrom: { fieldRef: { fieldPath: "metadata.namespace" } },
      });
      expect(env).toContainEqual({ name: "LOG_LEVEL", value: "info" });
    });

    it("spreads its pods over nodes", () => {
      const b = build();
      const spread = b.deployment.spec?.template.spec?.topologySpreadConstraints ?? [];
      const byHost = spread.find((t) => t.topologyKey === "kubernetes.io/hostname");
      expect(byHost).toBeDefined();
      expect(selects(byHost?.labelSelector, b.podLabels)).toBe(true);
    });

    it("runs under a ServiceAccount that mounts no API token", () => {
      const b = build();
      const sa = b.one<IServiceAccount & KubeDoc>("ServiceAccount");
      expect(sa.automountServiceAccountToken).toBe(false);
      expect(b.deployment.spec?.template.spec?.serviceAccountName).toBe(sa.metadata.name);
      expect(b.deployment.spec?.template.spec?.automountServiceAccountToken).not.toBe(true);
    });
  });

  it("has a Service that selects the hooks pods and targets their http port", () => {
    const b = build();
    const service = b.one<IService & KubeDoc>("Service", "llsd-hooks");
    expect(service.spec?.type ?? "ClusterIP").toBe("ClusterIP");
    expect(selects({ matchLabels: service.spec?.selector }, b.podLabels)).toBe(true);
    const port = service.spec?.ports?.find((p) => p.port === 8080);
    expect(port?.name).toBe("http");
    const target = port?.targetPort ?? port?.port;
    expect(b.container.ports?.some((p) => p.name === target || p.containerPort === target)).toBe(true);
  });

  it("has a PodDisruptionBudget that keeps one hooks pod", () => {
    const b = build();
    const pdb = b.one<IPodDisruptionBudget & KubeDoc>("PodDisruptionBudget");
    expect(pdb.spec?.minAvailable).toBe(1);
    expect(pdb.spec?.minAvailable).toBeLessThan(b.deployment.spec?.replicas ?? 1);
    expect(selects(pdb.spec?.selector, b.podLabels)).toBe(true);
  });

  it("has a NetworkPolicy that admits only the metacontroller namespace, on the hooks port", () => {
    const b = build();
    const policy = b.one<INetworkPolicy & KubeDoc>("NetworkPolicy");
    expect(selects(policy.spec?.podSelector, b.podLabels)).toBe(true);
    expect(policy.spec?.policyTypes).toContain("Ingress");
    expect(policy.spec?.ingress).toEqual([
      {
        from: [{ namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "metacontroller" } } }],
        ports: [{ protocol: "TCP", port: 8080 }],
      },
    ]);
  });
});

describe("the OpenShift overlay", () => {
  it("adds the Route child (InPlace) that the base must not have", () => {
    const [apiVersion, resource, method] = ROUTE_CHILD;
    expect(strategies(base.controller)).not.toHaveProperty([`${resource}.${apiVersion}`]);
    expect(base.controller.spec.childResources.some((c) => c.apiVersion.startsWith("route.openshift.io/"))).toBe(false);
    expect(strategies(openshift.controller)).toEqual({
      ...strategies(base.controller),
      [`${resource}.${apiVersion}`]: method,
    });
  });

  it("changes nothing else in the CompositeController", () => {
    const { childResources: _b, ...baseRest } = base.controller.spec;
    const { childResources: _o, ...overlayRest } = openshift.controller.spec;
    expect(overlayRest).toEqual(baseRest);
  });

  it("tells the hooks to expose with a Route; the base leaves the default Ingress", () => {
    expect(openshift.container.env).toContainEqual({ name: "LLSD_EXPOSE_WITH", value: "route" });
    expect((base.container.env ?? []).map((e) => e.name)).not.toContain("LLSD_EXPOSE_WITH");
  });

  it("lets OpenShift pick the UID (restricted-v2 SCC) but still runs non-root", () => {
    expect(base.deployment.spec?.template.spec?.securityContext?.runAsUser).toBe(1000);
    expect(openshift.deployment.spec?.template.spec?.securityContext?.runAsUser).toBeUndefined();
    expect(openshift.deployment.spec?.template.spec?.securityContext?.runAsNonRoot).toBe(true);
  });
});
