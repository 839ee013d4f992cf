/**
 * docs/failure-policy.md: a spec or environment error is a status, not a hook failure. After a good state
 * every observed child is kept exactly as last desired; a first-time failure creates nothing.
 */
import { bundledBaseConfig } from "../../../lib/distributions/bundled";
import type { BaseConfigResolver, ResolvedBase } from "../../../lib/oci";
import { syncWith } from "../../../lib/sync";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aConfigMap, aParent, aRequest, aSecret, deps, observedFrom } from "../../sync-builders";

const goodSpec = {
  distribution: { name: "starter" },
  providers: {
    inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "vllm-creds", key: "token" } },
  },
  resources: { models: ["llama3"] },
};
const goodSecret = aSecret("vllm-creds", { token: "s3cr3t-canary" });

function goodState(): KubeObject[] {
  const first = sync(aRequest(aParent(goodSpec), [], [goodSecret]), deps());
  expect(first.status.phase).toBe("Pending");
  return observedFrom(first.children);
}

const override = (name = "my-config") => ({
  distribution: { name: "starter" },
  overrideConfig: { configMapName: name },
});

/** class → [spec, related objects, condition type, reason, message pattern] */
const CLASSES: [string, object, KubeObject[], string, string, RegExp][] = [
  [
    "missing Secret",
    goodSpec,
    [],
    "SecretsResolved",
    "SecretNotFound",
    /^spec.providers.inference.apiKey: Secret not found: vllm-creds \(namespace team-a\); create it with the key "token"$/,
  ],
  [
    "missing Secret key",
    goodSpec,
    [aSecret("vllm-creds", { other: "x" })],
    "SecretsResolved",
    "SecretKeyMissing",
    /Secret vllm-creds has no key "token" \(it has "other"\)/,
  ],
  [
    "missing override ConfigMap",
    override(),
    [],
    "ConfigGenerated",
    "ConfigMapNotFound",
    /^spec.overrideConfig.configMapName: ConfigMap not found: my-config/,
  ],
  [
    "override ConfigMap without config.yaml",
    override(),
    [aConfigMap("my-config", { "run.yaml": "version: 2" })],
    "ConfigGenerated",
    "ConfigMapNotFound",
    /ConfigMap my-config has no key "config.yaml" \(it has "run.yaml"\)/,
  ],
  [
    "invalid spec",
    { ...goodSpec, providers: { inference: [{ provider: "vllm" }, { provider: "ollama" }] } },
    [goodSecret],
    "ConfigGenerated",
    "InvalidSpec",
    /spec.providers.inference\[0\].id: required/,
  ],
  [
    "provider name no type of the line matches",
    { ...goodSpec, providers: { inference: { ...goodSpec.providers.inference, provider: "vllm-openai" } } },
    [goodSecret],
    "ConfigGenerated",
    "InvalidSpec",
    /^spec.providers.inference.provider: unknown inference provider "vllm-openai" on 1.3.x servers; the closest are "openai", "vllm"/,
  ],
  [
    "schema-invalid spec",
    { ...goodSpec, networking: { port: "eighty" } },
    [goodSecret],
    "ConfigGenerated",
    "InvalidSpec",
    /^spec.networking.port: must be integer$/,
  ],
  [
    "base config unavailable",
    { ...goodSpec, distribution: { image: "quay.io/acme/llama:0.7.1" } },
    [goodSecret],
    "ConfigGenerated",
    "BaseConfigUnavailable",
    /image quay.io\/acme\/llama:0.7.1 carries no readable config labels/,
  ],
  [
    "unsupported config version",
    override(),
    [aConfigMap("my-config", { "config.yaml": "version: 3\nproviders: {}\n" })],
    "ConfigGenerated",
    "UnsupportedConfigVersion",
    /Unsupported config.yaml version 3. Supported versions: 2/,
  ],
  [
    "unparseable Postgres DSN",
    { ...goodSpec, storage: { sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } } },
    [goodSecret, aSecret("pg", { dsn: "not a url" })],
    "SecretsResolved",
    "InvalidConnectionString",
    /Secret pg key "dsn" is not a URL/,
  ],
];

