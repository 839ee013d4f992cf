/**
 * spec.baseConfig: the base config.yaml from a ConfigMap of the CR's namespace. It is checked as
 * an image's base is, its problems said at spec.baseConfig; its content is in the generated
 * config (an edit rolls the pods, a new resourceVersion alone does not); a missing ConfigMap
 * stops a new CR and keeps a running one (failure policy).
 */
import type { V1Deployment } from "@kubernetes/client-node";
import { customize } from "../../../lib/sync/customize";
import { syncRemembered, syncWith } from "../../../lib/sync";
import { createSyncMemo } from "../../../lib/sync/memo";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncRequest, SyncResponse } from "../../../lib/wire/metacontroller";
import { only } from "../children/models";
import { aConfigMap, aParent, aRequest, deps, observedFrom, stamped, steadyState } from "../../sync-builders";
import { plainSyncWith } from "../../plain-path";
import { bundledBaseConfig } from "../../../lib/distributions/bundled";
import type { Release } from "../../../lib/distributions/table";

const BASE = [
  "version: 2",
  "distro_name: mine",
  "apis:",
  "- inference",
  "providers:",
  "  inference:",
  "  - provider_id: ollama",
  "    provider_type: remote::ollama",
  "    config:",
  "      base_url: http://ollama.models:11434/v1",
  "registered_resources:",
  "  models:",
  "  - model_id: llama3.2:3b",
  "    provider_id: ollama",
  "    model_type: llm",
  "",
].join("\n");
const EDITED = BASE.replace("llama3.2:3b", "llama3.2:1b");

const spec = (baseConfig: object, more: object = {}) => ({ distribution: { name: "starter" }, baseConfig, ...more });
const SPEC = spec({ configMapName: "my-base" });
const baseMap = (text: string, key = "config.yaml") => aConfigMap("my-base", { [key]: text });
const syncOf = (s: object, related: KubeObject[], children: KubeObject[] = []) =>
  sync(aRequest(aParent(s), children, related), deps());
const configYaml = (r: SyncResponse): string =>
  (
    r.children.find((c) => c.kind === "ConfigMap" && c.metadata.name?.startsWith("demo-config-"))?.data as {
      "config.yaml": string;
    }
  )["config.yaml"];
const configHash = (r: SyncResponse) =>
  (only(r.children, "Deployment") as unknown as V1Deployment).spec!.template.metadata!.annotations![
    "llamastack.io/config-hash"
  ];
type Cond = { type: string; reason: string; message: string };
const generatedCondition = (r: SyncResponse) =>
  (r.status.conditions as Cond[]).find((c) => c.type === "ConfigGenerated")!;

