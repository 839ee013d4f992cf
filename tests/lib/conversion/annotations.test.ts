/**
 * What rides in the two annotations, what comes back, and what happens when the object was
 * edited in the other version in between (the edit wins; nothing stale resurfaces).
 */
import { ANNOTATIONS_LIMIT_BYTES, V1ALPHA1_FIELDS, V1ALPHA2_FIELDS } from "../../../lib/conversion/annotations";
import { setPath, type JsonMap } from "../../../lib/json";
import { fromHub, toHub } from "../../../lib/conversion/v1alpha1";
import { aV1, aV2, at, kept, ok, type Obj } from "./builders";
import { v1alpha1Errors, v1alpha2Errors } from "./object-schemas";

const edit = (object: Obj, path: string, value: unknown): Obj => {
  const copy = structuredClone<JsonMap>(object);
  setPath(copy, path.split("."), value);
  return copy;
};
const without = (object: Obj, path: string): Obj => {
  const copy = structuredClone(object);
  const segments = path.split(".");
  delete (at(copy, segments.slice(0, -1).join(".")) as Obj)[segments[segments.length - 1]!];
  return copy;
};

type Convert = (object: Obj) => Parameters<typeof ok>[0];

/** `object` converted `there`: what rides in its `annotation`, a valid object, and `back` gives `object` again. */
function expectCarried(
  way: { object: Obj; there: Convert; back: Convert; annotation: string },
  expected: { [path: string]: unknown },
): void {
  const converted = ok(way.there(way.object));
  const errors = way.there === toHub ? v1alpha2Errors(converted) : v1alpha1Errors(converted);

  expect(kept(converted, way.annotation)).toStrictEqual(expected);
  expect(errors).toEqual([]);
  expect(ok(way.back(converted))).toStrictEqual(way.object);
}

describe("fields v1alpha2 cannot hold (llamastack.io/v1alpha1-fields on the v1alpha2 object)", () => {
  it.each([
    [
      "containerSpec.name",
      { "spec.server.containerSpec": { name: "llama-stack", port: 8321 } },
      { "spec.server.containerSpec.name": "llama-stack" },
    ],
    [
      "userConfig.configMapNamespace",
      { "spec.server.userConfig": { configMapName: "c", configMapNamespace: "other" } },
      { "spec.server.userConfig.configMapNamespace": "other" },
    ],
    [
      "caBundle.configMapNamespace",
      { "spec.server.tlsConfig.caBundle": { configMapName: "ca", configMapNamespace: "x" } },
      { "spec.server.tlsConfig.caBundle.configMapNamespace": "x" },
    ],
    [
      "an empty caBundle key list",
      { "spec.server.tlsConfig.caBundle": { configMapName: "ca", configMapKeys: [] } },
      { "spec.server.tlsConfig.caBundle.configMapKeys": [] },
    ],
    ["port 0 (v1alpha1's 'unset')", { "spec.server.containerSpec.port": 0 }, { "spec.server.containerSpec.port": 0 }],
    ["negative replicas", { "spec.replicas": -1 }, { "spec.replicas": -1 }],
    [
      "an autoscaler without a valid maximum",
      { "spec.server.autoscaling": { maxReplicas: 0 } },
      { "spec.server.autoscaling": { maxReplicas: 0 } },
    ],
    ["an empty containerSpec", { "spec.server.containerSpec": {} }, { "spec.server.containerSpec": {} }],
  ])("keeps %s", (_title, fields, annotation) => {
    expectCarried({ object: aV1(fields), there: toHub, back: fromHub, annotation: V1ALPHA1_FIELDS }, annotation);
  });

  it("moves what fits of a partly invalid object: storage {mountPath: ''} still creates the PVC", () => {
    const hub = ok(toHub(aV1({ "spec.server.storage": { size: "5Gi", mountPath: "" } })));

    expect(at(hub, "spec.workload.storage")).toStrictEqual({ size: "5Gi" });
    expect(kept(hub, V1ALPHA1_FIELDS)).toStrictEqual({ "spec.server.storage.mountPath": "" });
  });

  it("keeps a CPU target v1alpha2 refuses and moves the rest of the autoscaler", () => {
    const hub = ok(toHub(aV1({ "spec.server.autoscaling": { maxReplicas: 5, targetCPUUtilizationPercentage: 150 } })));

    expect(at(hub, "spec.workload.autoscaling")).toStrictEqual({ maxReplicas: 5 });
    expect(kept(hub, V1ALPHA1_FIELDS)).toStrictEqual({ "spec.server.autoscaling.targetCPUUtilizationPercentage": 150 });
  });

  it("keeps unknown fields under a quoted path, even `__proto__`", () => {
    // JSON.parse makes `__proto__` an own field, as express's body parser does.
    const v1 = aV1(
      {},
      { spec: JSON.parse('{"server": {"distribution": {}}, "x.y": 1, "__proto__": {"polluted": true}}') },
    );

    const hub = ok(toHub(v1));

    expect(kept(hub, V1ALPHA1_FIELDS)).toStrictEqual(
      JSON.parse('{"spec[\\"x.y\\"]": 1, "spec.__proto__": {"polluted": true}}'),
    );
    expect(ok(fromHub(hub))).toStrictEqual(v1);
    const fresh: Obj = {};
    expect(fresh.polluted).toBeUndefined();
  });
});

