/**
 * The webhook manifests (metacontroller/components/webhooks, used by overlays/cert-manager and
 * overlays/openshift-cert-manager): the ValidatingWebhookConfiguration, the cert-manager chain,
 * HTTPS on the hooks, and that every reference lines up — webhook and CRD conversion service →
 * the Service in the build → a container port the hooks serve with TLS → a path the app
 * answers; CA injection → the Certificate whose Secret the pods mount. The overlays change the
 * base only by adding: the CompositeController (and its hook URLs) stays as it is.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import {
  ValidatingWebhookConfiguration,
  type IValidatingWebhookConfiguration,
} from "kubernetes-models/admissionregistration.k8s.io/v1";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1";
import { NetworkPolicy, type INetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
import { Service, type IService } from "kubernetes-models/v1";
import request from "supertest";
import { parseAllDocuments } from "yaml";
import { createApp } from "../../hooks/app";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { customizeHook } from "../../lib/sync/customize";
import { buildCrd } from "../../lib/crd/generate";
import { createSyncHook } from "../../lib/sync";
import { syncSettingsFromEnv } from "../../hooks/sync-settings";

const ROOT = join(__dirname, "..", "..");

interface KubeDoc {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Record<string, string>;
    readonly annotations?: Record<string, string>;
  };
  readonly spec?: unknown;
}

interface Webhook {
  readonly name: string;
  readonly admissionReviewVersions: string[];
  readonly sideEffects: string;
  readonly failurePolicy: string;
  readonly matchPolicy?: string;
  readonly timeoutSeconds?: number;
  readonly clientConfig: {
    readonly service: {
      readonly name: string;
      readonly namespace: string;
      readonly path: string;
      readonly port: number;
    };
  };
  readonly rules: {
    apiGroups: string[];
    apiVersions: string[];
    operations: string[];
    resources: string[];
    scope?: string;
  }[];
}

interface CertificateSpec {
  readonly secretName: string;
  readonly dnsNames?: string[];
  readonly isCA?: boolean;
  readonly issuerRef: { readonly name: string; readonly kind: string; readonly group?: string };
  readonly usages?: string[];
}

function kustomize(dir: string): KubeDoc[] {
  const text = execFileSync("kubectl", ["kustomize", join(ROOT, dir)], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, KUBECONFIG: join(ROOT, "no-such-kubeconfig") },
  });
  return parseAllDocuments(text).map((d) => d.toJS() as KubeDoc);
}

function one<T extends KubeDoc>(objects: readonly KubeDoc[], kind: string, name?: string): T {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name ?? ""}, found ${found.length}`);
  return found[0] as T;
}

const app = createApp({
  handlers: { sync: createSyncHook(syncSettingsFromEnv({})), customize: customizeHook },
  logger: createLogger({ level: "silent", destination: { write: () => undefined } }),
  metrics: createMetrics(),
  isReady: () => true,
  audience: "apiserver",
});

const BUILDS: [string, string, string][] = [
  ["metacontroller/overlays/cert-manager", "metacontroller", "vanilla"],
  ["metacontroller/overlays/openshift-cert-manager", "metacontroller/overlays/openshift", "openshift"],
];
const built = new Map<string, KubeDoc[]>();

beforeAll(() => {
  for (const [dir, base] of BUILDS) {
    built.set(dir, kustomize(dir));
    built.set(base, kustomize(base));
  }
}, 30_000);

describe.each(BUILDS)("kubectl kustomize %s", (dir, baseDir) => {
  const objects = () => built.get(dir)!;
  const base = () => built.get(baseDir)!;
  const deployment = () => one<IDeployment & KubeDoc>(objects(), "Deployment", "llsd-hooks");
  const container = () => deployment().spec!.template.spec!.containers.find((c) => c.name === "hooks")!;
  const service = () => one<IService & KubeDoc>(objects(), "Service", "llsd-hooks");
  const webhook = () =>
    (one(objects(), "ValidatingWebhookConfiguration") as unknown as { webhooks: Webhook[] }).webhooks;
  const certificate = (name: string) => one<KubeDoc & { spec: CertificateSpec }>(objects(), "Certificate", name);

  /** Service port → the container port it targets, as the Service routes it. */
  function containerPortFor(port: number): number | undefined {
    const sp = service().spec?.ports?.find((p) => p.port === port);
    const target = sp?.targetPort ?? sp?.port;
    return container().ports?.find((p) => p.name === target || p.containerPort === target)?.containerPort;
  }

  it("adds the webhook objects to the base and removes nothing", () => {
    const ids = (list: readonly KubeDoc[]) => list.map((o) => `${o.kind}/${o.metadata.name}`).sort();
    expect(ids(objects())).toEqual(
      [
        ...ids(base()),
        "Certificate/llsd-hooks-ca",
        "Certificate/llsd-hooks-tls",
        "Issuer/llsd-hooks-ca",
        "Issuer/llsd-hooks-selfsigned",
        "ValidatingWebhookConfiguration/llamastackdistributions.llamastack.io",
      ].sort(),
    );
    const patched = ["Deployment", "Service", "NetworkPolicy", "CompositeController"];
    for (const original of base().filter((o) => !patched.includes(o.kind))) {
      expect(one(objects(), original.kind, original.metadata.name)).toEqual(original);
    }
  });

  it("changes only the CompositeController's hook URLs (to the HTTPS port) and adds their caBundle", () => {
    type Hooks = Record<string, { webhook: Record<string, unknown> }>;
    const hooksOf = (o: KubeDoc) => (o as unknown as { spec: { hooks: Hooks } }).spec.hooks;
    const patched = one(objects(), "CompositeController");
    const original = one(base(), "CompositeController");
    const reverted = structuredClone(patched) as unknown as { spec: { hooks: Hooks } };
    for (const [name, hook] of Object.entries(reverted.spec.hooks)) {
      hook.webhook.url = hooksOf(original)[name]!.webhook.url;
      delete hook.webhook.caBundle;
    }
    expect(reverted).toEqual(original);
    expect(Object.values(hooksOf(patched)).map((h) => new URL(h.webhook.url as string).port)).toEqual(["8444", "8444"]);
  });

  it("has only objects the Kubernetes schemas accept", () => {
    expect(() => new Deployment(deployment() as never).validate()).not.toThrow();
    expect(() => new Service(service() as never).validate()).not.toThrow();
    expect(() => new NetworkPolicy(one<INetworkPolicy & KubeDoc>(objects(), "NetworkPolicy")).validate()).not.toThrow();
    expect(() =>
      new ValidatingWebhookConfiguration(
        one<IValidatingWebhookConfiguration & KubeDoc>(objects(), "ValidatingWebhookConfiguration"),
      ).validate(),
    ).not.toThrow();
  });

  it("puts the cert-manager objects in llsd-hooks and leaves the webhook configuration cluster-scoped", () => {
    for (const o of objects().filter((x) => x.apiVersion.startsWith("cert-manager.io/"))) {
      expect({ object: `${o.kind}/${o.metadata.name}`, namespace: o.metadata.namespace }).toEqual({
        object: `${o.kind}/${o.metadata.name}`,
        namespace: "llsd-hooks",
      });
      expect(o.metadata.labels?.["app.kubernetes.io/part-of"]).toBe("llsd-hooks");
    }
    expect(one(objects(), "ValidatingWebhookConfiguration").metadata.namespace).toBeUndefined();
  });

  describe("the ValidatingWebhookConfiguration", () => {
    it("reviews CREATE and UPDATE of v1alpha2 llamastackdistributions, fails closed, has no side effects", () => {
      expect(webhook()).toHaveLength(1);
      const [w] = webhook();
      expect(w).toMatchObject({
        admissionReviewVersions: ["v1"],
        sideEffects: "None",
        failurePolicy: "Fail",
        matchPolicy: "Equivalent",
      });
      expect(w!.name.split(".").length).toBeGreaterThanOrEqual(3);
      expect(w!.timeoutSeconds).toBeLessThanOrEqual(10);
      expect(w!.rules).toEqual([
        {
          apiGroups: ["llamastack.io"],
          apiVersions: ["v1alpha2"],
          operations: ["CREATE", "UPDATE"],
          resources: ["llamastackdistributions"],
          scope: "Namespaced",
        },
      ]);
    });

    it("calls the Service of the build on its TLS port, which reaches the hooks' https port", () => {
      const { service: ref } = webhook()[0]!.clientConfig;
      expect({ name: ref.name, namespace: ref.namespace }).toEqual({
        name: service().metadata.name,
        namespace: service().metadata.namespace,
      });
      expect(containerPortFor(ref.port)).toBe(8443);
    });

    it("calls a path the apiserver's app answers with an AdmissionReview", async () => {
      const { path } = webhook()[0]!.clientConfig.service;
      const review = {
        apiVersion: "admission.k8s.io/v1",
        kind: "AdmissionReview",
        request: {
          uid: "u",
          operation: "CREATE",
          kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
          object: {
            apiVersion: "llamastack.io/v1alpha2",
            kind: "LlamaStackDistribution",
            metadata: { name: "x" },
            spec: { distribution: { name: "starter" } },
          },
        },
      };
      const response = await request(app).post(path).send(review);
      expect(response.status).toBe(200);
      expect(response.body.response).toEqual({ uid: "u", allowed: true });
    });

    it("gets its CA injected from the serving Certificate of the build", () => {
      const tls = certificate("llsd-hooks-tls");
      expect(one(objects(), "ValidatingWebhookConfiguration").metadata.annotations).toEqual({
        "cert-manager.io/inject-ca-from": `${tls.metadata.namespace}/${tls.metadata.name}`,
      });
    });
  });

  describe("the CRD's conversion webhook (crds/)", () => {
    const crd = buildCrd();

    it("calls the Service of the build on its TLS port", () => {
      const ref = crd.spec.conversion.webhook.clientConfig.service;
      expect({ name: ref.name, namespace: ref.namespace }).toEqual({
        name: service().metadata.name,
        namespace: service().metadata.namespace,
      });
      expect(containerPortFor(ref.port)).toBe(8443);
    });

    it("calls a path the apiserver's app serves", async () => {
      const response = await request(app).post(crd.spec.conversion.webhook.clientConfig.service.path).send({});
      expect(response.status).not.toBe(404);
    });

    it("gets its CA from the same Certificate", () => {
      const tls = certificate("llsd-hooks-tls");
      expect(crd.metadata.annotations["cert-manager.io/inject-ca-from"]).toBe(
        `${tls.metadata.namespace}/${tls.metadata.name}`,
      );
    });
  });

  describe("the certificates", () => {
    it("serve the name the apiserver dials: <service>.<namespace>.svc", () => {
      const tls = certificate("llsd-hooks-tls").spec;
      const svc = service().metadata;
      expect(tls.dnsNames).toEqual(
        expect.arrayContaining([`${svc.name}.${svc.namespace}.svc`, `${svc.name}.${svc.namespace}.svc.cluster.local`]),
      );
      expect(tls.usages).toContain("server auth");
    });

    it("chain: self-signed Issuer → CA Certificate → CA Issuer → serving Certificate (renewals keep the injected CA)", () => {
      const serving = certificate("llsd-hooks-tls").spec;
      const caIssuer = one<KubeDoc & { spec: { ca?: { secretName: string } } }>(
        objects(),
        "Issuer",
        serving.issuerRef.name,
      );
      expect(serving.issuerRef.kind).toBe("Issuer");
      const ca = objects()
        .filter((o) => o.kind === "Certificate")
        .map((o) => o as KubeDoc & { spec: CertificateSpec })
        .find((c) => c.spec.secretName === caIssuer.spec.ca?.secretName);
      expect(ca?.spec.isCA).toBe(true);
      const root = one<KubeDoc & { spec: { selfSigned?: object } }>(objects(), "Issuer", ca!.spec.issuerRef.name);
      expect(root.spec.selfSigned).toEqual({});
    });
  });

  describe("the hooks Deployment", () => {
    it("mounts the serving Certificate's Secret read-only, as a directory (never subPath: renewals must reach the pod)", () => {
      const volume = deployment().spec!.template.spec!.volumes!.find(
        (v) => v.secret?.secretName === certificate("llsd-hooks-tls").spec.secretName,
      );
      expect(volume).toBeDefined();
      const mount = container().volumeMounts!.find((m) => m.name === volume!.name);
      expect(mount).toMatchObject({ readOnly: true });
      expect(mount!.subPath).toBeUndefined();
      const env = Object.fromEntries((container().env ?? []).map((e) => [e.name, e.value]));
      expect(env.TLS_CERT_FILE).toBe(`${mount!.mountPath}/tls.crt`);
      expect(env.TLS_KEY_FILE).toBe(`${mount!.mountPath}/tls.key`);
    });

    it("serves HTTPS on TLS_PORT and SYNC_TLS_PORT, and keeps only the probes and /metrics on plain 8080", () => {
      const env = Object.fromEntries((container().env ?? []).map((e) => [e.name, e.value]));
      expect(container().ports).toEqual(
        expect.arrayContaining([
          { name: "https", containerPort: Number(env.TLS_PORT), protocol: "TCP" },
          { name: "sync-https", containerPort: Number(env.SYNC_TLS_PORT), protocol: "TCP" },
          { name: "http", containerPort: 8080, protocol: "TCP" },
        ]),
      );
      expect({ PORT: env.PORT, SYNC_PLAIN_HTTP: env.SYNC_PLAIN_HTTP }).toEqual({
        PORT: "8080",
        SYNC_PLAIN_HTTP: "false",
      });
      expect(container().readinessProbe?.httpGet?.port).toBe("http");
    });
  });

  it("keeps the Service's http port for the probes and /metrics and adds https and sync-https", () => {
    expect(service().spec?.ports).toEqual(
      expect.arrayContaining([
        { name: "http", port: 8080, targetPort: "http", protocol: "TCP" },
        { name: "https", port: 8443, targetPort: "https", protocol: "TCP" },
        { name: "sync-https", port: 8444, targetPort: "sync-https", protocol: "TCP" },
      ]),
    );
  });

  it("keeps the NetworkPolicy's Metacontroller-only rule for 8080, opens 8443 for the apiserver and 8444 to Metacontroller only", () => {
    const policy = one<INetworkPolicy & KubeDoc>(objects(), "NetworkPolicy");
    const basePolicy = one<INetworkPolicy & KubeDoc>(base(), "NetworkPolicy");
    const metacontrollerOnly = basePolicy.spec?.ingress?.[0]?.from;
    expect(metacontrollerOnly).toEqual([
      { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "metacontroller" } } },
    ]);
    expect(policy.spec?.ingress).toEqual([
      ...(basePolicy.spec?.ingress ?? []),
      { ports: [{ protocol: "TCP", port: 8443 }] },
      { from: metacontrollerOnly, ports: [{ protocol: "TCP", port: 8444 }] },
    ]);
  });
});
