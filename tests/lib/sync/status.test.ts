/** Status is computed from the request alone and does not churn. */
import { compile, schemaErrors } from "../../../lib/api/schema";
import { V1ALPHA2_STATUS_SCHEMA } from "../../../lib/api/schema-status-v1alpha2";
import { toConditions, type Condition } from "../../../lib/status/conditions";
import { sync } from "../../../lib/sync/sync";
import { aParent, aRequest, aSecret, deps, observedFrom, T0 } from "../../sync-builders";

const spec = {
  distribution: { name: "starter" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } } },
  resources: { models: ["llama3"] },
  networking: { expose: { hostname: "llama.example.com" } },
};
const secret = aSecret("creds", { token: "t" });
const later = new Date(T0.getTime() + 3_600_000);
const statusSchema = compile(V1ALPHA2_STATUS_SCHEMA);

function firstAndObserved(readyReplicas = 1) {
  const first = sync(aRequest(aParent(spec), [], [secret]), deps());
  return { first, observed: observedFrom(first.children, readyReplicas) };
}

describe("status", () => {
  it("given two identical requests, gives identical status", () => {
    const { observed } = firstAndObserved();
    const request = aRequest(aParent(spec), observed, [secret]);
    expect(sync(request, deps(later))).toEqual(sync(structuredClone(request), deps(later)));
  });

  it("keeps lastTransitionTime and generatedAt while the values stay, even as the clock moves", () => {
    const { first, observed } = firstAndObserved();
    const again = sync(aRequest(aParent(spec, { status: first.status }), observed, [secret]), deps(later));
    const byType = (s: typeof first.status) =>
      Object.fromEntries(
        (s.conditions as { type: string; lastTransitionTime: string }[]).map((c) => [c.type, c.lastTransitionTime]),
      );
    expect(byType(again.status).ConfigGenerated).toBe(byType(first.status).ConfigGenerated);
    expect(byType(again.status).SecretsResolved).toBe(byType(first.status).SecretsResolved);
    expect(byType(again.status).DeploymentReady).toBe("2026-11-22T11:00:00Z");
    expect((again.status.configGeneration as { generatedAt: string }).generatedAt).toBe("2026-11-22T10:00:00Z");
  });

  it("moves generatedAt when the config changes", () => {
    const { first, observed } = firstAndObserved();
    const changed = { ...spec, resources: { models: ["llama3", "llama4"] } };
    const again = sync(aRequest(aParent(changed, { status: first.status }), observed, [secret]), deps(later));
    expect((again.status.configGeneration as { generatedAt: string }).generatedAt).toBe("2026-11-22T11:00:00Z");
  });

  it.each([
    ["no Deployment yet", 0, "Pending", false],
    ["a Deployment with no ready pods", 0, "Initializing", true],
    ["a ready Deployment", 1, "Ready", true],
  ])("given %s, the phase is %s", (_title, ready, phase, observedYet) => {
    const { observed } = firstAndObserved(ready);
    const response = sync(aRequest(aParent(spec), observedYet ? observed : [], [secret]), deps());
    expect(response.status.phase).toBe(phase);
    expect(response.resyncAfterSeconds === undefined).toBe(phase === "Ready");
  });

  it("fills serviceURL, routeURL, resolvedDistribution and configGeneration from what was observed", () => {
    const { observed } = firstAndObserved();
    const status = sync(aRequest(aParent(spec, { generation: 7 }), observed, [secret]), deps()).status;
    expect(status).toEqual(
      expect.objectContaining({
        observedGeneration: 7,
        availableReplicas: 1,
        serviceURL: "http://demo-service.team-a.svc.cluster.local:8321",
        routeURL: "http://llama.example.com",
        resolvedDistribution: {
          image: "docker.io/ogxai/distribution-starter:1.3.0",
          configSource: "embedded",
          configHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        },
        configGeneration: expect.objectContaining({
          configMapName: expect.stringMatching(/^demo-config-[0-9a-f]{10}$/),
          configVersion: 2,
        }),
      }),
    );
  });

  /** The Service's URL is in the scheme the observed pods serve: https once TLS is on, as the probes use. */
  const tls = { ...spec, networking: { ...spec.networking, tls: { enabled: true, secretName: "llsd-tls" } } };
  const tlsSecret = aSecret("llsd-tls", { "tls.crt": "cert", "tls.key": "key" });
  it.each([
    ["plain HTTP", "http", spec],
    ["TLS", "https", tls],
  ])("gives serviceURL in the scheme the pods serve: %s → %s", (_title, scheme, s) => {
    const first = sync(aRequest(aParent(s), [], [secret, tlsSecret]), deps());
    const observed = observedFrom(first.children);
    const probe = JSON.stringify(observed.find((o) => o.kind === "Deployment"));
    expect(probe).toContain(`"scheme":"${scheme.toUpperCase()}"`);
    const good = sync(aRequest(aParent(s), observed, [secret, tlsSecret]), deps()).status;
    // A failed sync keeps the running pods, which still serve as before.
    const failing = sync(aRequest(aParent(s), observed, [tlsSecret]), deps()).status;
    expect([good.phase, failing.phase]).toEqual(["Ready", "Failed"]);
    expect([good.serviceURL, failing.serviceURL]).toEqual(
      Array(2).fill(`${scheme}://demo-service.team-a.svc.cluster.local:8321`),
    );
  });

  it.each([
    ["a plain Ingress", spec.networking.expose, "http://llama.example.com"],
    [
      "an Ingress with TLS at the edge",
      { ...spec.networking.expose, tls: { secretName: "edge" } },
      "https://llama.example.com",
    ],
  ])("gives routeURL in the scheme the observed Ingress serves: %s", (_title, expose, url) => {
    const s = { ...spec, networking: { expose } };
    const observed = observedFrom(sync(aRequest(aParent(s), [], [secret]), deps()).children);
    expect(sync(aRequest(aParent(s), observed, [secret]), deps()).status.routeURL).toBe(url);
  });

  it("fails a Gateway exposure that names no Gateway, with the fix, and lists no HTTPRoute", () => {
    const response = sync(aRequest(aParent(spec), [], [secret]), { ...deps(), exposeWith: "gateway" });
    expect(response.status.phase).toBe("Failed");
    expect(JSON.stringify(response.status.conditions)).toContain("spec.networking.expose.parentRefs: ");
    expect(response.children.filter((c) => c.kind === "HTTPRoute")).toEqual([]);
  });

  it.each([
    ["a good sync", spec, [secret]],
    ["a failed sync", spec, []],
    ["an invalid spec", { distribution: {} }, []],
    ["the image default", { distribution: { name: "starter" } }, []],
  ])("after %s, validates against the CRD status schema (with observedGeneration)", (_title, s, related) => {
    const status = sync(aRequest(aParent(s), [], related), deps()).status;
    expect(schemaErrors(statusSchema, { ...status, observedGeneration: 3 })).toEqual([]);
  });
});

