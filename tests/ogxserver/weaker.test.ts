/**
 * "Nothing weaker by surprise" (lib/ogx/guards.ts, weaker.ts, lib/cli/weaker.ts): a conversion
 * whose result enforces less than its source (auth, TLS, a NetworkPolicy rule, a store) exits 1
 * with the field of each loss; `--allow-weaker` prints the same list as warnings and converts.
 */
import { parse, parseAllDocuments, stringify } from "yaml";
import type { JsonMap } from "../../lib/json";
import { llsdGuards, ogxGuards } from "../../lib/ogx/guards";
import { losses } from "../../lib/ogx/weaker";
import { llsd } from "../cli-helpers";
import { anLlsd, anOgxServer } from "./helpers";

const files = (object: unknown) => ({ "in.yaml": stringify(object) });
const TO_OGX = ["convert", "--to", "ogx.io/v1beta1"];
const ADOPT = ["convert", "--to", "ogx.io/v1beta1", "--adopt"];
const TO_LLSD = ["convert", "--to", "v1alpha2"];
const MIGRATE = ["migrate", "--from", "ogxserver"];
const INGRESS = [{ from: [{ namespaceSelector: { matchLabels: { team: "a" } } }] }];
const EGRESS = [{ to: [{ ipBlock: { cidr: "10.0.0.0/8" } }] }];

/** Each case: the command, the source, and the field of every loss, in order. */
const LOSSES: [string, string[], JsonMap, string[]][] = [
  [
    "an exposed LLSD with auth",
    TO_OGX,
    anLlsd({ networking: { expose: true }, auth: { kubernetes: {} } }),
    ["spec.auth"],
  ],
  ["auth, adopted", ADOPT, anLlsd({ auth: { kubernetes: {} } }), ["spec.auth"]],
  [
    "TLS served",
    TO_OGX,
    anLlsd({ networking: { tls: { enabled: true, secretName: "tls" } } }),
    ["spec.networking.tls.enabled"],
  ],
  [
    "TLS at the edge, a Secret",
    TO_OGX,
    anLlsd({ networking: { expose: { hostname: "llama.example.com", tls: { secretName: "edge" } } } }),
    ["spec.networking.expose.tls"],
  ],
  [
    "TLS at the edge from an issuer, and the Gateway's check of the server",
    TO_OGX,
    anLlsd({
      networking: {
        tls: { enabled: true, secretName: "tls" },
        expose: {
          hostname: "llama.example.com",
          tls: { issuer: { name: "letsencrypt", kind: "ClusterIssuer" } },
          backendTLS: { caConfigMapName: "ca" },
        },
      },
    }),
    ["spec.networking.tls.enabled", "spec.networking.expose.tls", "spec.networking.expose.backendTLS"],
  ],
  [
    "allowedFrom peers",
    TO_OGX,
    anLlsd({ networking: { allowedFrom: { namespaces: ["a", "b"], labels: ["client"] } } }),
    [
      "spec.networking.allowedFrom.namespaces[0]",
      "spec.networking.allowedFrom.namespaces[1]",
      "spec.networking.allowedFrom.labels[0]",
    ],
  ],
  [
    "egress rules without ingress rules",
    TO_OGX,
    anLlsd({ networking: { policy: { egress: EGRESS } } }),
    ["spec.networking.policy.egress", "spec.networking.policy.egress[0]"],
  ],
  [
    "metrics scrapers",
    TO_OGX,
    anLlsd({ monitoring: { enabled: true, allowedFrom: { namespaces: ["prom"] } } }),
    ["spec.monitoring.allowedFrom.namespaces[0]"],
  ],
  [
    "defaultIngress: false without rules (the peer would write its defaults)",
    TO_OGX,
    anLlsd({ networking: { policy: { defaultIngress: false } } }),
    ["spec.networking.policy.defaultIngress"],
  ],
];

describe("a conversion that would enforce less", () => {
  it.each(LOSSES)("%s: exit 1, each loss at its field, nothing printed", (_name, args, object, paths) => {
    const run = llsd([...args, "in.yaml"], files(object));
    expect([run.code, run.stdout]).toEqual([1, ""]);
    const [header, ...lines] = run.stderr.slice(run.stderr.indexOf("error: ")).trimEnd().split("\n");
    expect(header).toMatch(
      /would enforce less than what it is converted from; .* pass --allow-weaker to convert anyway/,
    );
    expect(lines.map((l) => l.split(": ")[0])).toEqual(paths);
  });

  it.each(LOSSES)("%s, --allow-weaker: the same list as warnings, exit 0", (_name, args, object, paths) => {
    const refused = llsd([...args, "in.yaml"], files(object));
    const listed = refused.stderr.slice(refused.stderr.indexOf("error: ")).trimEnd().split("\n").slice(1);
    const run = llsd([...args, "--allow-weaker", "in.yaml"], files(object));
    expect(run.code).toBe(0);
    expect(parse(run.stdout)).toBeTruthy();
    const prefix = /^warning: demo: (\S+): weaker \(--allow-weaker\): /;
    const weaker = run.stderr.split("\n").filter((l) => prefix.test(l));
    expect(weaker.map((l) => l.replace(prefix, "$1: "))).toEqual(listed);
    expect(listed).toHaveLength(paths.length);
    expect(run.stderr).not.toContain("error:");
  });
});

