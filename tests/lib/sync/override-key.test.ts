/**
 * overrideConfig.key: the ConfigMap key that holds config.yaml. The server still reads
 * /etc/llama-stack/config.yaml: the key is projected there; unset, it is config.yaml.
 */
import type { V1Deployment } from "@kubernetes/client-node";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../../lib/wire/metacontroller";
import { only } from "../children/models";
import { aConfigMap, aParent, aRequest, deps } from "../../sync-builders";

const CONFIG = "version: 2\nproviders:\n  inference: []\n";
const spec = (overrideConfig: object) => ({ distribution: { name: "starter" }, overrideConfig });
const mine = (data: Record<string, string>) => aConfigMap("mine", data);
const syncOf = (s: object, related: KubeObject[]) => sync(aRequest(aParent(s), [], related), deps());
const pod = (r: SyncResponse) => (only(r.children, "Deployment") as unknown as V1Deployment).spec!.template;
const configVolume = (r: SyncResponse) => pod(r).spec!.volumes!.find((v) => v.name === "config");
const configHash = (r: SyncResponse) => pod(r).metadata!.annotations!["llamastack.io/config-hash"];
type Cond = { type: string; reason: string; message: string };

describe("overrideConfig.key", () => {
  it.each([
    [{ configMapName: "mine" }, "config.yaml"],
    [{ configMapName: "mine", key: "config.yaml" }, "config.yaml"],
    [{ configMapName: "mine", key: "run.yaml" }, "run.yaml"],
  ])("given %j, mounts key %s as /etc/llama-stack/config.yaml", (override, key) => {
    const r = syncOf(spec(override), [mine({ [key]: CONFIG, other: "not mounted" })]);
    expect(configVolume(r)).toEqual({
      name: "config",
      configMap: { name: "mine", items: [{ key, path: "config.yaml" }] },
    });
  });

  it("hashes that key's text into the pod template: an edit of it rolls the pods, of another key does not", () => {
    const hashOf = (data: Record<string, string>) =>
      configHash(syncOf(spec({ configMapName: "mine", key: "run.yaml" }), [mine(data)]));
    const before = hashOf({ "run.yaml": CONFIG, "config.yaml": CONFIG });
    expect(hashOf({ "run.yaml": `${CONFIG}# edited\n`, "config.yaml": CONFIG })).not.toBe(before);
    expect(hashOf({ "run.yaml": CONFIG, "config.yaml": `${CONFIG}# edited\n` })).toBe(before);
  });

  it("fails naming the key when the ConfigMap lacks it", () => {
    const r = syncOf(spec({ configMapName: "mine", key: "run.yaml" }), [mine({ "config.yaml": CONFIG })]);
    expect((r.status.conditions as Cond[]).find((c) => c.type === "ConfigGenerated")).toEqual(
      expect.objectContaining({
        reason: "ConfigMapNotFound",
        message: 'spec.overrideConfig.configMapName: ConfigMap mine has no key "run.yaml" (it has "config.yaml")',
      }),
    );
  });
});