describe("fields v1alpha1 cannot hold (llamastack.io/v1alpha2-fields on the v1alpha1 object)", () => {
  const rich = aV2({
    "spec.providers": { inference: { provider: "vllm", endpoint: "http://vllm:8000" } },
    "spec.resources": { models: ["llama3.2:1b"] },
    "spec.storage": { sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } },
    "spec.disabled": ["telemetry"],
    "spec.externalProviders": { inference: [{ providerId: "x", image: "quay.io/x:1" }] },
    "spec.networking": {
      port: 8321,
      tls: { enabled: true, secretName: "tls" },
      expose: { hostname: "llsd.example.com" },
    },
    "status.configGeneration": { configMapName: "my-llsd-config-abc", providerCount: 1 },
    "status.resolvedDistribution": {
      image: "docker.io/llamastack/distribution-starter:0.6.1",
      configSource: "embedded",
    },
    "status.notes": ["added /v1"],
  });

  it("keeps every v1alpha2-only field, and `expose: {hostname}` becomes exposeRoute: true", () => {
    const spoke = ok(fromHub(rich));

    expect(at(spoke, "spec.network.exposeRoute")).toBe(true);
    expect(Object.keys(kept(spoke, V1ALPHA2_FIELDS) ?? {})).toEqual([
      "spec.disabled",
      "spec.externalProviders",
      "spec.networking.expose",
      "spec.networking.tls.enabled",
      "spec.networking.tls.secretName",
      "spec.providers",
      "spec.resources",
      "spec.storage",
      "status.configGeneration",
      "status.notes",
      "status.resolvedDistribution",
    ]);
    expect(v1alpha1Errors(spoke)).toEqual([]);
    expect(ok(toHub(spoke))).toStrictEqual(rich);
  });

  it("keeps registryRefreshIntervalSeconds and the pod's DRA claims; the container's claims move to containerSpec", () => {
    const claims = [{ name: "gpu", request: "big" }];
    const dra = aV2({
      "spec.registryRefreshIntervalSeconds": 60,
      "spec.workload.resources": { requests: { cpu: "1" }, claims },
      "spec.workload.resourceClaims": [
        { name: "gpu", resourceClaimTemplateName: "one-gpu" },
        { name: "nic", resourceClaimName: "shared-nic" },
      ],
    });
    const spoke = ok(fromHub(dra));

    expect(at(spoke, "spec.server.containerSpec.resources.claims")).toEqual(claims);
    expect(Object.keys(kept(spoke, V1ALPHA2_FIELDS) ?? {})).toEqual([
      "spec.registryRefreshIntervalSeconds",
      "spec.workload.resourceClaims",
    ]);
    expect(v1alpha1Errors(spoke)).toEqual([]);
    expect(ok(toHub(spoke))).toStrictEqual(dra);
  });

  it.each([[{ name: "GPU_0" }], [{ name: "gpu", device: "0" }]])(
    "a v1alpha1 container claim v1alpha2 refuses (%j) rides in the annotation and comes back",
    (claim) => {
      const spoke = aV1({ "spec.server.containerSpec.resources": { limits: { cpu: "1" }, claims: [claim] } });
      const hub = ok(toHub(spoke));

      expect(at(hub, "spec.workload.resources")).toEqual({ limits: { cpu: "1" } });
      expect(v1alpha2Errors(hub)).toEqual([]);
      expect(ok(fromHub(hub))).toStrictEqual(spoke);
    },
  );

  it.each([
    [
      "a list of CA ConfigMaps",
      { "spec.networking.tls.caBundle": [{ configMapName: "a" }, { configMapName: "b", configMapKeys: ["x.crt"] }] },
      { "spec.networking.tls.caBundle": [{ configMapName: "a" }, { configMapName: "b", configMapKeys: ["x.crt"] }] },
    ],
    [
      "overrideConfig.key",
      { "spec.overrideConfig": { configMapName: "cfg", key: "run.yaml" } },
      { "spec.overrideConfig.key": "run.yaml" },
    ],
    [
      "baseConfig",
      { "spec.baseConfig": { configMapName: "base", key: "run.yaml" } },
      { "spec.baseConfig": { configMapName: "base", key: "run.yaml" } },
    ],
  ])("keeps %s, and gives it back unchanged", (_what, fields, annotation) => {
    expectCarried({ object: aV2(fields), there: fromHub, back: toHub, annotation: V1ALPHA2_FIELDS }, annotation);
  });

  it.each([
    [{ enabled: false, hostname: "h" }, false],
    [{}, true],
    [{ enabled: true }, true],
  ])("expose %j means exposeRoute: %s", (expose, route) => {
    const spoke = ok(fromHub(aV2({ "spec.networking.expose": expose })));

    expect(at(spoke, "spec.network.exposeRoute")).toBe(route);
    expect(at(ok(toHub(spoke)), "spec.networking.expose")).toStrictEqual(expose);
  });

  it("removes the annotation it restored, keeps every other annotation, and drops a map left empty", () => {
    const annotated = edit(rich, "metadata.annotations", { "team.example.com/owner": "ml" });

    const back = ok(toHub(ok(fromHub(annotated))));
    expect((back.metadata as Obj).annotations).toStrictEqual({ "team.example.com/owner": "ml" });
    expect(ok(toHub(ok(fromHub(rich)))).metadata).toStrictEqual(rich.metadata);
  });
});