describe("failure policy", () => {
  it.each(CLASSES)(
    "given %s after a good state, keeps every child unchanged and says what to fix",
    (...[_title, spec, related, type, reason, message]) => {
      const observed = goodState();
      const response = sync(aRequest(aParent(spec, { generation: 2 }), observed, related), deps());
      expect(response.children.map((c) => `${c.kind}/${c.metadata.name}`)).toEqual(
        observed.map((c) => `${c.kind}/${c.metadata.name}`).sort(),
      );
      for (const child of response.children) {
        const before = observed.find((o) => o.kind === child.kind && o.metadata.name === child.metadata.name);
        expect(JSON.stringify(child)).toBe(
          before?.metadata.annotations?.["metacontroller.k8s.io/last-applied-configuration"],
        );
      }
      expect(response.status.phase).toBe("Failed");
      const condition = (
        response.status.conditions as { type: string; status: string; reason: string; message: string }[]
      ).find((c) => c.type === type);
      expect(condition).toEqual(
        expect.objectContaining({ status: "False", reason, message: expect.stringMatching(message) }),
      );
    },
  );

  it.each(CLASSES)("given %s the first time, creates nothing but the status", (_title, spec, related) => {
    const response = sync(aRequest(aParent(spec), [], related), deps());
    expect(response.children).toEqual([]);
    expect(response.status.phase).toBe("Failed");
  });

  it.each(CLASSES)("given %s, never puts a Secret value in the response", (_title, spec, related) => {
    const response = sync(aRequest(aParent(spec), goodState(), related), deps());
    expect(JSON.stringify(response)).not.toContain("s3cr3t-canary");
  });

  it("keeps observed children that carry no last-applied annotation, minus server fields and status", () => {
    const observed = goodState().map((o): KubeObject => {
      const { annotations: _a, ...metadata } = o.metadata;
      return { ...o, metadata };
    });
    const response = sync(aRequest(aParent({ ...goodSpec, networking: { port: 0 } }), observed, []), deps());
    const deployment = response.children.find((c) => c.kind === "Deployment");
    expect(deployment?.status).toBeUndefined();
    expect(deployment?.metadata).not.toHaveProperty("uid");
    expect(deployment?.metadata).not.toHaveProperty("resourceVersion");
    expect(deployment?.spec).toEqual(observed.find((o) => o.kind === "Deployment")?.spec);
  });
});

describe("a registry error keeps what runs: never the bundled config", () => {
  /** The image's own config (labels), told apart from the bundled one by its distro_name. */
  const labelled = bundledBaseConfig("starter", "1.3")!.replace(/^distro_name: .*$/m, "distro_name: from-the-image");
  const digest = `sha256:${"a".repeat(64)}`;
  const answering = (answer: ResolvedBase): BaseConfigResolver => ({ resolve: () => Promise.resolve(answer) });
  const fromLabels = answering({ kind: "found", config: labelled, digest, source: "oci-label", labelKind: "base64" });
  const request = (children: KubeObject[]) => aRequest(aParent(goodSpec, { generation: 2 }), children, [goodSecret]);
  const configYaml = (children: readonly KubeObject[]): string =>
    JSON.stringify(children.find((c) => c.kind === "ConfigMap")?.data ?? {});

  async function runningOnLabels(): Promise<KubeObject[]> {
    const first = await syncWith(request([]), deps(), fromLabels);
    expect(configYaml(first.children)).toContain("distro_name: from-the-image");
    return observedFrom(first.children);
  }

  const errors: [string, boolean, string, number | undefined][] = [
    ["the registry times out (may pass)", true, "RegistryUnavailable", 30],
    ["the registry refuses the credentials (needs a fix)", false, "RegistryError", undefined],
  ];

  it.each(errors)("%s: keeps every child as it runs and says why", async (_title, transient, reason, resync) => {
    const observed = await runningOnLabels();
    const failing = answering({ kind: "error", reason: "x", message: "the registry did not answer", transient });
    const response = await syncWith(request(observed), deps(), failing);
    const lastApplied = observed.map(
      (o) => o.metadata.annotations?.["metacontroller.k8s.io/last-applied-configuration"],
    );
    expect(response.children.map((c) => JSON.stringify(c)).sort()).toEqual(lastApplied.sort());
    expect(configYaml(response.children)).toContain("distro_name: from-the-image");
    expect(response.status.phase).toBe("Failed");
    expect(response.status.conditions).toContainEqual(
      expect.objectContaining({ type: "ConfigGenerated", status: "False", reason }),
    );
    expect(response.resyncAfterSeconds).toBe(resync);
  });

  it.each(errors)("%s the first time: creates nothing", async (_title, transient) => {
    const failing = answering({ kind: "error", reason: "x", message: "the registry did not answer", transient });
    const response = await syncWith(request([]), deps(), failing);
    expect([response.children, response.status.phase]).toEqual([[], "Failed"]);
  });

  it("an image known to carry no labels (not an error) is what switches to the bundled config", async () => {
    const observed = await runningOnLabels();
    const response = await syncWith(request(observed), deps(), answering({ kind: "no-labels", digest }));
    expect(response.status.phase).not.toBe("Failed");
    expect(configYaml(response.children)).toContain("distro_name: starter");
  });
});

