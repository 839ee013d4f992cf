/**
 * The override ConfigMap's checked parse, kept by the ConfigMap's key and content fingerprint
 * (lib/sync/override-parse.ts, lib/caches.ts `objectKey`): a new version, an edit under the same
 * version and a copy in another namespace are read again, an object without both stamps is
 * read every time, a kept parse is frozen and gives the same plan as a fresh one (with and
 * without external providers merged into it), and a parse above its share is not kept.
 */
import { aCanonicalSpec } from "../../builders";
import { resolvedExternals } from "../../external-fixtures";
import { aConfigMap, NS, objectMap, stamped } from "../../sync-builders";
import { CACHE_BUDGET_MB, cacheBytes, MAX_ENTRY_FRACTION, setCachePolicy } from "../../../lib/caches";
import { DEFAULT_DISTRIBUTIONS } from "../../../lib/distributions/table";
import { overrideCheck } from "../../../lib/sync/override-parse";
import { planConfig } from "../../../lib/sync/config-plan";
import type { KubeObject } from "../../../lib/wire/metacontroller";

const NAME = "my-config";
const CONFIG = [
  "version: 2",
  "image_name: mine",
  "providers:",
  "  inference:",
  "  - provider_id: ollama",
  "    provider_type: remote::ollama",
  "    config:",
  "      url: ${env.OLLAMA_URL:=http://ollama:11434}",
  "",
].join("\n");
const other = CONFIG.replace("image_name: mine", "image_name: theirs");
const configMap = (text: string, resourceVersion?: string): KubeObject => {
  const object = aConfigMap(NAME, { "config.yaml": text });
  return resourceVersion === undefined ? object : stamped(object, resourceVersion);
};
const checkOf = (object: KubeObject) =>
  overrideCheck({ configMapName: NAME, key: "config.yaml" }, objectMap([object]), NS);
const imageName = (check: ReturnType<typeof overrideCheck>) =>
  check.ok ? check.parsed.image_name : check.error.message;

afterEach(() => setCachePolicy(CACHE_BUDGET_MB * 2 ** 20));

describe("override configs kept by ConfigMap version", () => {
  it("answers a second read of the same version from the kept parse, frozen", () => {
    const first = checkOf(configMap(CONFIG, "10"));
    const again = checkOf(configMap(CONFIG, "10"));
    expect(again).toBe(first);
    expect(first.ok && Object.isFrozen(first.parsed)).toBe(true);
  });

  it.each([
    ["a new resourceVersion", (text: string) => configMap(text, "12")],
    ["no resourceVersion (not from the apiserver)", (text: string) => configMap(text)],
  ])("reads the text again for %s", (_, changed) => {
    expect(imageName(checkOf(configMap(CONFIG, "11")))).toBe("mine");
    expect(imageName(checkOf(changed(other)))).toBe("theirs");
  });

  it.each([
    ["edited under the same resourceVersion (an etcd restore hands versions out again)", NS],
    ["in another namespace with the same uid and resourceVersion (a copy)", "team-b"],
  ])("reads the text of a ConfigMap %s", (_, namespace) => {
    expect(imageName(checkOf(configMap(CONFIG, "15")))).toBe("mine");
    const copy = configMap(other, "15");
    const moved = { ...copy, metadata: { ...copy.metadata, namespace } };
    expect(imageName(overrideCheck({ configMapName: NAME, key: "config.yaml" }, objectMap([moved]), namespace))).toBe(
      "theirs",
    );
  });

  it("keeps a refusal too, and reads the fixed version", () => {
    const broken = checkOf(configMap("version: 2\nproviders: [", "20"));
    expect(broken.ok).toBe(false);
    expect(checkOf(configMap("version: 2\nproviders: [", "20"))).toBe(broken);
    expect(imageName(checkOf(configMap(CONFIG, "21")))).toBe("mine");
  });

  it("does not keep a parse above its share of the cache", () => {
    const big = `${CONFIG}# ${"x".repeat(Math.ceil((cacheBytes("override configs") * MAX_ENTRY_FRACTION) / 2))}\n`;
    const first = checkOf(configMap(big, "30"));
    expect(first.ok).toBe(true);
    expect(checkOf(configMap(big, "30"))).not.toBe(first);
  });
});

describe("a plan from a kept parse is the plan from a fresh one", () => {
  const plan = (externals: boolean, related: KubeObject[]) => {
    const spec = aCanonicalSpec({
      overrideConfig: { configMapName: NAME },
      ...(externals
        ? { externalProviders: { inference: [{ providerId: "first", image: "registry.example.com/p/first:1" }] } }
        : {}),
    });
    return planConfig({
      name: "demo",
      namespace: NS,
      spec,
      related: objectMap(related),
      distributions: DEFAULT_DISTRIBUTIONS,
      release: "0.7",
      ...(externals ? { externalProviders: resolvedExternals(spec) } : {}),
    });
  };

  it.each([
    ["used as is", false],
    ["with external providers merged in", true],
  ])("%s", (_, externals) => {
    const related = [configMap(CONFIG, "40")];
    const fresh = plan(externals, related);
    const kept = plan(externals, related);
    expect(checkOf(related[0]!).ok).toBe(true);
    expect(kept).toEqual(fresh);
    setCachePolicy(CACHE_BUDGET_MB * 2 ** 20, ["override configs"]);
    expect(plan(externals, related)).toEqual(kept);
    expect("failure" in kept).toBe(false);
  });
});
