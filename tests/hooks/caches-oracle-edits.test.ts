/**
 * The plain-path oracle for what a version-only key misses: related ConfigMaps (override config,
 * base config, CA bundle) edited under the same resourceVersion (an etcd restore hands versions out again),
 * or copied with their uid and version into another namespace. The app with every cache on,
 * having kept the unedited answer, must answer each as the app with `LLSD_CACHE_MB=0` does
 * (oracle-apps.ts).
 */
import { join } from "node:path";
import { readdirSync } from "node:fs";
import type { KubeObject, ObjectMap, SyncRequest } from "../../lib/wire/metacontroller";
import { sampleRequest, stamped } from "../sync-builders";
import { bodyOf, ODH_CA, RSA_CA } from "../lib/sync/certificates";
import { twoApps } from "./oracle-apps";

const SAMPLES = join(__dirname, "..", "..", "samples");
const apps = twoApps();

/** A CA certificate that `pem` does not hold. */
const anotherCa = (pem: string): string => (pem.includes(bodyOf(RSA_CA).slice(0, 64)) ? ODH_CA : RSA_CA);

/** A ConfigMap's content edited: each certificate key holds another CA, an override or base config another token limit. */
function contentEdited(o: KubeObject): KubeObject {
  if (o.kind !== "ConfigMap") return o;
  const data = Object.entries((o.data ?? {}) as Record<string, string>).map(([key, text]) => [
    key,
    text.includes("BEGIN CERTIFICATE") ? anotherCa(text) : text.replace("max_tokens: 4096", "max_tokens: 2048"),
  ]);
  return { ...o, data: Object.fromEntries(data) };
}

/** Every object of `map` passed through `edit`, under the key `keyOf` gives it. */
const mapped = (
  map: ObjectMap | undefined,
  edit: (o: KubeObject) => KubeObject,
  keyOf: (o: KubeObject, key: string) => string,
): ObjectMap =>
  Object.fromEntries(
    Object.entries(map ?? {}).map(([group, objects]) => [
      group,
      Object.fromEntries(Object.entries(objects).map(([key, o]) => [keyOf(o, key), edit(o)])),
    ]),
  );

/** The same request in namespace team-b, for another parent: every other object keeps its uid and resourceVersion. */
function inTeamB(r: SyncRequest): SyncRequest {
  const move = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, namespace: "team-b" } });
  const teamB = (o: KubeObject): string => `team-b/${o.metadata.name}`;
  const parent = move(r.parent);
  return {
    ...r,
    parent: { ...parent, metadata: { ...parent.metadata, uid: "uid-team-b" } },
    children: mapped(r.children, move, teamB),
    related: mapped(r.related, move, teamB),
  };
}

const withConfigMaps = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort()
  .filter((file) => Object.keys(sampleRequest(join(SAMPLES, file)).related?.["ConfigMap.v1"] ?? {}).length > 0);

describe("related ConfigMaps edited under the same resourceVersion, or copied with their uid", () => {
  const shown = new Set<string>();
  it("the samples with ConfigMaps include an override config, a base config and a CA bundle", () => {
    expect(withConfigMaps).toEqual(
      expect.arrayContaining(["base-config.yaml", "networking-tls.yaml", "override-config.yaml"]),
    );
  });

  it.each(withConfigMaps)("%s: the cached app answers each as the plain app does", async (file) => {
    const steady = await apps.steadySample(join(SAMPLES, file));
    const kept = await apps.both("/sync", steady); // now in every cache of the cached app
    const edited = { ...steady, related: mapped(steady.related, contentEdited, (_, key) => key) };
    const sequence: [string, SyncRequest][] = [
      ["copied into team-b with the same uids and versions, edited there", inTeamB(edited)],
      ["edited under the same versions (the memo's key)", edited],
      [
        "edited, the parent at a new version (the parsed-ConfigMap caches' key)",
        { ...edited, parent: stamped(edited.parent, "8") },
      ],
    ];
    for (const [what, r] of sequence) {
      const [cached, plain] = await apps.both("/sync", r);
      expect([what, cached]).toEqual([what, plain]);
      if (plain.text !== kept[1].text) shown.add(file); // the edit shows in the answer
    }
  });

  // A parent that fails before reading its ConfigMaps (complete.yaml: its external provider needs image reading) shows no edit.
  it("the edits show in the answers of the override config, base config and CA bundle samples", () => {
    expect([...shown]).toEqual(
      expect.arrayContaining(["base-config.yaml", "networking-tls.yaml", "override-config.yaml"]),
    );
  });
});