describe("a previous status in an unexpected shape", () => {
  it.each([
    ["conditions as an object", { conditions: { type: "x" } }],
    ["conditions with junk entries", { conditions: [null, 3, { type: "ConfigGenerated" }] }],
    ["configGeneration as a string", { configGeneration: "x" }],
    ["a string", "Ready"],
  ])("given %s, is ignored rather than failing the sync", (_title, status) => {
    const response = sync(aRequest(aParent(spec, { status: status as object }), [], [secret]), deps());
    expect(response.status.phase).toBe("Pending");
  });
});

describe("rollout safety", () => {
  it("keeps the ConfigMap the running pods mount until the Deployment moves off it", () => {
    const { observed } = firstAndObserved();
    const oldName = observed.find((o) => o.kind === "ConfigMap")?.metadata.name;
    const changed = { ...spec, resources: { models: ["llama3", "llama4"] } };
    const next = sync(aRequest(aParent(changed), observed, [secret]), deps());
    const configMaps = next.children.filter((c) => c.kind === "ConfigMap").map((c) => c.metadata.name);
    expect(configMaps).toHaveLength(2);
    expect(configMaps).toContain(oldName);
    const settled = sync(aRequest(aParent(changed), observedFrom(next.children), [secret]), deps());
    expect(settled.children.filter((c) => c.kind === "ConfigMap").map((c) => c.metadata.name)).not.toContain(oldName);
  });

  it("given whitespace-only spec changes, produces the same ConfigMap name (no restart)", () => {
    const a = sync(aRequest(aParent(spec), [], [secret]), deps());
    const reordered = {
      resources: spec.resources,
      networking: spec.networking,
      providers: spec.providers,
      distribution: spec.distribution,
    };
    const b = sync(aRequest(aParent(reordered), [], [secret]), deps());
    expect(b.children).toEqual(a.children);
  });
});

