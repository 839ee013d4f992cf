/**
 * Takeover of a running OGXServer's children: the OGX operator's children (modelled from its
 * code in tests/ogxserver/peer-children.ts), orphaned and labelled as the steps say
 * (lib/migrate/ogxserver-steps.ts), come to the hooks as observed children of an LLSD of the same
 * name. Each must be answered with the same kind, apiVersion and name (an omitted one is
 * deleted), the Deployment with its immutable selector, and what the cluster then holds is
 * Metacontroller's merge of the answer over the OGX operator's object, with no record of a
 * previous apply (tests/ogxserver/metacontroller-apply.ts). Golden per case:
 * tests/golden/takeover-ogx/<case>.txt.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { sync } from "../../lib/sync/sync";
import { LAST_APPLIED } from "../../lib/sync/keep";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { expectGolden } from "../golden";
import { validateChild } from "../lib/children/models";
import { diff } from "../parity/diff";
import { deps, objectMap } from "../sync-builders";
import { applied } from "./metacontroller-apply";
import { peerChildren, peerConfigMapName, peerOutsideChildren } from "./peer-children";
import { CASES, llsdOf, observedOf, peerServerOf, type TakeoverCase } from "./takeover-cases";

const id = (o: KubeObject) => `${o.kind}/${o.metadata.name}`;
type Pod = {
  metadata: { labels: Record<string, string> };
  spec: { containers: Container[]; volumes?: Volume[] };
};
type Container = {
  name: string;
  ports?: { containerPort: number }[];
  env?: { name: string; value?: string }[];
  volumeMounts?: { name: string; mountPath: string }[];
};
type Volume = { name: string; configMap?: { name: string }; persistentVolumeClaim?: { claimName: string } };
const podOf = (o: KubeObject): Pod => (o.spec as { template: Pod }).template;
const spec = (o: KubeObject) => (o.spec ?? {}) as Record<string, unknown>;
const selectorOf = (o: KubeObject): unknown =>
  o.kind === "NetworkPolicy" ? spec(o).podSelector : o.kind === "Service" ? spec(o).selector : spec(o).selector;

interface Takeover {
  readonly observed: KubeObject[];
  readonly response: SyncResponse;
  /** What the cluster holds after Metacontroller applied the answer to each observed child. */
  readonly after: KubeObject[];
}

function answerTo(response: SyncResponse, o: KubeObject): KubeObject | undefined {
  return response.children.find((c) => id(c) === id(o));
}

/** Child resources whose update strategy is OnDelete in the project's CompositeController: Metacontroller never updates them. */
const ON_DELETE: readonly string[] = (() => {
  const file = join(__dirname, "..", "..", "metacontroller", "base", "composite-controller.yaml");
  const controller = parse(readFileSync(file, "utf8")) as {
    spec: { childResources: { resource: string; updateStrategy?: { method?: string } }[] };
  };
  return controller.spec.childResources.filter((r) => r.updateStrategy?.method === "OnDelete").map((r) => r.resource);
})();
const plural = (kind: string) => kind.toLowerCase().replace(/y$/, "ie").replace(/s$/, "se") + "s";

function takeover(c: TakeoverCase): Takeover {
  const observed = observedOf(c);
  const response = sync(
    { parent: llsdOf(c), children: objectMap(observed), related: objectMap(c.related ?? []) },
    deps(),
  );
  const after = observed.map((o) => (ON_DELETE.includes(plural(o.kind)) ? o : applied(o, answerTo(response, o) ?? {})));
  return { observed, response, after };
}

/** The second sync sees the first apply's result (with its last-applied record) and the children it created. */
function secondSync(c: TakeoverCase, t: Takeover): SyncResponse {
  const record = (o: KubeObject, desired: KubeObject): KubeObject => ({
    ...o,
    metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [LAST_APPLIED]: JSON.stringify(desired) } },
  });
  const kept = t.after.map((o) => record(o, answerTo(t.response, o)!));
  const created = t.response.children.filter((d) => !t.observed.some((o) => id(o) === id(d))).map((d) => record(d, d));
  return sync(
    { parent: llsdOf(c), children: objectMap([...kept, ...created]), related: objectMap(c.related ?? []) },
    deps(),
  );
}

