/**
 * The observed-children parser (lib/sync/observed.ts): well-formed children give their fields;
 * a field missing or of the wrong type, or a hostile child, reads as absent — never a throw.
 */
import { observedChildren, observedOf, type Observed } from "../../../lib/status/observed";
import { KEYS, type KubeObject, type ObjectMap } from "../../../lib/wire/metacontroller";

const NAME = "demo";
const NS = "ns";

const child = (kind: string, name: string, rest: { [k: string]: unknown } = {}, metadata = {}): KubeObject => ({
  apiVersion: "v1",
  kind,
  metadata: { name, namespace: NS, ...metadata },
  ...rest,
});

const deployment = (rest: { [k: string]: unknown }, metadata = {}): ObjectMap => ({
  [KEYS.deployment]: { [`${NS}/${NAME}`]: child("Deployment", NAME, rest, metadata) },
});

const wellFormed: ObjectMap = {
  ...deployment(
    {
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: "ogx", tier: 1 } },
        template: {
          spec: {
            containers: [
              {
                name: "llama-stack",
                image: "quay.io/x/distribution-starter:1",
                readinessProbe: { httpGet: { scheme: "HTTPS" } },
              },
              { name: "sidecar", image: "busybox", startupProbe: { httpGet: { scheme: "HTTP" } } },
            ],
            initContainers: [{ name: "provider-a", image: "quay.io/x/a@sha256:1" }],
            volumes: [{ configMap: { name: `${NAME}-config-abc` } }, { emptyDir: {} }],
          },
        },
      },
      status: {
        readyReplicas: 1,
        updatedReplicas: 2,
        replicas: 3,
        observedGeneration: 4,
        conditions: [
          { type: "Available", status: "True", reason: "MinimumReplicasAvailable" },
          { type: "Progressing", status: "False", reason: "ProgressDeadlineExceeded", message: "took too long" },
        ],
      },
    },
    { labels: { app: "x", count: 3 }, annotations: { note: "y" }, generation: 5 },
  ),
  [KEYS.service]: {
    [`${NS}/${NAME}-service`]: child("Service", `${NAME}-service`, { spec: { ports: [{ port: 8321 }] } }),
  },
  [KEYS.networkPolicy]: { [`${NS}/${NAME}-network-policy`]: child("NetworkPolicy", `${NAME}-network-policy`) },
  [KEYS.route]: {
    [`${NS}/${NAME}-route`]: child("Route", `${NAME}-route`, {
      spec: { host: "a.example" },
      status: { ingress: [{ host: "b.example" }] },
    }),
  },
  [KEYS.ingress]: {
    [`${NS}/${NAME}-ingress`]: child("Ingress", `${NAME}-ingress`, {
      spec: { rules: [{ host: "rule.example" }] },
      status: { loadBalancer: { ingress: [{ hostname: "lb.example", ip: "10.0.0.1" }] } },
    }),
  },
  [KEYS.pvc]: { [`${NS}/${NAME}-pvc`]: child("PersistentVolumeClaim", `${NAME}-pvc`) },
  [KEYS.configMap]: { [`${NS}/${NAME}-config-abc`]: child("ConfigMap", `${NAME}-config-abc`, { data: { a: "b" } }) },
};

const parse = (children: ObjectMap | undefined): Observed => observedChildren(children, NAME, NS);

