/**
 * External providers through the pure sync: what the I/O step found (fixtures here; the real
 * registry in tests/oci/external-providers-e2e.test.ts) becomes init containers, config
 * entries and `status.externalProviders`, or a Failed status that keeps the running children.
 */
import { parse } from "yaml";
import type { ResolvedProviderSpec } from "../../../lib/oci";
import { findExternal, type ExternalLookup } from "../../../lib/sync/external-providers";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../../lib/wire/metacontroller";
import { aCanonicalSpec } from "../../builders";
import { FIXTURE_DIGEST, fixtureFound, providerSpecYaml } from "../../external-fixtures";
import { aParent, aRequest, deps, observedFrom } from "../../sync-builders";

const IMAGE = "registry.example.com/p/mine:1";
const spec = {
  distribution: { name: "starter" },
  externalProviders: { inference: [{ providerId: "mine", image: IMAGE }] },
};
const found = (result: ResolvedProviderSpec) => {
  const external: ExternalLookup = { kind: "read", results: [result] };
  return { notes: [], external };
};
const condition = (r: SyncResponse, type: string) =>
  (r.status.conditions as { type: string; reason: string; message: string }[]).find((c) => c.type === type);
const entries = (r: SyncResponse) =>
  r.status.externalProviders as { providerId: string; phase: string; message: string; initContainer: string }[];

function goodState(): KubeObject[] {
  const first = sync(aRequest(aParent(spec)), deps(), fixtureFound(spec));
  expect(first.status.phase).toBe("Pending");
  return observedFrom(first.children);
}

describe("status.externalProviders", () => {
  it("is Pending while the Deployment rolls out, Ready once it runs the init container, with the package in the message", () => {
    const first = sync(aRequest(aParent(spec)), deps(), fixtureFound(spec));
    expect(entries(first)).toEqual([
      {
        providerId: "mine",
        image: IMAGE,
        phase: "Pending",
        initContainer: "ext-mine",
        message: "mine_provider (remote::mine): waiting for the Deployment to roll out with init container ext-mine",
      },
    ]);
    const next = sync(
      aRequest(aParent(spec, { status: first.status }), observedFrom(first.children)),
      deps(),
      fixtureFound(spec),
    );
    expect(entries(next)[0]).toMatchObject({
      phase: "Ready",
      message: "mine_provider (remote::mine) installed by init container ext-mine",
    });
  });

  it("stays Pending while the pods run an older image of the provider", () => {
    const observed = goodState();
    const moved = {
      ...found({
        kind: "found",
        text: providerSpecYaml("mine"),
        layer: FIXTURE_DIGEST,
        digest: `sha256:${"f".repeat(64)}`,
      }),
    };
    expect(entries(sync(aRequest(aParent(spec), observed), deps(), moved))[0]!.phase).toBe("Pending");
  });
});

const TRANSIENT: ResolvedProviderSpec = {
  kind: "error",
  reason: "RegistryUnavailable",
  message: `Cannot read the provider metadata of image "${IMAGE}": connection refused`,
  transient: true,
};

/** What was found → condition reason, message, entry phase. */
const FAILURES: [string, ReturnType<typeof found> | { notes: never[] }, string, string, string][] = [
  [
    "no metadata file",
    found({ kind: "missing", detail: "not in any of its 2 layers", digest: FIXTURE_DIGEST }),
    "ProviderMetadataMissing",
    `spec.externalProviders.inference[0].image: Missing /lls-provider/lls-provider-spec.yaml in image ${IMAGE}: not in any of its 2 layers`,
    "Failed",
  ],
  [
    "invalid YAML",
    found({ kind: "found", text: "apiVersion: x\nkind: [\n", layer: "l", digest: FIXTURE_DIGEST }),
    "ProviderMetadataInvalid",
    `spec.externalProviders.inference[0].image: Invalid /lls-provider/lls-provider-spec.yaml in image ${IMAGE}: invalid YAML at line 3`,
    "Failed",
  ],
  [
    "another API",
    found({ kind: "found", text: providerSpecYaml("mine", { api: "vector_io" }), layer: "l", digest: FIXTURE_DIGEST }),
    "ProviderApiMismatch",
    `spec.externalProviders.inference[0].image: image ${IMAGE} provides the vector_io API (spec.api in its /lls-provider/lls-provider-spec.yaml), not inference: list it under spec.externalProviders.vectorIo`,
    "Failed",
  ],
  [
    "an image that does not exist",
    found({
      kind: "error",
      reason: "ImageNotFound",
      message: `Cannot read the provider metadata of image "${IMAGE}": no manifest`,
      transient: false,
    }),
    "ExternalProviderImageError",
    `spec.externalProviders.inference[0].image: Cannot read the provider metadata of image "${IMAGE}": no manifest`,
    "Failed",
  ],
  [
    "a registry that cannot be reached",
    found(TRANSIENT),
    "RegistryUnavailable",
    `spec.externalProviders.inference[0].image: ${TRANSIENT.message}`,
    "Ready",
  ],
  [
    "images not read by these hooks",
    { notes: [] },
    "ImageReadingDisabled",
    "spec.externalProviders.inference[0].image: these hooks do not read images (LLSD_READ_IMAGE_LABELS=false), and an external provider's provider_type and module come from its image's /lls-provider/lls-provider-spec.yaml; ask the operator to enable image reading, or remove spec.externalProviders",
    "Failed",
  ],
];

