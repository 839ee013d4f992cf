/**
 * The road in from the OGX operator: the facts read from an OGXServer, the ordered steps with
 * the real names, and docs/migrating-from-ogxserver.md showing exactly the commands the code prints.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { factsOfOgxServer, type OgxServerFacts } from "../../../lib/migrate/ogxserver-facts";
import { labelledChildren, ogxServerSteps, renderOgxTakeover } from "../../../lib/migrate/ogxserver-steps";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { expectGolden } from "../../golden";

const NONE: OgxServerFacts = {
  storage: false,
  expose: false,
  autoscaling: false,
  podDisruptionBudget: false,
  networkPolicy: true,
  caBundle: false,
  generatedConfig: false,
  monitoring: true,
};
const starter = { distribution: { name: "starter" } };

describe("factsOfOgxServer", () => {
  it.each<[string, object, Partial<OgxServerFacts>]>([
    ["a bare server", starter, {}],
    ["storage", { ...starter, workload: { storage: {} } }, { storage: true }],
    ["external access", { ...starter, network: { externalAccess: { enabled: true } } }, { expose: true }],
    ["external access off", { ...starter, network: { externalAccess: { enabled: false } } }, {}],
    ["autoscaling", { ...starter, workload: { autoscaling: { maxReplicas: 3 } } }, { autoscaling: true }],
    ["two replicas: a default budget", { ...starter, workload: { replicas: 2 } }, { podDisruptionBudget: true }],
    ["a budget", { ...starter, workload: { podDisruptionBudget: { minAvailable: 1 } } }, { podDisruptionBudget: true }],
    ["policy off", { ...starter, network: { policy: { enabled: false } } }, { networkPolicy: false }],
    [
      "trusted CAs",
      { ...starter, tls: { trust: { caCertificates: [{ name: "ca", key: "ca.crt" }] } } },
      { caBundle: true },
    ],
    ["providers: generated config", { ...starter, providers: { inference: {} } }, { generatedConfig: true }],
    [
      "providers with overrideConfig: none generated",
      { ...starter, disabledAPIs: ["batches"], overrideConfig: { name: "c", key: "k" } },
      {},
    ],
    ["monitoring off", { ...starter, monitoring: { enabled: false } }, { monitoring: false }],
  ])("%s", (_, spec, facts) => {
    expect(factsOfOgxServer({ spec })).toEqual({ ...NONE, ...facts });
  });

  it("takes what only the cluster knows: the ODH CA bundle, the monitoring CRDs", () => {
    expect(factsOfOgxServer({ spec: starter }, { odhCaBundle: true, monitoringCrds: false })).toEqual({
      ...NONE,
      caBundle: true,
      monitoring: false,
    });
  });
});

const llsd = (name: string, namespace: string, spec: object = starter): KubeObject => ({
  apiVersion: "llamastack.io/v1alpha2",
  kind: "LlamaStackDistribution",
  metadata: { name, namespace },
  spec,
});
const ALL: OgxServerFacts = {
  storage: true,
  expose: true,
  autoscaling: true,
  podDisruptionBudget: true,
  networkPolicy: true,
  caBundle: true,
  generatedConfig: true,
  monitoring: true,
};
const commands = (facts: OgxServerFacts, name = "chat", ns = "team-a"): string[] =>
  ogxServerSteps(llsd(name, ns), facts).steps.flatMap((s) => s.command ?? []);

describe("ogxServerSteps", () => {
  it("orders the steps: orphan the children, apply the LLSD, label, wait, then clean up", () => {
    const verbs = commands(ALL).map((c) => c.split(" ").slice(0, 2).join(" "));
    expect(verbs).toEqual([
      "llsd validate",
      "kubectl delete",
      "kubectl delete",
      "kubectl apply",
      "kubectl label",
      "kubectl rollout",
      "kubectl wait",
      "kubectl delete",
    ]);
    expect(commands(ALL)[1]).toBe("kubectl delete ogxserver chat -n team-a --cascade=orphan");
  });

  it.each<[string, Partial<OgxServerFacts>, string[]]>([
    ["a bare server", {}, ["deploy/chat", "svc/chat-service", "networkpolicy/chat-network-policy"]],
    ["policy off", { networkPolicy: false }, ["deploy/chat", "svc/chat-service"]],
    [
      "everything",
      ALL,
      [
        "deploy/chat",
        "svc/chat-service",
        "pvc/chat-pvc",
        "networkpolicy/chat-network-policy",
        "pdb/chat-pdb",
        "hpa/chat-hpa",
        "ingress/chat-ingress",
        "configmap/chat-ca-bundle",
      ],
    ],
  ])("labels what the OGX operator made of the hooks' kinds, never its generated ConfigMaps (%s)", (_, facts, refs) => {
    const label = commands({ ...NONE, ...facts }).find((c) => c.startsWith("kubectl label"))!;
    expect(label).toBe(
      `kubectl label -n team-a ${refs.join(" ")} controller-uid=$(kubectl get llsd chat -n team-a -o jsonpath='{.metadata.uid}')`,
    );
    expect(labelledChildren("chat", { ...NONE, ...facts })).toHaveLength(refs.length);
  });

  it.each<[string, Partial<OgxServerFacts>, string, boolean]>([
    ["monitoring objects deleted with monitoring", { monitoring: true }, "servicemonitor/chat-service-monitor", true],
    ["… and not without", { monitoring: false }, "servicemonitor/", false],
    ["generated ConfigMaps removed once Ready", { generatedConfig: true }, "ogx.io/generated-config=true", true],
    ["… and nothing to remove without", { generatedConfig: false }, "ogx.io/generated-config", false],
  ])("%s", (_, facts, text, present) => {
    expect(commands({ ...NONE, ...facts }).some((c) => c.includes(text))).toBe(present);
  });

  it("says the Service keeps the LLSD's port as a number, and the PVC is kept only when there is one", () => {
    const plan = ogxServerSteps(llsd("chat", "team-a", { ...starter, networking: { port: 9000 } }), NONE);
    expect(plan.changes.find((c) => c.startsWith("Service/"))).toContain("targetPort 9000");
    expect(plan.kept.some((k) => k.startsWith("PersistentVolumeClaim/"))).toBe(false);
    expect(ogxServerSteps(llsd("chat", "team-a"), ALL).kept[0]).toMatch(/^PersistentVolumeClaim\/chat-pvc/);
  });
});

describe("docs/migrating-from-ogxserver.md", () => {
  const doc = readFileSync(join(__dirname, "..", "..", "..", "docs", "migrating-from-ogxserver.md"), "utf8");
  const shown = [...doc.matchAll(/```sh cluster\n([\s\S]*?)```/g)].flatMap((m) =>
    (m[1] ?? "").split("\n").filter((l) => l !== "" && !l.startsWith("#")),
  );

  it("shows exactly the commands the steps print for its example (chat in team-a, storage, monitoring, generated config)", () => {
    expect(shown).toEqual(commands({ ...NONE, storage: true, generatedConfig: true }));
  });
});

describe("renderOgxTakeover", () => {
  it.each<[string, Partial<OgxServerFacts>]>([
    ["storage", { storage: true, generatedConfig: true }],
    ["everything", ALL],
  ])("prints the steps, the changes, what is kept and the rollback (%s)", (name, facts) => {
    expectGolden(
      `takeover-ogx/steps-${name}.txt`,
      renderOgxTakeover(ogxServerSteps(llsd("chat", "team-a"), { ...NONE, ...facts })),
    );
  });
});