describe("spec.baseConfig", () => {
  const built = syncOf(SPEC, [baseMap(BASE)]);

  it("generates config.yaml from the ConfigMap's base, and says so in the status", () => {
    expect(built.status.phase).toBe("Pending");
    expect(configYaml(built)).toContain("base_url: http://ollama.models:11434/v1");
    expect(configYaml(built)).toContain("model_id: llama3.2:3b");
    expect(built.status.resolvedDistribution).toEqual(expect.objectContaining({ configSource: "configmap" }));
  });

  it("reads the key baseConfig.key names", () => {
    const r = syncOf(spec({ configMapName: "my-base", key: "run.yaml" }), [baseMap(BASE, "run.yaml")]);
    expect(configYaml(r)).toBe(configYaml(built));
  });

  it("rolls the pods when the ConfigMap's content changes, and not for a new resourceVersion alone", () => {
    const edited = syncOf(SPEC, [baseMap(EDITED)]);
    const restamped = syncOf(SPEC, [stamped(baseMap(BASE), "99")]);
    expect(configHash(edited)).not.toBe(configHash(built));
    expect(configHash(restamped)).toBe(configHash(built));
  });

  it.each([
    [
      "version 3",
      BASE.replace("version: 2", "version: 3"),
      "UnsupportedConfigVersion",
      'spec.baseConfig: ConfigMap my-base key "config.yaml" at version: Unsupported config.yaml version 3. Supported versions: 2',
    ],
    [
      "providers that are not a map",
      BASE.replace(/providers:[\s\S]*?registered_resources:/, "providers: [a]\nregistered_resources:"),
      "ConfigGenerationFailed",
      'spec.baseConfig: ConfigMap my-base key "config.yaml" at providers: the base config.yaml has no providers map',
    ],
    [
      "text that is not YAML",
      "version: 2\nproviders: {a: [\n",
      "ConfigGenerationFailed",
      'spec.baseConfig: ConfigMap my-base key "config.yaml": the base config.yaml is',
    ],
  ])("given a base with %s, fails at spec.baseConfig naming the ConfigMap and key", (_what, text, reason, message) => {
    const r = syncOf(SPEC, [baseMap(text)]);
    expect(r.status.phase).toBe("Failed");
    expect(generatedCondition(r)).toEqual(
      expect.objectContaining({ reason, message: expect.stringContaining(message) }),
    );
  });

  const LINE_IMAGES = {
    "0.7": "docker.io/llamastack/distribution-starter:0.7.1",
    "0.8": "docker.io/ogx/distribution-starter:0.8.0",
    "1.2": "docker.io/ogxai/distribution-starter:1.2.2",
    "1.3": "docker.io/ogxai/distribution-starter:1.3.0",
  } as const;
  const onLine = (line: keyof typeof LINE_IMAGES) =>
    spec({ configMapName: "my-base" }, { distribution: { image: LINE_IMAGES[line] } });

  it.each<[Release, Release, string]>([
    ["1.3", "0.8", "at providers.skills: the 0.8 server line has no skills API"],
    ["1.3", "0.7", "at providers.skills: the 0.7 server line has no skills API"],
    ["0.8", "0.7", "at providers.messages: the 0.7 server line has no messages API"],
    ["0.7", "0.8", "at providers.eval: the 0.8 server line has no eval API"],
    ["0.7", "1.3", "at providers.eval: the 1.3 server line has no eval API"],
    ["1.3", "1.2", "at providers.inference[12].provider_type: remote::meta is not a provider type of the 1.2 line"],
  ])(
    "given the %s starter as the base of a %s CR, fails at spec.baseConfig with the place and the fix",
    (from, line, message) => {
      const r = syncOf(onLine(line), [baseMap(bundledBaseConfig("starter", from)!)]);
      expect([r.status.phase, r.children]).toEqual(["Failed", []]);
      expect(generatedCondition(r)).toEqual(
        expect.objectContaining({
          reason: "ConfigGenerationFailed",
          message: expect.stringContaining(`spec.baseConfig: ConfigMap my-base key "config.yaml" ${message}`),
        }),
      );
      expect(generatedCondition(r).message).toContain(`write it for the ${line} line, or run an image of the`);
    },
  );

  it.each<[Release, Release]>([
    ["0.7", "0.7"],
    ["0.8", "0.8"],
    ["1.2", "1.2"],
    ["1.3", "1.3"],
    ["1.2", "1.3"],
    ["0.8", "1.3"],
  ])("given the %s starter as the base of a %s CR, generates", (from, line) => {
    const r = syncOf(onLine(line), [baseMap(bundledBaseConfig("starter", from)!)]);
    expect(r.status.phase).toBe("Pending");
    expect(configYaml(r)).toContain("version: 2");
  });

  it.each([
    ["no ConfigMap", [], "spec.baseConfig.configMapName: ConfigMap not found: my-base"],
    [
      "no such key",
      [baseMap(BASE, "other.yaml")],
      'spec.baseConfig.configMapName: ConfigMap my-base has no key "config.yaml"',
    ],
    [
      "a near miss of the key",
      [baseMap(BASE, "config.yml")],
      'ConfigMap my-base has no key "config.yaml" (it has "config.yml"): did you mean "config.yml"?',
    ],
  ])("given %s, a new CR waits with the reason and creates nothing", (_what, related, message) => {
    const r = syncOf(SPEC, related);
    expect(generatedCondition(r)).toEqual(
      expect.objectContaining({ reason: "ConfigMapNotFound", message: expect.stringContaining(message) }),
    );
    expect(r.children).toEqual([]);
  });

  it("given the ConfigMap deleted under a running CR, keeps what runs", () => {
    const observed = observedFrom(built.children);
    const r = syncOf(SPEC, [], observed);
    expect(generatedCondition(r).reason).toBe("ConfigMapNotFound");
    const ids = (list: readonly KubeObject[]) => list.map((x) => `${x.kind}/${x.metadata.name}`).sort();
    expect(ids(r.children)).toEqual(ids(observed));
    expect(configHash(r)).toBe(configHash(built));
  });

  it("is asked for by the customize hook, and reads no image (no registry credentials asked for)", () => {
    expect(customize({ parent: aParent(SPEC) }).relatedResources).toEqual([
      { apiVersion: "v1", resource: "configmaps", namespace: "team-a", names: ["my-base", "odh-trusted-ca-bundle"] },
    ]);
  });

  it("cannot sit beside overrideConfig", () => {
    const r = syncOf(spec({ configMapName: "my-base" }, { overrideConfig: { configMapName: "cfg" } }), []);
    expect(generatedCondition(r)).toEqual(
      expect.objectContaining({
        reason: "InvalidSpec",
        message: expect.stringContaining("spec.baseConfig: overrideConfig and baseConfig are mutually exclusive"),
      }),
    );
  });
});

describe("spec.baseConfig through the kept configs (lib/sync/config-memory.ts)", () => {
  const memo = () => createSyncMemo({ maxBytes: 2 ** 24, configBytes: 2 ** 24, idleMs: 60_000, now: () => 0 });
  const fresh = async (r: SyncRequest): Promise<string> => JSON.stringify(await plainSyncWith(r, deps(), undefined));
  const withBase = (r: SyncRequest, text: string, version: string): SyncRequest => ({
    ...r,
    parent: stamped({ ...r.parent, status: { ...(r.parent.status ?? {}), phase: `seen-${version}` } }, version),
    related: aRequest(r.parent, [], [stamped(baseMap(text), "7")]).related,
  });

  it.each([
    ["the ConfigMap edited under its resourceVersion", EDITED],
    ["the ConfigMap unchanged", BASE],
  ])("answers a resync with %s as a fresh sync does", async (_what, text) => {
    const kept = memo();
    const request = await steadyState(aRequest(stamped(aParent(SPEC)), [], [stamped(baseMap(BASE))]), (r) =>
      syncWith(r, deps(), undefined),
    );
    await syncRemembered(request, deps(), { memo: kept });
    const r = withBase(request, text, "8");
    expect((await syncRemembered(r, deps(), { memo: kept })).body.toString("utf8")).toBe(await fresh(r));
  });
});
