/**
 * Takeover: the children the Go operator made for a v1alpha1 CR (tests/parity/go-operator.ts,
 * written from the Go operator's source) come back to the hooks as observed children of the same CR
 * (same UID). The hooks must answer every one of them with the same kind, apiVersion and name
 * (an omitted child is deleted, another GVK is a new object) and the same selectors (a
 * Deployment's is immutable), so Metacontroller updates them in place. What changes is a golden
 * file per scenario: tests/golden/takeover/<scenario>.txt.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { toHub } from "../../lib/conversion/v1alpha1";
import { normalize } from "../../lib/api/normalize";
import { planCaBundle } from "../../lib/sync/ca-bundle";
import { sync } from "../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { expectGolden } from "../golden";
import { validateChild } from "../lib/children/models";
import { aConfigMap, deps, NS, objectMap } from "../sync-builders";
import { diff } from "./diff";
import { goDesired, goObserved, goOutsideChildren, type GoCr, type GoSpec } from "./go-operator";

const UID = "5f0c3a4e-9b7d-4c1e-8a2f-7d6e5c4b3a21";

function sampleCr(): { spec: GoSpec; related: KubeObject[] } {
  const docs = parseAllDocuments(
    readFileSync(join(__dirname, "..", "..", "samples", "v1alpha1-migration.yaml"), "utf8"),
  );
  const objects = (Array.isArray(docs) ? docs : []).map((d) => d.toJS() as KubeObject);
  const cr = objects.find((o) => o.kind === "LlamaStackDistribution")!;
  const related = objects
    .filter((o) => o.kind === "ConfigMap")
    .map((o) => ({ ...o, metadata: { ...o.metadata, namespace: NS } }));
  return { spec: cr.spec as GoSpec, related };
}

const USER_CONFIG = aConfigMap("llama-config", {
  "config.yaml": "version: 2\nimage_name: starter\napis: [inference]\nproviders:\n  inference: []\n",
});

type Scenario = { spec: GoSpec; related: KubeObject[]; networkPolicyFlag?: false };
const SCENARIOS: [string, () => Scenario][] = [
  ["migration-sample", sampleCr],
  [
    "user-config",
    () => ({
      spec: {
        server: {
          distribution: { name: "starter" },
          containerSpec: { name: "llama-stack", port: 8321, env: [{ name: "INFERENCE_MODEL", value: "llama3.2:1b" }] },
          userConfig: { configMapName: "llama-config" },
        },
        network: { exposeRoute: false },
      },
      related: [USER_CONFIG],
    }),
  ],
  [
    "minimal",
    () => ({
      spec: {
        replicas: 1,
        server: { distribution: { name: "starter" }, containerSpec: { name: "llama-stack", port: 8321 } },
      },
      related: [],
    }),
  ],
  // The Go operator's default: its enableNetworkPolicy flag off, so it made no NetworkPolicy.
  [
    "minimal-network-policy-flag-off",
    () => ({
      spec: {
        replicas: 1,
        server: { distribution: { name: "starter" }, containerSpec: { name: "llama-stack", port: 8321 } },
      },
      related: [],
      networkPolicyFlag: false,
    }),
  ],
  // Neither containerSpec.port nor env: the Go operator made no Service (HasPorts), the hooks add one.
  [
    "no-service",
    () => ({
      spec: { replicas: 1, server: { distribution: { name: "starter" }, containerSpec: { name: "llama-stack" } } },
      related: [],
    }),
  ],
];

interface Takeover {
  readonly cr: GoCr;
  readonly go: KubeObject[];
  readonly observed: KubeObject[];
  readonly response: SyncResponse;
}

function takeover(name: string, make: () => Scenario): Takeover {
  const { spec, related, networkPolicyFlag = true } = make();
  const cr: GoCr = { name: "my-llsd", namespace: NS, uid: UID, spec };
  // The Go operator builds the same bundle (same certificates, re-encoded, joined by blank lines).
  const ca = spec.server.tlsConfig?.caBundle
    ? planCaBundle({
        tls: normalize({
          distribution: { name: "starter" },
          networking: { tls: { caBundle: { configMapName: spec.server.tlsConfig.caBundle.configMapName } } },
        }).networking.tls,
        related: objectMap(related),
        namespace: NS,
      })
    : undefined;
  const caData = ca && "bundle" in ca ? ca.bundle?.data : undefined;
  const converted = toHub({
    apiVersion: "llamastack.io/v1alpha1",
    kind: "LlamaStackDistribution",
    metadata: { name: cr.name, namespace: NS, uid: UID, generation: 3 },
    spec,
  });
  if (!converted.ok) throw new Error(`${name}: ${JSON.stringify(converted.errors)}`);
  const observed = goObserved(cr, caData, networkPolicyFlag);
  const parent = converted.object as unknown as KubeObject;
  const response = sync({ parent, children: objectMap(observed), related: objectMap(related) }, deps());
  return { cr, go: goDesired(cr, caData, networkPolicyFlag), observed, response };
}

const id = (o: KubeObject) => `${o.kind}/${o.metadata.name}`;
const selectorOf = (o: KubeObject): unknown => {
  const spec = (o.spec ?? {}) as { selector?: unknown; podSelector?: unknown };
  return o.kind === "NetworkPolicy" ? spec.podSelector : spec.selector;
};

function report(name: string, t: Takeover): string {
  const lines = [
    `# Takeover of a Go-operator CR (${name}): what the hooks' first sync changes in each child.`,
    "# Observed: the Go operator's children (tests/parity/go-operator.ts). Desired: the hooks' answer.",
    "# Metacontroller updates every child below in place (same kind, apiVersion, name; selectors unchanged).",
    "# `~` changed, `+` added by the hooks, `-` set by the Go operator only. Metacontroller's first apply",
    "# has no last-applied record for these objects, so `-` fields stay on them until edited (e.g. the",
    "# pods keep serviceAccountName <name>-sa, which stays too). Lists with names are compared by name.",
    `# phase: ${String(t.response.status.phase)}`,
    "",
  ];
  for (const desired of t.response.children) {
    const go = t.go.find((g) => id(g) === id(desired));
    if (!go) {
      lines.push(`## ${id(desired)}: new (the Go operator had none)`, "");
      continue;
    }
    const changes = diff(go, desired);
    lines.push(`## ${id(desired)}: kept, updated in place; selector ${JSON.stringify(selectorOf(go) ?? null)}`);
    lines.push(...(changes.length > 0 ? changes : ["(no change)"]), "");
  }
  lines.push("## Not Metacontroller children (never observed, left as they are until the CR is deleted)");
  lines.push(...goOutsideChildren(t.cr).map((o) => `- ${o}`), "");
  return lines.join("\n");
}

describe.each(SCENARIOS)("taking over the Go operator's children (%s)", (name, make) => {
  const t = takeover(name, make);

  it("answers every observed child with the same kind, apiVersion and name: nothing is deleted or recreated", () => {
    for (const observed of t.observed) {
      const desired = t.response.children.find((c) => id(c) === id(observed));
      expect([id(observed), desired?.apiVersion]).toEqual([id(observed), observed.apiVersion]);
    }
  });

  it("keeps every selector, the Deployment's (immutable) and its pod labels first", () => {
    for (const observed of t.observed) {
      const desired = t.response.children.find((c) => id(c) === id(observed))!;
      expect([id(observed), selectorOf(desired)]).toEqual([id(observed), selectorOf(observed)]);
    }
    const pods = (o: KubeObject) =>
      (o.spec as { template: { metadata: { labels: unknown } } }).template.metadata.labels;
    const deployment = (list: readonly KubeObject[]) => list.find((o) => o.kind === "Deployment")!;
    expect(pods(deployment(t.response.children))).toEqual(pods(deployment(t.observed)));
  });

  it("answers valid objects and a status that is not Failed", () => {
    for (const child of t.response.children) validateChild(child);
    expect(t.response.status.phase).toBe("Ready");
  });

  it("changes what the golden file shows", () => {
    expectGolden(`takeover/${name}.txt`, report(name, t));
  });
});