describe("observedChildren(): well-formed children", () => {
  const o = parse(wellFormed);

  it("reads the Deployment's fields", () => {
    expect(o.deployment).toEqual({
      labels: { app: "x" },
      selector: { app: "ogx" },
      annotations: { note: "y" },
      replicas: 2,
      readyReplicas: 1,
      updatedReplicas: 2,
      totalReplicas: 3,
      generation: 5,
      observedGeneration: 4,
      progressDeadlineExceeded: "took too long",
      containers: [
        { name: "llama-stack", image: "quay.io/x/distribution-starter:1", httpsProbe: true },
        { name: "sidecar", image: "busybox", httpsProbe: false },
      ],
      initContainers: [{ name: "provider-a", image: "quay.io/x/a@sha256:1" }],
      configMapVolumes: [`${NAME}-config-abc`],
      template: (wellFormed[KEYS.deployment]![`${NS}/${NAME}`]!.spec as { template: unknown }).template,
    });
  });

  it("reads the Service port, the NetworkPolicy, the Route and the Ingress", () => {
    expect(o.service).toEqual({ port: 8321 });
    expect(o.networkPolicy).toBe(true);
    expect(o.route).toEqual({ host: "a.example", admittedHost: "b.example" });
    expect(o.ingress).toEqual({
      loadBalancerHostname: "lb.example",
      loadBalancerIp: "10.0.0.1",
      ruleHost: "rule.example",
    });
  });

  it("keeps the PVC and the mounted ConfigMap raw (re-emitted as they are)", () => {
    expect(o.pvc).toBe(wellFormed[KEYS.pvc]![`${NS}/${NAME}-pvc`]);
    expect(o.mountedConfigMap).toBe(wellFormed[KEYS.configMap]![`${NS}/${NAME}-config-abc`]);
  });

  it("accepts hook v1 keying (name only) and reads the request's parent", () => {
    const v1: ObjectMap = { [KEYS.service]: { [`${NAME}-service`]: child("Service", `${NAME}-service`) } };
    expect(parse(v1).service).toEqual({});
    const parent = child("LlamaStackDistribution", NAME);
    expect(observedOf({ parent, children: wellFormed })).toEqual(o);
  });
});

describe("observedChildren(): nothing observed", () => {
  it.each([
    ["no children map", undefined],
    ["an empty map", {}],
    ["children of another CR", { [KEYS.deployment]: { [`${NS}/other`]: child("Deployment", "other") } }],
  ])("%s: everything absent", (_, children) => {
    expect(parse(children)).toEqual({ networkPolicy: false });
  });
});

describe("observedChildren(): a Deployment field missing or of the wrong type reads as absent", () => {
  const empty = {
    labels: {},
    selector: {},
    annotations: {},
    readyReplicas: 0,
    updatedReplicas: 0,
    totalReplicas: 0,
    containers: [],
    initContainers: [],
    configMapVolumes: [],
    template: {},
  };
  it.each<[string, { [k: string]: unknown }, object]>([
    ["no spec, no status", {}, {}],
    ["spec a string", { spec: "x" }, {}],
    ["spec null", { spec: null }, {}],
    ["spec an array", { spec: [1, 2] }, {}],
    ["replicas a string", { spec: { replicas: "2" } }, {}],
    ["status a string", { status: "Ready" }, {}],
    ["readyReplicas a string", { status: { readyReplicas: "1", updatedReplicas: null } }, {}],
    ["generations of the wrong type", { metadata: { generation: "2" }, status: { observedGeneration: [1] } }, {}],
    ["conditions an object", { status: { conditions: { type: "Progressing" } } }, {}],
    [
      "a Progressing condition of the wrong shape",
      { status: { conditions: [null, "x", { type: "Progressing", reason: ["ProgressDeadlineExceeded"] }] } },
      {},
    ],
    ["template null", { spec: { template: null } }, {}],
    ["template a number", { spec: { template: 7 } }, { template: 7 }],
    ["pod spec an array", { spec: { template: { spec: [] } } }, { template: { spec: [] } }],
    [
      "containers an object",
      { spec: { template: { spec: { containers: { name: "a" } } } } },
      { template: { spec: { containers: { name: "a" } } } },
    ],
    [
      "containers of strings, null and arrays",
      { spec: { template: { spec: { containers: ["a", null, [1], { name: 5, image: ["x"] }] } } } },
      {
        template: { spec: { containers: ["a", null, [1], { name: 5, image: ["x"] }] } },
        containers: [{ httpsProbe: false }],
      },
    ],
    [
      "probes of the wrong shape",
      { spec: { template: { spec: { containers: [{ readinessProbe: "HTTPS", startupProbe: { httpGet: [] } }] } } } },
      {
        template: { spec: { containers: [{ readinessProbe: "HTTPS", startupProbe: { httpGet: [] } }] } },
        containers: [{ httpsProbe: false }],
      },
    ],
    [
      "volumes of the wrong shape",
      { spec: { template: { spec: { volumes: [null, "v", { configMap: "x" }, { configMap: { name: 3 } }] } } } },
      { template: { spec: { volumes: [null, "v", { configMap: "x" }, { configMap: { name: 3 } }] } } },
    ],
    ["a selector of the wrong shape", { spec: { selector: { matchLabels: ["app"] } } }, {}],
    [
      "initContainers a string",
      { spec: { template: { spec: { initContainers: "x" } } } },
      { template: { spec: { initContainers: "x" } } },
    ],
  ])("%s", (_, rest, expected) => {
    expect(parse(deployment(rest)).deployment).toEqual({ ...empty, ...expected });
  });

  it.each<[string, unknown]>([
    ["labels a string", "x"],
    ["labels an array", ["a"]],
    ["labels null", null],
    ["label values not strings", { a: 1, b: null, c: {} }],
  ])("%s: no labels", (_, labels) => {
    expect(parse(deployment({}, { labels, annotations: labels })).deployment).toMatchObject({
      labels: {},
      annotations: {},
    });
  });

  it("a mounted ConfigMap that is not an observed child, or not ours, is not kept", () => {
    const mounts = (name: string): ObjectMap =>
      deployment({ spec: { template: { spec: { volumes: [{ configMap: { name } }] } } } });
    expect(parse(mounts(`${NAME}-config-abc`)).mountedConfigMap).toBeUndefined();
    const other = {
      ...mounts("user-config"),
      [KEYS.configMap]: { [`${NS}/user-config`]: child("ConfigMap", "user-config") },
    };
    expect(parse(other).mountedConfigMap).toBeUndefined();
  });
});