describe("an edit never deletes data: the PVC outlives workload.storage until released", () => {
  const withStorage = { ...goodSpec, workload: { storage: { size: "20Gi" } } };
  const pvcOf = (children: readonly KubeObject[]) => children.find((c) => c.kind === "PersistentVolumeClaim");
  const claimsOf = (children: readonly KubeObject[]) =>
    JSON.stringify(children.find((c) => c.kind === "Deployment")).match(/"claimName":"[^"]+"/g) ?? [];
  const annotated = (value: string) => ({
    ...aParent(goodSpec, { generation: 2 }),
    metadata: { ...aParent(goodSpec).metadata, generation: 2, annotations: { "llamastack.io/release-storage": value } },
  });

  function storedState() {
    const first = sync(aRequest(aParent(withStorage), [], [goodSecret]), deps());
    expect(pvcOf(first.children)?.metadata.name).toBe("demo-pvc");
    expect(claimsOf(first.children)).toEqual(['"claimName":"demo-pvc"']);
    return { first, observed: observedFrom(first.children) };
  }

  it.each([
    ["no annotation", undefined, true],
    ['release-storage: "false"', "false", true],
    ['release-storage: "yes" (only "true" releases)', "yes", true],
    ['release-storage: "true"', "true", false],
  ])(
    "storage removed, %s: PVC kept = %s, the Deployment no longer mounts it, the status says which",
    (_what, annotation, kept) => {
      const { first, observed } = storedState();
      const parent = annotation === undefined ? aParent(goodSpec, { generation: 2 }) : annotated(annotation);
      const r = sync(aRequest(parent, observed, [goodSecret]), deps());
      expect(r.status.phase).not.toBe("Failed");
      expect(claimsOf(r.children)).toEqual([]);
      if (kept) {
        expect(pvcOf(r.children)).toEqual(pvcOf(first.children));
        expect(r.status.notes).toContainEqual(
          expect.stringMatching(
            /PVC demo-pvc and its data are kept \(no longer mounted\)\. To delete it, annotate the CR llamastack\.io\/release-storage="true"/,
          ),
        );
      } else {
        expect(pvcOf(r.children)).toBeUndefined();
        expect(r.status.notes).toContainEqual(expect.stringContaining("PVC demo-pvc is released"));
      }
    },
  );

  it("storage set back: the same PVC is mounted again, no note", () => {
    const { first, observed } = storedState();
    const removed = sync(aRequest(aParent(goodSpec, { generation: 2 }), observed, [goodSecret]), deps());
    const back = sync(
      aRequest(aParent(withStorage, { generation: 3 }), observedFrom(removed.children), [goodSecret]),
      deps(),
    );
    expect(pvcOf(back.children)).toEqual(pvcOf(first.children));
    expect(claimsOf(back.children)).toEqual(['"claimName":"demo-pvc"']);
    expect(JSON.stringify(back.status.notes ?? [])).not.toContain("demo-pvc");
  });

  it("a CR that never had storage: no PVC appears", () => {
    const r = sync(aRequest(aParent(goodSpec, { generation: 2 }), goodState(), [goodSecret]), deps());
    expect(pvcOf(r.children)).toBeUndefined();
  });
});
