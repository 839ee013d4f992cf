/**
 * Issue 16, case by case, with v1alpha1 CRs written the way the Go operator's samples and README
 * write them (tests/parity/go-style-crs.ts): what someone coming from the Go operator would notice.
 * Round trips through the apiserver (no silent mode switch) are in round-trips.test.ts.
 */
import request from "supertest";
import { review } from "../../lib/admission/review";
import { KEPT_OPEN, NETWORK_POLICY_ANNOTATION } from "../../lib/children/network-policy";
import { toHub } from "../../lib/conversion/v1alpha1";
import { sync } from "../../lib/sync/sync";
import type { KubeObject, SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { aTestApp } from "../hooks/helpers";
import { ROOT_CA } from "../lib/sync/certificates";
import { afterApply, deps, NS, objectMap } from "../sync-builders";
import { goDesired, goObserved, type GoCr, type GoSpec } from "./go-operator";
import { goStyleCr, USER_CONFIG_MAP, type GoStyleName } from "./go-style-crs";

type Json = Record<string, unknown>;
interface PodSpec {
  volumes: { name: string }[];
  containers: { env: { name: string }[]; volumeMounts?: { name: string; mountPath: string }[] }[];
}

/** As Metacontroller sends it: stored (converted) in v1alpha2, with the CRD default containerSpec.name. */
function hub(cr: KubeObject): KubeObject {
  const spec = cr.spec as { server: { containerSpec?: Json } };
  const defaulted = spec.server.containerSpec
    ? {
        ...cr,
        spec: {
          ...spec,
          server: { ...spec.server, containerSpec: { name: "llama-stack", ...spec.server.containerSpec } },
        },
      }
    : cr;
  const converted = toHub(defaulted);
  if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
  return converted.object as unknown as KubeObject;
}

const syncOf = (req: SyncRequest): SyncResponse => sync(req, deps());
const child = (r: SyncResponse, kind: string): KubeObject | undefined => r.children.find((c) => c.kind === kind);
const spec = (o: KubeObject | undefined): Json => (o?.spec ?? {}) as Json;

describe("the Go operator's own CRs, as issue 16 lists them", () => {
  it.each<GoStyleName>(["user-config", "ca-bundle"])(
    "%s: its userConfig says version: '2' (a string), and runs (item 1)",
    (name) => {
      const { cr, related } = goStyleCr(name);
      const configMap = related.find((o) => o.metadata.name === USER_CONFIG_MAP)!;
      expect((configMap.data as Json)["config.yaml"]).toContain("version: '2'");
      const answer = syncOf({ parent: hub(cr), children: {}, related: objectMap(related) });
      expect([answer.status.phase, JSON.stringify(answer.status.conditions)]).toEqual([
        "Pending",
        expect.not.stringContaining("Unsupported"),
      ]);
      expect(child(answer, "Deployment")).toBeDefined();
    },
  );

  it("ca-bundle: the key of its CA ConfigMap becomes the <name>-ca-bundle child, mounted and named as the Go operator does (row 32)", () => {
    const { cr, related } = goStyleCr("ca-bundle");
    const answer = syncOf({ parent: hub(cr), children: {}, related: objectMap(related) });
    const go: GoCr = { name: cr.metadata.name, namespace: NS, uid: "u", spec: cr.spec as GoSpec };
    const theirs = goDesired(go, ROOT_CA);
    const bundle = (objects: readonly KubeObject[]) => {
      const configMap = objects.find((o) => o.kind === "ConfigMap" && o.metadata.name.endsWith("-ca-bundle"));
      return [configMap?.metadata.name, configMap?.data];
    };
    expect(bundle(answer.children)).toEqual(bundle(theirs));
    expect(bundle(answer.children)).toEqual([`${cr.metadata.name}-ca-bundle`, { "ca-bundle.crt": ROOT_CA }]);
    const mounts = (objects: readonly KubeObject[]) => {
      const pod = (spec(objects.find((o) => o.kind === "Deployment")).template as { spec: PodSpec }).spec;
      const container = pod.containers[0]!;
      return {
        volume: pod.volumes.find((v) => v.name === "ca-bundle"),
        mount: container.volumeMounts?.find((m) => m.name === "ca-bundle")?.mountPath,
        env: container.env.find((e) => e.name === "SSL_CERT_FILE"),
      };
    };
    expect(mounts(answer.children)).toEqual(mounts(theirs));
    expect(mounts(answer.children).env).toEqual({
      name: "SSL_CERT_FILE",
      value: "/etc/ssl/certs/ca-bundle/ca-bundle.crt",
    });
  });

  it("the no-ConfigMap CR with podDisruptionBudget: {} gets a PDB of maxUnavailable 1 (item 4)", () => {
    const { cr } = goStyleCr("no-config-map");
    const server = (cr.spec as { server: Json }).server;
    const withEmpty = { ...cr, spec: { ...(cr.spec as Json), server: { ...server, podDisruptionBudget: {} } } };
    const answer = syncOf({ parent: hub(withEmpty), children: {}, related: {} });
    expect(answer.status.phase).toBe("Pending");
    const selector = { matchLabels: { app: "llama-stack", "app.kubernetes.io/instance": cr.metadata.name } };
    expect(spec(child(answer, "PodDisruptionBudget"))).toEqual({ selector, maxUnavailable: 1 });
    // The Go operator copied the (absent) fields: a PDB with neither, which the disruption controller
    // reads as no disruption allowed (expectedPods 0), so every eviction and node drain waits.
    const go: GoCr = { name: cr.metadata.name, namespace: NS, uid: "u", spec: withEmpty.spec as GoSpec };
    expect(spec(goDesired(go).find((o) => o.kind === "PodDisruptionBudget"))).toEqual({ selector });
  });

  it("the README's network example (labels: [team=frontend]) is refused at admission with the fix, and its sync fails keeping nothing it had not (item 5)", () => {
    const { cr } = goStyleCr("readme-label-with-value");
    const object = hub(cr) as unknown as Json;
    const answer = review({
      uid: "u1",
      kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
      operation: "CREATE",
      object,
    });
    expect(answer.allowed).toBe(false);
    expect(JSON.stringify(answer.status)).toContain(
      'spec.networking.allowedFrom.labels[0]: \\"team=frontend\\" is not a namespace label key',
    );
    expect(JSON.stringify(answer.status)).toContain('write \\"team\\" to admit every namespace that has a team label');
    const synced = syncOf({ parent: hub(cr), children: {}, related: {} });
    expect([synced.status.phase, synced.children]).toEqual(["Failed", []]);
  });

  it("label keys (example.com/llm-clients, tier/backend) pass and become Exists peers", () => {
    const { cr } = goStyleCr("network-labels");
    const answer = syncOf({ parent: hub(cr), children: {}, related: {} });
    const from = (spec(child(answer, "NetworkPolicy")).ingress as { from: Json[] }[])[0]!.from;
    expect(from).toEqual(
      expect.arrayContaining(
        ["example.com/llm-clients", "tier/backend"].map((key) => ({
          namespaceSelector: { matchExpressions: [{ key, operator: "Exists" }] },
        })),
      ),
    );
  });

  it("a v1alpha1 parent sent to POST /sync is converted first: the same children as its v1alpha2 form, the status in v1alpha1 (item 7)", async () => {
    const { cr, related } = goStyleCr("user-config");
    const { app } = aTestApp({ handlers: { sync: (r) => Promise.resolve(syncOf(r)) } });
    const asV1 = await request(app)
      .post("/sync")
      .send({ parent: cr, children: {}, related: objectMap(related) });
    const asV2 = syncOf({ parent: hub(cr), children: {}, related: objectMap(related) });
    expect(asV1.status).toBe(200);
    expect(asV1.body.children).toEqual(asV2.children);
    expect(asV1.body.status.phase).toBe("Pending");
    expect(asV1.body.status).not.toHaveProperty("configGeneration");
  });
});

describe("taking over a Go operator without its NetworkPolicy feature flag (its default), with CRs in the style of its samples", () => {
  const takeover = (name: GoStyleName) => {
    const { cr, related } = goStyleCr(name);
    const go: GoCr = { name: cr.metadata.name, namespace: NS, uid: cr.metadata.uid as string, spec: cr.spec as GoSpec };
    const first: SyncRequest = {
      parent: hub(cr),
      children: objectMap(goObserved(go, undefined, false)),
      related: objectMap(related),
    };
    return { cr, first, answer: syncOf(first), go };
  };

  it.each<GoStyleName>(["user-config", "no-config-map"])(
    "%s keeps its open access: no NetworkPolicy, the Deployment marked, the status says how to opt in (item 6)",
    (name) => {
      const { first, answer } = takeover(name);
      expect(child(answer, "NetworkPolicy")).toBeUndefined();
      expect(child(answer, "Deployment")?.metadata.annotations?.[NETWORK_POLICY_ANNOTATION]).toBe(KEPT_OPEN);
      expect(JSON.stringify(answer.status.notes)).toContain(`annotate the CR ${NETWORK_POLICY_ANNOTATION}=enabled`);
      // The next sync sees the hooks' own Deployment: the mark, not memory, keeps it open.
      const second = syncOf(afterApply(first, answer));
      expect(child(second, "NetworkPolicy")).toBeUndefined();
      expect(second.children).toEqual(answer.children);
    },
  );

  it("opted in with the annotation: the NetworkPolicy of new CRs, and the mark goes", () => {
    const { first, answer } = takeover("no-config-map");
    const next = afterApply(first, answer);
    const optedIn = {
      ...next,
      parent: {
        ...next.parent,
        metadata: {
          ...next.parent.metadata,
          annotations: { ...next.parent.metadata.annotations, [NETWORK_POLICY_ANNOTATION]: "enabled" },
        },
      },
    };
    const after = syncOf(optedIn);
    expect(child(after, "NetworkPolicy")).toBeDefined();
    expect(child(after, "Deployment")?.metadata.annotations?.[NETWORK_POLICY_ANNOTATION]).toBeUndefined();
    expect(JSON.stringify(after.status.notes ?? [])).not.toContain("llamastack.io/network-policy");
  });

  it("with the flag on (a NetworkPolicy observed), and for a new CR, the NetworkPolicy stays", () => {
    const { cr, related } = goStyleCr("no-config-map");
    const go: GoCr = { name: cr.metadata.name, namespace: NS, uid: cr.metadata.uid as string, spec: cr.spec as GoSpec };
    expect(
      child(
        syncOf({ parent: hub(cr), children: objectMap(goObserved(go)), related: objectMap(related) }),
        "NetworkPolicy",
      ),
    ).toBeDefined();
    expect(
      child(syncOf({ parent: hub(cr), children: {}, related: objectMap(related) }), "NetworkPolicy"),
    ).toBeDefined();
  });

  it("keeps the Service's endpoints: targetPort stays the number the Go pods' unnamed port listens on (item 3)", () => {
    const { answer, go } = takeover("user-config");
    const observed = goObserved(go, undefined, false);
    const goPorts = (
      spec(observed.find((o) => o.kind === "Deployment")).template as { spec: { containers: { ports: Json[] }[] } }
    ).spec.containers[0]!.ports;
    const [servicePort] = spec(child(answer, "Service")).ports as Json[];
    expect(goPorts).toEqual([{ containerPort: 8321 }]);
    expect(servicePort!.targetPort).toBe(8321);
  });
});

describe("a Go-style CR that autoscales on the image's own state (docs row 26a)", () => {
  const { cr, related } = goStyleCr("full-workload");
  const go: GoCr = { name: cr.metadata.name, namespace: NS, uid: cr.metadata.uid as string, spec: cr.spec as GoSpec };

  it("is refused as a new CR: up to 4 pods, each with its own sqlite stores and files", () => {
    const answer = syncOf({ parent: hub(cr), children: {}, related: objectMap(related) });
    expect([answer.status.phase, answer.children]).toEqual(["Failed", []]);
    expect(JSON.stringify(answer.status.conditions)).toContain('"reason":"UnsharedState"');
  });

  it("keeps the Go operator's running children as they are when taken over (Stalled)", () => {
    const observed = goObserved(go, undefined, false);
    const answer = syncOf({ parent: hub(cr), children: objectMap(observed), related: objectMap(related) });
    expect(answer.children.map((c) => `${c.kind} ${c.metadata.name}`).sort()).toEqual(
      observed.map((c) => `${c.kind} ${c.metadata.name}`).sort(),
    );
    expect(JSON.stringify(answer.status.conditions)).toMatch(
      /"type":"Stalled","status":"True","reason":"UnsharedState"/,
    );
  });
});