describe("failure policy for external providers", () => {
  it.each(FAILURES)(
    "given %s after a good state, keeps every child, fails with a condition naming field and image",
    (...[_title, what, reason, message, phase]) => {
      const observed = goodState();
      const r = sync(aRequest(aParent(spec), observed), deps(), what);
      expect(r.status.phase).toBe("Failed");
      expect(condition(r, "ConfigGenerated")).toMatchObject({ status: "False", reason });
      expect(condition(r, "ConfigGenerated")!.message.startsWith(message)).toBe(true);
      expect(r.children).toEqual(
        observed
          .map(
            (o) =>
              JSON.parse(o.metadata.annotations!["metacontroller.k8s.io/last-applied-configuration"]!) as KubeObject,
          )
          .sort((a, b) => (`${a.kind}/${a.metadata.name}` < `${b.kind}/${b.metadata.name}` ? -1 : 1)),
      );
      expect(entries(r)[0]!.phase).toBe(phase);
    },
  );

  it("given a registry that cannot be reached, asks to be called again; a lasting problem does not", () => {
    expect(sync(aRequest(aParent(spec)), deps(), found(TRANSIENT)).resyncAfterSeconds).toBeGreaterThan(0);
    expect(sync(aRequest(aParent(spec)), deps(), FAILURES[0]![1]).resyncAfterSeconds).toBeUndefined();
  });

  it("given a first-time failure, creates nothing", () => {
    expect(sync(aRequest(aParent(spec)), deps(), FAILURES[0]![1]).children).toEqual([]);
  });
});

describe("an inline provider an external one replaces", () => {
  const replaced = { ...spec, providers: { inference: { id: "mine", provider: "my-engine" } } };

  it("may carry a name the line has no type for: it runs the image's type, and the status says so", () => {
    const r = sync(aRequest(aParent(replaced)), deps(), fixtureFound(replaced));
    expect(r.status.phase).toBe("Pending");
    const configMap = r.children.find((c) => c.kind === "ConfigMap" && c.metadata.name.startsWith("demo-config"));
    const config = parse(String((configMap?.data as { "config.yaml"?: string } | undefined)?.["config.yaml"])) as {
      providers: { inference: { provider_id: string; provider_type: string }[] };
    };
    expect(config.providers.inference.filter((p) => p.provider_id === "mine")).toEqual([
      expect.objectContaining({ provider_type: "remote::mine" }),
    ]);
    expect(r.status.notes).toContainEqual(
      expect.stringMatching(
        /^spec.providers.inference: provider "my-engine" is no inference type of 1.3.x servers; spec.externalProviders.inference\[0\] has the same id/,
      ),
    );
  });
});

describe("findExternal()", () => {
  it.each([
    ["no resolver", undefined],
    [
      "a resolver that reads base configs only",
      { resolve: () => Promise.resolve({ kind: "no-labels" as const, digest: "d" }) },
    ],
  ])("given %s, answers that images are not read", async (_title, resolver) => {
    expect(await findExternal(aCanonicalSpec(spec), resolver, () => undefined)).toEqual({ kind: "disabled" });
  });

  it("given no external providers, reads nothing", async () => {
    expect(await findExternal(aCanonicalSpec({}), undefined, () => undefined)).toBeUndefined();
  });
});