describe("a conversion that keeps what is enforced", () => {
  const stores = {
    storage: {
      kv: { type: "redis", endpoint: "redis:6379" },
      sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } },
    },
    workload: { storage: { size: "1Gi" } },
  };
  it.each<[string, string[], JsonMap]>([
    [
      "stores, a PVC, CA certificates and ingress rules, to OGXServer",
      TO_OGX,
      anLlsd({
        ...stores,
        networking: { tls: { caBundle: { configMapName: "ca" } }, policy: { ingress: INGRESS, egress: EGRESS } },
      }),
    ],
    [
      "rules that replace the defaults (defaultIngress: false), to OGXServer",
      TO_OGX,
      anLlsd({ networking: { policy: { defaultIngress: false, ingress: INGRESS, egress: EGRESS } } }),
    ],
    [
      "ingress rules that replace the peer's defaults, converted",
      TO_LLSD,
      anOgxServer({ network: { policy: { ingress: INGRESS, egress: EGRESS } } }),
    ],
    [
      "the same, migrated",
      MIGRATE,
      anOgxServer({ network: { policy: { ingress: INGRESS } }, monitoring: { enabled: false } }),
    ],
    [
      "stores, a PVC, CA certificates and egress beside ingress, from OGXServer",
      TO_LLSD,
      anOgxServer({
        ...stores,
        tls: { trust: { caCertificates: [{ name: "ca", key: "ca.crt" }] } },
        network: { policy: { enabled: false } },
      }),
    ],
  ])("%s: exit 0, no loss", (_name, args, object) => {
    const run = llsd([...args, "in.yaml"], files(object));
    expect([run.code, run.stderr]).toEqual([0, expect.not.stringMatching(/weaker|error:/)]);
  });

  it("an OGXServer's ingress rules become the LLSD's, with defaultIngress: false", () => {
    const run = llsd([...MIGRATE, "in.yaml"], files(anOgxServer({ network: { policy: { ingress: INGRESS } } })));
    const llsdDoc = parseAllDocuments(run.stdout)
      .map((d) => d.toJS() as JsonMap)
      .find((d) => d.kind === "LlamaStackDistribution");
    expect([run.code, (llsdDoc?.spec as JsonMap | undefined)?.networking]).toEqual([
      0,
      expect.objectContaining({ policy: { defaultIngress: false, ingress: INGRESS } }),
    ]);
  });
});

describe("the rule: a guard of the source that the result lacks (or holds with another value) is lost", () => {
  const redis = { storage: { kv: { type: "redis", endpoint: "redis:6379" } } };
  it.each<[string, JsonMap, JsonMap, string[]]>([
    ["a KV store dropped", redis, {}, ["spec.storage.kv"]],
    ["a KV store moved", redis, { storage: { kv: { type: "redis", endpoint: "other:6379" } } }, ["spec.storage.kv"]],
    [
      "an SQL store dropped",
      { storage: { sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } } },
      {},
      ["spec.storage.sql"],
    ],
    ["a PVC dropped", { workload: { storage: {} } }, {}, ["spec.workload.storage"]],
    [
      "a CA key dropped",
      { networking: { tls: { caBundle: { configMapName: "ca", configMapKeys: ["a", "b"] } } } },
      { tls: { trust: { caCertificates: [{ name: "ca", key: "a" }] } } },
      ["spec.networking.tls.caBundle"],
    ],
    ["the NetworkPolicy turned off", {}, { network: { policy: { enabled: false } } }, ["spec.networking.policy"]],
    [
      "rules only (defaultIngress: false) where the peer gets an empty list (its defaults)",
      { networking: { policy: { defaultIngress: false, ingress: [] } } },
      { network: { policy: { ingress: [] } } },
      ["spec.networking.policy.defaultIngress"],
    ],
    [
      "egress beside an empty ingress list (the peer ignores it)",
      { networking: { policy: { egress: EGRESS } } },
      { network: { policy: { ingress: [], egress: EGRESS } } },
      ["spec.networking.policy.egress", "spec.networking.policy.egress[0]"],
    ],
    [
      "TLS at the edge of an exposure the peer keeps",
      { networking: { expose: { hostname: "h", tls: { secretName: "edge" } } } },
      { network: { externalAccess: { enabled: true, hostname: "h" } } },
      ["spec.networking.expose.tls"],
    ],
    [
      "edge TLS of an exposure that is off: nothing is enforced, nothing lost",
      { networking: { expose: { enabled: false, tls: { secretName: "edge" }, backendTLS: {} } } },
      {},
      [],
    ],
    ["nothing lost", redis, redis, []],
  ])("%s", (_name, llsdSpec, ogxSpec, paths) => {
    expect(losses(llsdGuards(llsdSpec), ogxGuards(ogxSpec), "OGXServer").map((l) => l.path)).toEqual(paths);
  });
});