const deployment = (list: readonly KubeObject[]) => list.find((o) => o.kind === "Deployment")!;
const service = (list: readonly KubeObject[]) => list.find((o) => o.kind === "Service")!;

describe.each(CASES)("taking over a running OGXServer's children (%s)", (name, c) => {
  const t = takeover(c);

  it("answers every observed child with the same kind, apiVersion and name: nothing is deleted or recreated", () => {
    for (const o of t.observed) expect([id(o), answerTo(t.response, o)?.apiVersion]).toEqual([id(o), o.apiVersion]);
  });

  it("keeps the Deployment's selector and pod labels, and the selectors that follow them", () => {
    for (const o of t.observed.filter((x) => selectorOf(x) !== undefined))
      expect([id(o), selectorOf(answerTo(t.response, o)!)]).toEqual([id(o), selectorOf(o)]);
    expect(podOf(deployment(t.response.children)).metadata.labels).toEqual(
      podOf(deployment(t.observed)).metadata.labels,
    );
  });

  it("keeps the PVC and its data: answered by name, same size and access", () => {
    const pvc = t.observed.find((o) => o.kind === "PersistentVolumeClaim");
    const answered = t.response.children.find((o) => o.kind === "PersistentVolumeClaim");
    if (!pvc) return expect(answered).toBeUndefined();
    const request = (o: KubeObject) => [spec(o).accessModes, spec(o).resources];
    expect(request(answered!)).toEqual(request(pvc));
    const claims = (podOf(deployment(t.after)).spec.volumes ?? []).flatMap(
      (v) => v.persistentVolumeClaim?.claimName ?? [],
    );
    expect(claims).toEqual([pvc.metadata.name]);
  });

  it("runs the new server on the state the old one wrote: its config directory is on the same volume", () => {
    const pvc = t.observed.find((o) => o.kind === "PersistentVolumeClaim");
    const server = podOf(deployment(t.after)).spec.containers[0];
    const stateDir = server?.env?.find((e) => e.name === "OGX_CONFIG_DIR")?.value ?? "";
    const mount = server?.volumeMounts?.find((m) => stateDir === m.mountPath || stateDir.startsWith(`${m.mountPath}/`));
    const volume = podOf(deployment(t.after)).spec.volumes?.find((v) => v.name === mount?.name);
    // The 1.x image runs with HOME=/ and keeps its state in ~/.ogx: the OGX operator's mount path /.ogx.
    if (pvc) expect([stateDir, volume?.persistentVolumeClaim?.claimName]).toEqual(["/.ogx", pvc.metadata.name]);
    else expect(volume).toEqual(expect.objectContaining({ emptyDir: {} }));
  });

  it("keeps the Service's endpoints: the running pods and the new ones both match its selector and targetPort", () => {
    const svc = spec(service(t.after)) as { selector: Record<string, string>; ports: { targetPort: unknown }[] };
    for (const pod of [podOf(deployment(t.observed)), podOf(deployment(t.after))]) {
      expect(pod.metadata.labels).toEqual(expect.objectContaining(svc.selector));
      const ports = pod.spec.containers.flatMap((x) => x.ports ?? []).map((p) => p.containerPort);
      expect(ports).toContain(svc.ports[0]?.targetPort);
    }
  });

  it("leaves one server container, every mount on a volume, and nothing on the OGX operator's generated ConfigMap", () => {
    const pod = podOf(deployment(t.after));
    expect(pod.spec.containers.map((x) => x.name)).toEqual(["ogx"]);
    const volumes = (pod.spec.volumes ?? []).map((v) => v.name);
    for (const m of pod.spec.containers[0]!.volumeMounts ?? []) expect(volumes).toContain(m.name);
    const configMaps = (pod.spec.volumes ?? []).flatMap((v) => v.configMap?.name ?? []);
    expect(configMaps).not.toContain(peerConfigMapName(peerServerOf(c)));
  });

  it("leaves objects the apiserver accepts: no two ports, env entries, volumes or mount paths alike", () => {
    const pod = podOf(deployment(t.after)).spec as unknown as Record<string, { [k: string]: unknown }[]>;
    const server = pod.containers![0]! as unknown as Record<string, { [k: string]: unknown }[]>;
    const svcPorts = (spec(service(t.after)) as Record<string, { [k: string]: unknown }[]>).ports!;
    const lists: [string, { [k: string]: unknown }[] | undefined, string][] = [
      ["container port names", server.ports, "name"],
      ["container port numbers", server.ports, "containerPort"],
      ["env names", server.env, "name"],
      ["mount paths", server.volumeMounts, "mountPath"],
      ["volume names", pod.volumes, "name"],
      ["Service port names", svcPorts, "name"],
      ["Service port numbers", svcPorts, "port"],
    ];
    for (const [what, list, key] of lists) {
      const values = (list ?? []).flatMap((i) => (i[key] === undefined ? [] : [JSON.stringify(i[key])]));
      expect([what, values]).toEqual([what, [...new Set(values)]]);
    }
    for (const o of t.after) validateChild(o);
  });

  it("answers valid objects and a status that is not Failed", () => {
    for (const child of t.response.children) validateChild(child);
    expect(t.response.status.phase).not.toBe("Failed");
  });

  it("keeps the OGX operator's selector on the next sync too (it is read from the Deployment, which keeps it)", () => {
    expect(secondSync(c, t).children).toEqual(t.response.children);
  });

  it("changes what the golden file shows", () => {
    expectGolden(`takeover-ogx/${name}.txt`, report(name, c, t));
  });
});