describe("an object edited in the other version", () => {
  it("uses the edit when exposeRoute changed, instead of the stale expose object", () => {
    const spoke = edit(
      ok(fromHub(aV2({ "spec.networking.expose": { hostname: "h" } }))),
      "spec.network.exposeRoute",
      false,
    );

    expect(at(ok(toHub(spoke)), "spec.networking.expose")).toBe(false);
  });

  it("keeps TLS serving when the CA bundle is removed in v1alpha1", () => {
    const v2 = aV2({ "spec.networking.tls": { enabled: true, secretName: "tls", caBundle: { configMapName: "ca" } } });
    const spoke = without(ok(fromHub(v2)), "spec.server.tlsConfig");

    expect(at(ok(toHub(spoke)), "spec.networking.tls")).toStrictEqual({ enabled: true, secretName: "tls" });
  });

  it("drops userConfig.configMapNamespace when overrideConfig was removed in v1alpha2", () => {
    const hub = without(
      ok(toHub(aV1({ "spec.server.userConfig": { configMapName: "c", configMapNamespace: "ns" } }))),
      "spec.overrideConfig",
    );

    const spoke = ok(fromHub(hub));
    expect(at(spoke, "spec.server.userConfig")).toBeUndefined();
    expect(v1alpha1Errors(spoke)).toEqual([]);
  });

  it("uses an autoscaler added in v1alpha2 over the invalid one kept from v1alpha1", () => {
    const hub = edit(ok(toHub(aV1({ "spec.server.autoscaling": { maxReplicas: 0 } }))), "spec.workload.autoscaling", {
      maxReplicas: 3,
    });

    expect(at(ok(fromHub(hub)), "spec.server.autoscaling")).toStrictEqual({ maxReplicas: 3 });
  });

  it("keeps containerSpec.name when the port is removed in v1alpha2", () => {
    const hub = without(
      ok(toHub(aV1({ "spec.server.containerSpec": { name: "server", port: 9000 } }))),
      "spec.networking",
    );

    expect(at(ok(fromHub(hub)), "spec.server.containerSpec")).toStrictEqual({ name: "server" });
  });
});

describe("a malformed annotation", () => {
  const path = `metadata.annotations["${V1ALPHA2_FIELDS}"]`;
  it.each([
    ["not JSON", "{oops", "is not valid JSON"],
    ["not an object", "[1]", "must be a JSON object"],
    ["an entry outside spec and status", '{"metadata.name":"x"}', 'entry "metadata.name" is not a field path'],
    ["an entry that is not a path", '{"spec..x":1}', 'entry "spec..x" is not a field path'],
  ])("(%s) is an error with its path, never quoting its text", (_title, text, message) => {
    const result = toHub(aV1({}, { metadata: { name: "a", annotations: { [V1ALPHA2_FIELDS]: text } } }));

    expect(result).toEqual({ ok: false, errors: [{ path, message: expect.stringContaining(message) }] });
    if (!result.ok) expect(result.errors[0]?.message).not.toContain(text);
  });

  it("that would pass the apiserver's 256 KiB annotation limit is an error", () => {
    const huge = aV2({
      "spec.resources": { models: Array.from({ length: 9000 }, (_, i) => `model-${i}-${"x".repeat(20)}`) },
    });

    const result = fromHub(huge);
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          path: `metadata.annotations["${V1ALPHA2_FIELDS}"]`,
          message: expect.stringContaining(`${ANNOTATIONS_LIMIT_BYTES}`),
        },
      ],
    });
  });
});

describe("objects no conversion can get past", () => {
  it.each([
    ["not an object", 42, "(root)"],
    ["the wrong version", aV2(), "apiVersion"],
    ["another kind", aV1({}, { kind: "Deployment" }), "kind"],
    ["no metadata", aV1({}, { metadata: "x" }), "metadata"],
    [
      "annotations that are not strings",
      aV1({}, { metadata: { name: "a", annotations: { a: 1 } } }),
      "metadata.annotations",
    ],
    ["no spec", aV1({}, { spec: null }), "spec"],
    ["a status that is not an object", aV1({}, { status: [] }), "status"],
  ])("%s → an error at %s", (_title, object, path) => {
    const result = toHub(object);

    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.path)).toEqual([path]);
  });
});