describe("conditions follow the Kubernetes convention", () => {
  const earlier: Condition = {
    type: "ConfigGenerated",
    status: "True",
    reason: "ConfigGenerationSucceeded",
    message: "Generated config.yaml with 1 providers",
    lastTransitionTime: "2026-11-22T09:00:00Z",
  };
  // lastTransitionTime is when `status` last changed: a new message or reason alone is no transition.
  it.each([
    [
      "the same condition",
      { status: "True", reason: "ConfigGenerationSucceeded", message: "Generated config.yaml with 1 providers" },
      "2026-11-22T09:00:00Z",
    ],
    [
      "only the message changes",
      { status: "True", reason: "ConfigGenerationSucceeded", message: "Generated config.yaml with 2 providers" },
      "2026-11-22T09:00:00Z",
    ],
    [
      "only the reason changes",
      { status: "True", reason: "UsingOverrideConfig", message: "Using config.yaml from ConfigMap cm" },
      "2026-11-22T09:00:00Z",
    ],
    ["status True → False", { status: "False", reason: "InvalidSpec", message: "spec.x: bad" }, "2026-11-22T10:00:00Z"],
    [
      "status True → Unknown",
      { status: "Unknown", reason: "NotChecked", message: "not checked" },
      "2026-11-22T10:00:00Z",
    ],
  ] as const)("%s", (_what, now, expected) => {
    const [c] = toConditions([{ type: "ConfigGenerated", ...now }], [earlier], () => T0, 3);
    expect(c).toEqual({ type: "ConfigGenerated", ...now, lastTransitionTime: expected, observedGeneration: 3 });
  });

  it("through the sync: a spec edit that only changes a condition's message keeps its lastTransitionTime", () => {
    const { first, observed } = firstAndObserved();
    const edited = { ...spec, resources: { models: ["llama3", "llama3-big"] } };
    const again = sync(
      aRequest(aParent(edited, { status: first.status, generation: 2 }), observed, [secret]),
      deps(later),
    );
    const configOf = (s: typeof first.status) =>
      (s.conditions as Condition[]).find((c) => c.type === "ConfigGenerated")!;
    expect(configOf(again.status).message).not.toBe(configOf(first.status).message);
    expect(configOf(again.status)).toMatchObject({
      status: "True",
      lastTransitionTime: configOf(first.status).lastTransitionTime,
    });
  });
});

describe("a failed sync reports only what it checked", () => {
  const conditionOf = (r: ReturnType<typeof sync>, type: string) =>
    (r.status.conditions as Condition[]).find((c) => c.type === type);

  it("an invalid spec: SecretsResolved Unknown (not checked), no config source claimed", () => {
    const r = sync(
      aRequest(aParent({ ...spec, resources: { models: [{ name: "m", modelType: "nonsense" }] } }), [], [secret]),
      deps(),
    );
    expect(r.status.phase).toBe("Failed");
    expect(conditionOf(r, "SecretsResolved")).toMatchObject({ status: "Unknown", reason: "NotChecked" });
  });

  it("a failure after the Secrets were checked: SecretsResolved counts the references the spec has", () => {
    // The base config comes back unusable: the Secrets were found first.
    const r = sync(aRequest(aParent(spec), [], [secret]), deps(), {
      base: { text: "version: 3\nproviders: {}\n", source: "oci-label", digest: "sha256:0" },
      notes: [],
    });
    expect(r.status.phase).toBe("Failed");
    expect(conditionOf(r, "SecretsResolved")).toMatchObject({
      status: "True",
      reason: "AllSecretsFound",
      message: "Resolved 1 secret references",
    });
    expect(r.status.resolvedDistribution).toEqual({ image: expect.any(String) });
  });

  it("a missing Secret on a spec with providers: no configSource image-default", () => {
    const r = sync(aRequest(aParent(spec), [], []), deps());
    expect(conditionOf(r, "SecretsResolved")).toMatchObject({ status: "False", reason: "SecretNotFound" });
    expect(r.status.resolvedDistribution).not.toHaveProperty("configSource");
    expect(schemaErrors(statusSchema, r.status)).toEqual([]);
  });
});