describe("observedChildren(): Service, Route and Ingress of the wrong shape", () => {
  const one = (key: string, name: string, rest: { [k: string]: unknown }): ObjectMap => ({
    [key]: { [`${NS}/${name}`]: child("X", name, rest) },
  });
  it.each<[string, { [k: string]: unknown }]>([
    ["no spec", {}],
    ["ports a string", { spec: { ports: "8321" } }],
    ["ports an object", { spec: { ports: { 0: { port: 8321 } } } }],
    ["port a string", { spec: { ports: [{ port: "8321" }] } }],
    ["first port null", { spec: { ports: [null, { port: 1 }] } }],
  ])("Service with %s: observed, no port", (_, rest) => {
    expect(parse(one(KEYS.service, `${NAME}-service`, rest)).service).toEqual({});
  });

  it.each<[string, { [k: string]: unknown }, object]>([
    ["no spec or status", {}, {}],
    ["host a number", { spec: { host: 5 } }, {}],
    ["ingress a string", { status: { ingress: "h" } }, {}],
    ["host empty", { spec: { host: "" } }, { host: "" }],
  ])("Route with %s", (_, rest, expected) => {
    expect(parse(one(KEYS.route, `${NAME}-route`, rest)).route).toEqual(expected);
  });

  it.each<[string, { [k: string]: unknown }, object]>([
    ["no spec or status", {}, {}],
    ["loadBalancer an array", { status: { loadBalancer: [] } }, {}],
    ["ingress entries of the wrong type", { status: { loadBalancer: { ingress: [{ hostname: 1, ip: {} }] } } }, {}],
    ["rules a string", { spec: { rules: "r" } }, {}],
    ["an ip only", { status: { loadBalancer: { ingress: [{ ip: "10.0.0.2" }] } } }, { loadBalancerIp: "10.0.0.2" }],
  ])("Ingress with %s", (_, rest, expected) => {
    expect(parse(one(KEYS.ingress, `${NAME}-ingress`, rest)).ingress).toEqual(expected);
  });
});

describe("observedChildren(): hostile children never throw", () => {
  const hostile: unknown[] = [
    null,
    "deployment",
    42,
    [],
    [null],
    { metadata: null },
    { spec: { template: { spec: null } } },
  ];
  it.each(hostile.map((value) => [JSON.stringify(value), value]))("%s", (_, value) => {
    const names = ["", "-service", "-route", "-ingress", "-pvc", "-network-policy"].map(
      (suffix) => `${NS}/${NAME}${suffix}`,
    );
    const children = Object.fromEntries(
      Object.values(KEYS).map((key) => [key, Object.fromEntries(names.map((n) => [n, value]))]),
    ) as unknown as ObjectMap;
    expect(() => parse(children)).not.toThrow();
    const o = parse(children);
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      // A null entry is no entry (as `lookup` reads it); any other value is a NetworkPolicy that exists.
      expect(o).toEqual({ networkPolicy: value !== null });
    }
  });
});