const SERVER_FIELDS =
  /^\+ \.(metadata\.(uid|resourceVersion|creationTimestamp|generation|labels\["controller-uid"\])|status)\b/;

function report(name: string, c: TakeoverCase, t: Takeover): string {
  const lines = [
    `# Takeover of a running OGXServer (${name}): what the hooks' first sync changes in each child.`,
    "# Observed: the OGX operator's children (tests/ogxserver/peer-children.ts), orphaned and labelled.",
    "# Each block: `~` changed, `+` added, as the cluster holds it after Metacontroller's apply;",
    "# `left:` what only the OGX operator set; with no last-applied record it stays until edited.",
    `# phase: ${String(t.response.status.phase)}`,
    ...notesOf(t.response).map((n) => `# note: ${n}`),
    "",
  ];
  t.observed.forEach((o, i) => {
    const how = ON_DELETE.includes(plural(o.kind)) ? "kept, never updated (OnDelete)" : "kept, updated in place";
    lines.push(`## ${id(o)}: ${how}`, ...orNone(diff(o, t.after[i])));
    const left = diff(answerTo(t.response, o), t.after[i]).filter((l) => l.startsWith("+ ") && !SERVER_FIELDS.test(l));
    lines.push(...left.map((l) => `left: ${l.slice(2)}`), "");
  });
  for (const d of t.response.children.filter((x) => !t.observed.some((o) => id(o) === id(x))))
    lines.push(`## ${id(d)}: new`, "");
  const unlabelled = peerChildren(peerServerOf(c)).filter((p) => !t.observed.some((o) => id(o) === id(p)));
  lines.push("## Not claimed (not labelled, or not a Metacontroller child): left as they are");
  lines.push(...[...unlabelled.map(id), ...peerOutsideChildren(peerServerOf(c))].map((x) => `- ${x}`), "");
  return lines.join("\n");
}

const notesOf = (r: SyncResponse): string[] => {
  const notes = (r.status as { notes?: unknown }).notes;
  return Array.isArray(notes)
    ? notes.filter((n): n is string => typeof n === "string" && n.startsWith("takeover:"))
    : [];
};

const orNone = (changes: string[]): string[] => (changes.length > 0 ? changes : ["(no change)"]);
