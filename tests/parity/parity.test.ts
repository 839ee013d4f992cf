/**
 * docs/migrating-from-go-operator.md, row by row: for v1alpha1 CRs drawn at random, the hooks' children agree with
 * the Go operator's (tests/parity/go-operator.ts) on every row the table marks "same", and
 * differ only as the table says on the others.
 */
import fc from "fast-check";
import { toHub } from "../../lib/conversion/v1alpha1";
import { normalize } from "../../lib/api/normalize";
import { STARTUP_COMMAND } from "../../lib/children/startup-script";
import { planCaBundle } from "../../lib/sync/ca-bundle";
import { sync } from "../../lib/sync/sync";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { ROOT_CA } from "../lib/sync/certificates";
import { shown } from "../shown";
import { aConfigMap, deps, NS, objectMap } from "../sync-builders";
import { GO_OPERATOR_NAMESPACE, GO_STARTUP_SCRIPT, goDesired, type GoCr, type GoSpec } from "./go-operator";

type Json = Record<string, unknown>;
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** v1alpha1 specs the Go operator accepts and v1alpha2 can say (containerSpec present: the CRD default name makes it a converted CR). */
const goSpec: fc.Arbitrary<GoSpec> = fc
  .record(
    {
      replicas: fc.integer({ min: 1, max: 4 }),
      workers: opt(fc.integer({ min: 1, max: 4 })),
      port: opt(fc.integer({ min: 8000, max: 9000 })),
      env: opt(
        fc.uniqueArray(
          fc.record({
            name: fc.constantFrom("OLLAMA_URL", "LLS_WORKERS", "HF_TOKEN", "INFERENCE_MODEL"),
            value: fc.constantFrom("a", "7", "http://x:1/v1"),
          }),
          { maxLength: 3, selector: (e) => e.name },
        ),
      ),
      command: opt(fc.constantFrom(["llama", "stack", "run"], [] as string[])),
      args: opt(fc.constantFrom(["--verbose"], [] as string[])),
      resources: opt(
        fc.constantFrom(
          { requests: { cpu: "500m" } },
          { requests: { cpu: "0", memory: "2Gi" }, limits: { memory: "4Gi" } },
          { limits: { cpu: "2" } },
        ),
      ),
      storage: opt(
        fc.record(
          { size: opt(fc.constantFrom("5Gi", "20Gi")), mountPath: opt(fc.constantFrom("/data", "/home/lls/.lls")) },
          { requiredKeys: [] },
        ),
      ),
      autoscaling: opt(
        fc.record(
          {
            minReplicas: opt(fc.integer({ min: 1, max: 3 })),
            maxReplicas: fc.integer({ min: 2, max: 6 }),
            targetCPUUtilizationPercentage: opt(fc.integer({ min: 50, max: 90 })),
            targetMemoryUtilizationPercentage: opt(fc.integer({ min: 50, max: 90 })),
          },
          { requiredKeys: ["maxReplicas"] },
        ),
      ),
      pdb: opt(fc.constantFrom({ minAvailable: 1 }, { maxUnavailable: "50%" })),
      tsc: opt(
        fc.constant<Json[]>([
          {
            maxSkew: 2,
            topologyKey: "topology.kubernetes.io/zone",
            whenUnsatisfiable: "DoNotSchedule",
            labelSelector: { matchLabels: { app: "llama-stack" } },
          },
        ]),
      ),
      podOverrides: opt(
        fc.record(
          {
            serviceAccountName: opt(fc.constant("custom-sa")),
            terminationGracePeriodSeconds: opt(fc.integer({ min: 0, max: 120 })),
            volumes: opt(fc.constant<Json[]>([{ name: "models", persistentVolumeClaim: { claimName: "models" } }])),
          },
          { requiredKeys: [] },
        ),
      ),
      userConfig: fc.boolean(),
      caBundle: fc.boolean(),
      network: opt(
        fc.record(
          {
            exposeRoute: opt(fc.boolean()),
            allowedFrom: opt(
              fc.record(
                { namespaces: opt(fc.constantFrom(["monitoring"], ["*"])), labels: opt(fc.constant(["team"])) },
                { requiredKeys: [] },
              ),
            ),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: ["replicas", "userConfig", "caBundle"] },
  )
  .map((r): GoSpec => ({
    replicas: r.replicas,
    server: {
      distribution: { name: "starter" },
      containerSpec: {
        name: "llama-stack",
        ...(r.port !== undefined ? { port: r.port } : {}),
        ...(r.env ? { env: r.env } : {}),
        ...(r.command ? { command: r.command } : {}),
        ...(r.args ? { args: r.args } : {}),
        ...(r.resources ? { resources: r.resources } : {}),
      },
      ...(r.workers !== undefined ? { workers: r.workers } : {}),
      ...(r.storage ? { storage: r.storage } : {}),
      ...(r.autoscaling ? { autoscaling: r.autoscaling } : {}),
      ...(r.pdb ? { podDisruptionBudget: r.pdb } : {}),
      ...(r.tsc ? { topologySpreadConstraints: r.tsc } : {}),
      ...(r.podOverrides
        ? {
            podOverrides: {
              ...r.podOverrides,
              ...(r.podOverrides.volumes
                ? { volumeMounts: [{ name: "models", mountPath: "/models", readOnly: true }] }
                : {}),
            },
          }
        : {}),
      ...(r.userConfig ? { userConfig: { configMapName: "llama-config" } } : {}),
      ...(r.caBundle ? { tlsConfig: { caBundle: { configMapName: "corp-ca" } } } : {}),
    },
    ...(r.network ? { network: r.network as NonNullable<GoSpec["network"]> } : {}),
  }))
  .map((spec) => JSON.parse(JSON.stringify(spec)) as GoSpec); // as it travels: no undefined-valued keys

const RELATED = [
  aConfigMap("llama-config", { "config.yaml": "version: 2\nimage_name: starter\napis: []\nproviders: {}\n" }),
  aConfigMap("corp-ca", { "ca-bundle.crt": ROOT_CA }),
];
const CA_DATA = (() => {
  const plan = planCaBundle({
    tls: normalize({
      distribution: { name: "starter" },
      networking: { tls: { caBundle: { configMapName: "corp-ca" } } },
    }).networking.tls,
    related: objectMap(RELATED),
    namespace: NS,
  });
  return "bundle" in plan ? plan.bundle!.data : "";
})();

function both(spec: GoSpec): { go: KubeObject[]; ours: KubeObject[] } {
  const cr: GoCr = { name: "demo", namespace: NS, uid: "uid-1", spec };
  const converted = toHub({
    apiVersion: "llamastack.io/v1alpha1",
    kind: "LlamaStackDistribution",
    metadata: { name: "demo", namespace: NS, uid: "uid-1", generation: 1 },
    spec,
  });
  if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
  const r = sync(
    { parent: converted.object as unknown as KubeObject, children: {}, related: objectMap(RELATED) },
    deps(),
  );
  if (r.status.phase === "Failed") throw new Error(JSON.stringify(r.status.conditions));
  return { go: goDesired(cr, spec.server.tlsConfig ? CA_DATA : undefined), ours: r.children as KubeObject[] };
}

const find = (list: KubeObject[], kind: string) => list.find((o) => o.kind === kind);
const specOf = (o: KubeObject | undefined) => (o?.spec ?? {}) as Json;
const pod = (o: KubeObject | undefined) => (specOf(o).template as { spec: Json }).spec;
const container = (o: KubeObject | undefined) => (pod(o).containers as Json[])[0]!;
/** The value a container sees for each variable (the last entry of a name wins). */
const effectiveEnv = (env: Json[]) => Object.fromEntries(env.map((e) => [e.name as string, e.value]));

/**
 * The one resources difference (docs/migrating-from-go-operator.md): a missing request takes the user's limit, where
 * the Go operator put its default (1 core / 1Gi) even above a smaller limit (an invalid pod).
 */
function withLimitFallback(goResources: Json, spec: GoSpec): Json {
  const user = spec.server.containerSpec?.resources ?? {};
  const requests = { ...(goResources.requests as Json) };
  const missing = (q: unknown, zeroMeansMissing: boolean) =>
    q === undefined || (zeroMeansMissing && Number.parseFloat(shown(q)) === 0);
  if (missing(user.requests?.cpu, true) && user.limits?.cpu !== undefined) requests.cpu = user.limits.cpu;
  if (missing(user.requests?.memory, false) && user.limits?.memory !== undefined) requests.memory = user.limits.memory;
  const limits = goResources.limits as Json | undefined;
  const workers = spec.server.workers !== undefined;
  return {
    requests,
    ...(limits
      ? {
          limits: workers
            ? {
                ...limits,
                ...(user.limits?.cpu === undefined ? { cpu: requests.cpu } : {}),
                ...(user.limits?.memory === undefined ? { memory: requests.memory } : {}),
              }
            : limits,
        }
      : {}),
  };
}

function check(spec: GoSpec): void {
  const { go, ours } = both(spec);
  const hooksNamespace = deps().hooksNamespace;

  // Names, kinds, apiVersions: every Go child is answered (the hooks add a Service when Go had none).
  for (const g of go)
    expect(ours.find((o) => o.kind === g.kind && o.metadata.name === g.metadata.name)?.apiVersion).toBe(g.apiVersion);
  const extra = ours
    .filter((o) => !go.some((g) => g.kind === o.kind && g.metadata.name === o.metadata.name))
    .map((o) => o.kind);
  expect(extra.filter((k) => k !== "Service")).toEqual([]);

  // Deployment: selector, pod labels, replicas, strategy kind.
  const [gd, od] = [find(go, "Deployment"), find(ours, "Deployment")];
  expect(specOf(od).selector).toEqual(specOf(gd).selector);
  expect((specOf(od).template as { metadata: Json }).metadata.labels).toEqual(
    (specOf(gd).template as { metadata: Json }).metadata.labels,
  );
  expect(specOf(od).replicas).toEqual(specOf(gd).replicas);
  expect((specOf(od).strategy as Json).type).toBe((specOf(gd).strategy as Json | undefined)?.type ?? "RollingUpdate");

  // Pod: scheduling, grace period, fsGroup, volumes; serviceAccountName only when the user gave one.
  const [gp, op] = [pod(gd), pod(od)];
  for (const field of ["topologySpreadConstraints", "affinity", "terminationGracePeriodSeconds", "volumes"])
    expect([field, op[field]]).toEqual([field, gp[field]]);
  expect((op.securityContext as Json).fsGroup).toBe((gp.securityContext as Json).fsGroup);
  expect(op.serviceAccountName).toBe(spec.server.podOverrides?.serviceAccountName);

  // Container: name, image, resources, mounts, effective env, command/args, startup probe timings.
  const [gc, oc] = [container(gd), container(od)];
  for (const field of ["name", "image", "volumeMounts", "args"]) expect([field, oc[field]]).toEqual([field, gc[field]]);
  expect(oc.resources).toEqual(withLimitFallback(gc.resources as Json, spec));
  const goCommand = gc.command as string[] | undefined;
  expect(oc.command).toEqual(goCommand?.[2] === GO_STARTUP_SCRIPT ? [...STARTUP_COMMAND] : goCommand);
  const goEnv = effectiveEnv(gc.env as Json[]);
  const ourEnv = effectiveEnv(oc.env as Json[]);
  expect(Object.fromEntries(Object.keys(goEnv).map((k) => [k, ourEnv[k]]))).toEqual(goEnv);
  expect(
    Object.keys(ourEnv)
      .filter((k) => !(k in goEnv))
      .sort(),
  ).toEqual(lineEnv(ourEnv).filter((k) => !(k in goEnv)));
  // The Go operator's own variables come first, in its order (the user's follow).
  const own = spec.server.tlsConfig ? 5 : 4;
  expect((oc.env as Json[]).slice(0, own).map((e) => e.name)).toEqual(
    (gc.env as Json[]).slice(0, own).map((e) => e.name),
  );
  const { httpGet: _g, ...goProbe } = gc.startupProbe as Json;
  const { httpGet: _o, periodSeconds, ...ourProbe } = oc.startupProbe as Json;
  expect([ourProbe, periodSeconds]).toEqual([goProbe, 10]);
  // Rows 20 and 20a: the Go operator has no readiness or liveness probe; ours ask the startup probe's route.
  expect([gc.readinessProbe, gc.livenessProbe]).toEqual([undefined, undefined]);
  for (const probe of [oc.readinessProbe, oc.livenessProbe])
    expect((probe as Json).httpGet).toEqual((oc.startupProbe as Json).httpGet);

  // Service, PVC, PDB, HPA, Ingress, CA bundle: the specs the table marks "same".
  const gs = find(go, "Service");
  if (gs) {
    const { ports: gports, ...gRest } = specOf(gs);
    const { ports: oports, ...oRest } = specOf(find(ours, "Service"));
    expect(oRest).toEqual(gRest);
    expect((oports as Json[]).map(({ targetPort: _t, ...p }) => p)).toEqual(
      (gports as Json[]).map(({ targetPort: _t, ...p }) => p),
    );
  }
  for (const kind of ["PersistentVolumeClaim", "PodDisruptionBudget", "Ingress"])
    expect([kind, specOf(find(ours, kind))]).toEqual([kind, specOf(find(go, kind))]);
  const gh = find(go, "HorizontalPodAutoscaler");
  if (gh) {
    const clamp = {
      ...specOf(gh),
      minReplicas: Math.min(specOf(gh).minReplicas as number, specOf(gh).maxReplicas as number),
    };
    expect(specOf(find(ours, "HorizontalPodAutoscaler"))).toEqual(clamp);
  }
  expect(find(ours, "ConfigMap")?.data).toEqual(find(go, "ConfigMap")?.data);

  // NetworkPolicy: same selector, types and port; the same peers with the hooks' namespace for
  // the operator's, plus ingress-nginx when exposed.
  const [gn, on] = [specOf(find(go, "NetworkPolicy")), specOf(find(ours, "NetworkPolicy"))];
  expect([on.podSelector, on.policyTypes]).toEqual([gn.podSelector, gn.policyTypes]);
  const rule = (n: Json) => (n.ingress as Json[])[0]!;
  expect(rule(on).ports).toEqual(rule(gn).ports);
  const expected = JSON.parse(JSON.stringify(rule(gn).from).replace(GO_OPERATOR_NAMESPACE, hooksNamespace)) as Json[];
  const nginx = { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "ingress-nginx" } } };
  const exposed = spec.network?.exposeRoute === true && !(spec.network.allowedFrom?.namespaces ?? []).includes("*");
  expect(rule(on).from).toEqual(exposed ? [...expected, nginx] : expected);
}

/** What the hooks add for the server line the CR runs: its port variable, HOME and its state directory. */
const lineEnv = (env: { [name: string]: unknown }): string[] =>
  "OGX_PORT" in env ? ["HOME", "OGX_CONFIG_DIR", "OGX_PORT"] : ["HOME", "LLAMA_STACK_CONFIG_DIR", "LLAMA_STACK_PORT"];

/** The Go operator's migration guide's example CR. */
const MIGRATION_GUIDE_CR: GoSpec = {
  replicas: 2,
  server: {
    distribution: { name: "starter" },
    containerSpec: { name: "llama-stack", port: 8321 },
    workers: 4,
    storage: {},
    autoscaling: { minReplicas: 2, maxReplicas: 10 },
    tlsConfig: { caBundle: { configMapName: "corp-ca" } },
  },
  network: { exposeRoute: true },
};

/** More than one pod: replicas above 1, or an HPA that may go there. */
const runsSeveralPods = (spec: GoSpec): boolean =>
  (spec.replicas ?? 1) > 1 || (spec.server.autoscaling?.maxReplicas ?? 1) > 1;

/**
 * The CR on a userConfig without pod-local state (llama-config: no providers, no stores), and
 * without the ReadWriteOnce volume, which one pod alone can mount (docs/scaling.md).
 */
const onSharedState = (spec: GoSpec): GoSpec => {
  const { storage: _volume, ...server } = spec.server;
  return { ...spec, server: { ...server, userConfig: { configMapName: "llama-config" } } };
};

describe("README 'Parity with the Go operator': v1alpha1 CRs, the hooks against the Go operator", () => {
  it("agree on every row marked same, for 150 random v1alpha1 CRs", () => {
    fc.assert(
      fc.property(goSpec, (spec) => {
        // Refused by the hooks (an HPA with min > max, which the apiserver would refuse too): a row of its own below.
        const a = spec.server.autoscaling;
        fc.pre(!a || a.maxReplicas >= Math.max(spec.replicas ?? 1, a.minReplicas ?? 1));
        // Several pods on the image's own state are refused by the hooks (a row of its own below):
        // such a CR runs here on a userConfig that keeps no state inside the pod.
        check(runsSeveralPods(spec) ? onSharedState(spec) : spec);
      }),
      { numRuns: 150 },
    );
  });

  it("refuses what the Go operator would have turned into an HPA the apiserver rejects (replicas above maxReplicas)", () => {
    const spec: GoSpec = {
      replicas: 3,
      server: {
        distribution: { name: "starter" },
        containerSpec: { name: "llama-stack" },
        autoscaling: { maxReplicas: 2 },
      },
    };
    expect(() => both(spec)).toThrow(/spec.workload.replicas: must not exceed autoscaling.maxReplicas \(2\)/);
  });

  // Docs row 26a: the Go operator runs each pod on the image's own config, whose sqlite stores,
  // local files and in-process vector stores stay inside that pod.
  it.each([
    [
      "replicas: 2",
      { replicas: 2, server: { distribution: { name: "starter" }, containerSpec: { name: "llama-stack" } } },
    ],
    [
      "an HPA up to 3 pods",
      {
        replicas: 1,
        server: {
          distribution: { name: "starter" },
          containerSpec: { name: "llama-stack" },
          autoscaling: { maxReplicas: 3 },
        },
      },
    ],
    ["the migration guide's CR", MIGRATION_GUIDE_CR],
  ] as [string, GoSpec][])(
    "refuses several pods on the image's own state, which the Go operator runs pod by pod (%s)",
    (_title, spec) => {
      expect(goDesired({ name: "demo", namespace: NS, uid: "uid-1", spec }, undefined)).toContainEqual(
        expect.objectContaining({ kind: "Deployment" }),
      );
      expect(() => both(spec)).toThrow(/"reason":"UnsharedState".*kept inside each pod/);
    },
  );

  it.each([
    [
      "the migration guide's CR on one pod",
      { ...MIGRATION_GUIDE_CR, replicas: 1, server: { ...MIGRATION_GUIDE_CR.server, autoscaling: undefined } },
    ],
    [
      "a userConfig CR",
      {
        replicas: 1,
        server: {
          distribution: { name: "starter" },
          containerSpec: { name: "llama-stack" },
          userConfig: { configMapName: "llama-config" },
        },
      },
    ],
  ] as [string, GoSpec][])("agree for %s", (_title, spec) => {
    check(spec);
  });
});
