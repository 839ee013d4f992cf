/**
 * metacontroller/argocd/health.lua, Argo CD's health check for LLSDs, run by a real Lua 5.1
 * (tests/lua.ts) against statuses the real POST /sync answered: every sample through its
 * rollout (created, served, edited, stuck, scaled to zero) and every failure reason
 * docs/spec-reference.md lists. kstatus, which Flux reads, must tell the same story, and the
 * argocd-cm snippet must carry the script as it is.
 */
import { run } from "@bufbuild/cel";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import request from "supertest";
import { parse } from "yaml";
import { createApp } from "../../hooks/app";
import { createLogger } from "../../hooks/logger";
import { createMetrics } from "../../hooks/metrics";
import { toCel } from "../../lib/crd/check";
import type { LiveReport } from "../../lib/live/types";
import type { ResolvedProviderSpec } from "../../lib/oci";
import { customize } from "../../lib/sync/customize";
import type { BaseOutcome } from "../../lib/sync/base-source";
import { sync } from "../../lib/sync/sync";
import type { KubeObject, SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { FIXTURE_DIGEST, fixtureFound, providerSpecYaml } from "../external-fixtures";
import { kstatus, type KstatusResult } from "../kstatus";
import { ROOT_CA } from "../lib/sync/certificates";
import { runHealthScript } from "../lua";
import {
  aConfigMap,
  aParent,
  aRequest,
  aSecret,
  deps,
  objectMap,
  observedFrom,
  sampleRequest,
  steadyState,
} from "../sync-builders";

// Each sample runs a rollout of several real syncs over HTTP and a Lua process: on a loaded
// 2-core machine that outlasts jest's 5 s default. A bound on hanging, not on speed.
jest.setTimeout(120_000);

const ROOT = join(__dirname, "..", "..");
const SCRIPT = join(ROOT, "metacontroller", "argocd", "health.lua");
const SAMPLES = join(ROOT, "samples");
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

type Find = (r: SyncRequest) => BaseOutcome;

/** Every parent with a status the tests below had /sync write: the corpus docs/gitops.md's tables are checked on. */
const produced: KubeObject[] = [];
type Condition = { type: string; status: string; reason: string; message: string };

/** The real hooks app; the I/O step's findings (image labels, provider metadata, the server's answer) come from `find` and `live`. */
function appWith(find: Find, failSync = false, live?: LiveReport) {
  return createApp({
    handlers: {
      sync: (r) => (failSync ? Promise.reject(new Error("boom")) : Promise.resolve(sync(r, deps(), find(r), live))),
      customize: (r) => Promise.resolve(customize(r)),
    },
    logger: createLogger({ level: "silent", destination: { write: () => undefined } }),
    metrics: createMetrics(),
    isReady: () => true,
  });
}

const fixtures: Find = (r) => fixtureFound(r.parent.spec);

async function post(app: ReturnType<typeof appWith>, body: SyncRequest): Promise<SyncResponse> {
  return (await request(app).post("/sync").send(body).expect(200)).body as SyncResponse;
}

/** The parent as the cluster holds it once Metacontroller wrote the answer's status. */
const written = (r: SyncRequest, answer: SyncResponse): KubeObject => ({ ...r.parent, status: answer.status });

const conditionOf = (parent: KubeObject, type: string): Condition | undefined =>
  ((parent.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === type);

/** The request with its observed Deployment changed by `edit` (its status, as the Deployment controller writes it). */
function withDeployment(r: SyncRequest, edit: (d: Record<string, unknown>) => void): SyncRequest {
  const children = Object.values(r.children ?? {}).flatMap((m) => Object.values(m).map((o) => structuredClone(o)));
  for (const c of children) if (c.kind === "Deployment") edit(c);
  return { ...r, children: objectMap(children) };
}

const stuck = (d: Record<string, unknown>) => {
  d.status = {
    observedGeneration: 1,
    replicas: 2,
    updatedReplicas: 1,
    readyReplicas: 1,
    conditions: [
      {
        type: "Progressing",
        status: "False",
        reason: "ProgressDeadlineExceeded",
        message: 'ReplicaSet "x-5d9" has timed out progressing.',
      },
    ],
  };
};

/** An edit of the spec (a new generation) that changes the pod template of every sample. */
function edited(r: SyncRequest): SyncRequest {
  const parent = structuredClone(r.parent) as KubeObject & { spec: { workload?: { overrides?: { env?: unknown[] } } } };
  const workload = (parent.spec.workload ??= {});
  const overrides = (workload.overrides ??= {});
  overrides.env = [...(overrides.env ?? []), { name: "LLSD_EDITED", value: "1" }];
  const metadata = { ...parent.metadata, generation: (parent.metadata.generation ?? 1) + 1 };
  return { ...r, parent: { ...parent, metadata } };
}

describe.each(samples)("Argo CD health and kstatus of %s through its rollout", (file) => {
  it("Progressing while created, Healthy once served, Progressing after an edit, Degraded when the rollout is stuck", async () => {
    const app = appWith(fixtures);
    const once = (r: SyncRequest) => post(app, r);
    const first = sampleRequest(join(SAMPLES, file));
    const steady = await steadyState(first, once);
    const edit = edited(steady);
    const moments: [string, KubeObject, string, KstatusResult][] = [
      ["created", written(first, await once(first)), "Progressing", "InProgress"],
      ["served", steady.parent, "Healthy", "Current"],
      ["edited, not yet seen by the hooks", edit.parent, "Progressing", "InProgress"],
      ["edited, seen", written(edit, await once(edit)), "Progressing", "InProgress"],
      ["stuck", written(steady, await once(withDeployment(steady, stuck))), "Degraded", "Failed"],
    ];
    const health = runHealthScript(
      SCRIPT,
      moments.map(([, parent]) => parent),
    );
    produced.push(...moments.map(([, parent]) => parent));
    expect(moments.map(([moment], i) => [moment, health[i]!.status])).toEqual(
      moments.map(([moment, , argo]) => [moment, argo]),
    );
    expect(moments.map(([moment, parent]) => [moment, kstatus(parent)])).toEqual(
      moments.map(([moment, , , k]) => [moment, k]),
    );
    expect(conditionOf(steady.parent, "Ready")).toEqual(expect.objectContaining({ status: "True", reason: "Serving" }));
    expect(health[1]!.message).toBe(`Serving: ${conditionOf(steady.parent, "Ready")!.message}`);
  });
});

it("a sample scaled to zero replicas is Suspended, for kstatus Current", async () => {
  const app = appWith(fixtures);
  const r = sampleRequest(join(SAMPLES, "minimal.yaml"));
  const parent = r.parent as KubeObject & { spec: { workload?: { replicas?: number } } };
  parent.spec.workload = { ...parent.spec.workload, replicas: 0 };
  const applied = { ...r, children: objectMap(observedFrom((await post(app, r)).children, 0)) };
  const answer = await post(app, applied);
  expect(conditionOf(written(applied, answer), "Ready")).toEqual(expect.objectContaining({ reason: "ScaledToZero" }));
  expect(runHealthScript(SCRIPT, [written(applied, answer)])[0]!.status).toBe("Suspended");
  expect(kstatus(written(applied, answer))).toBe("Current");
  produced.push(written(applied, answer));
});

it("a served sample whose edit llamastack.io/hold-children holds is Suspended, for kstatus Failed (held until someone acts)", async () => {
  const app = appWith(fixtures);
  const steady = await steadyState(sampleRequest(join(SAMPLES, "minimal.yaml")), (r) => post(app, r));
  const edit = edited(steady);
  const held = {
    ...edit,
    parent: {
      ...edit.parent,
      metadata: { ...edit.parent.metadata, annotations: { "llamastack.io/hold-children": "true" } },
    },
  };
  const parent = written(held, await post(app, held));
  const ready = conditionOf(parent, "Ready")!;
  expect(ready).toEqual(expect.objectContaining({ status: "False", reason: "ChildrenHeld" }));
  const [health] = runHealthScript(SCRIPT, [parent]);
  expect([health!.status, health!.message]).toEqual(["Suspended", `ChildrenHeld: ${ready.message}`]);
  expect(kstatus(parent)).toBe("Failed");
  produced.push(parent);
});

it("a served sample whose server stops answering the hooks is Degraded, for kstatus still Current", async () => {
  const file = join(SAMPLES, "minimal.yaml");
  const steady = await steadyState(sampleRequest(file), (r) => post(appWith(fixtures), r));
  const live: LiveReport = { url: "http://x", problems: ["GET /v1/version: no answer within 1.5 s"] };
  const parent = written(steady, await post(appWith(fixtures, false, live), steady));
  expect(conditionOf(parent, "Ready")).toEqual(
    expect.objectContaining({ status: "False", reason: "HealthCheckFailed" }),
  );
  expect(runHealthScript(SCRIPT, [parent])[0]!.status).toBe("Degraded");
  expect(kstatus(parent)).toBe("Current");
  produced.push(parent);
});

// ----- every failure reason ---------------------------------------------------------------------

const vllm = { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "vllm-creds", key: "token" } };
const good = { distribution: { name: "starter" }, providers: { inference: vllm }, resources: { models: ["llama3"] } };
const creds = aSecret("vllm-creds", { token: "s3cr3t-canary" });
const override = { distribution: { name: "starter" }, overrideConfig: { configMapName: "my-config" } };
const IMAGE = "registry.example.com/p/mine:1";
const external = {
  distribution: { name: "starter" },
  externalProviders: { inference: [{ providerId: "mine", image: IMAGE }] },
};
const caSpec = { distribution: { name: "starter" }, networking: { tls: { caBundle: { configMapName: "corp-ca" } } } };

const v1alpha1 = (spec: object, annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: "llamastack.io/v1alpha1",
  kind: "LlamaStackDistribution",
  metadata: { name: "demo", namespace: "team-a", uid: "uid-1", generation: 1, annotations },
  spec,
});
const registry =
  (reason: string, transient: boolean): Find =>
  () => ({
    failure: {
      type: "ConfigGenerated",
      reason,
      errors: [{ path: "spec.distribution.name", message: `the registry said no (${reason})` }],
    },
    transient,
    notes: [],
  });
const metadata =
  (result: ResolvedProviderSpec): Find =>
  () => ({ notes: [], external: { kind: "read", results: [result] } });

interface FailureCase {
  readonly request: SyncRequest;
  readonly find?: Find;
  readonly failSync?: boolean;
}

/** reason → a request (and what the I/O found) that fails with it. */
const FAILURES: { readonly [reason: string]: FailureCase } = {
  InvalidSpec: { request: aRequest(aParent({ ...good, networking: { port: "eighty" } }), [], [creds]) },
  InvalidName: { request: aRequest(aParent(good, { name: "n".repeat(60) }), [], [creds]) },
  UnsharedState: {
    // Two pods on the starter's own config: its sqlite stores and local files stay in each pod.
    request: aRequest(aParent({ distribution: { name: "starter" }, workload: { replicas: 2 } })),
  },
  MetricsUnsupported: {
    request: aRequest(aParent({ distribution: { image: "docker.io/ogx/distribution-starter:0.8.0" }, monitoring: {} })),
  },
  ConversionFailed: {
    request: aRequest(
      v1alpha1({ server: { distribution: { name: "starter" } } }, { "llamastack.io/v1alpha2-fields": "not json" }),
    ),
  },
  ConfigMapNamespaceUnsupported: {
    request: aRequest(
      v1alpha1({
        server: {
          distribution: { name: "starter" },
          userConfig: { configMapName: "cfg", configMapNamespace: "other" },
        },
      }),
    ),
  },
  SecretNotFound: { request: aRequest(aParent(good)) },
  SecretKeyMissing: { request: aRequest(aParent(good), [], [aSecret("vllm-creds", { other: "x" })]) },
  SecretValueMisread: { request: aRequest(aParent(good), [], [aSecret("vllm-creds", { token: "12345" })]) },
  InvalidConnectionString: {
    request: aRequest(
      aParent({ ...good, storage: { sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } } }),
      [],
      [creds, aSecret("pg", { dsn: "not a url" })],
    ),
  },
  ConfigMapNotFound: { request: aRequest(aParent(override)) },
  OverrideConfigInvalid: {
    request: aRequest(aParent(override), [], [aConfigMap("my-config", { "config.yaml": "providers: [\n" })]),
  },
  UnsupportedConfigVersion: {
    request: aRequest(
      aParent(override),
      [],
      [aConfigMap("my-config", { "config.yaml": "version: 3\nproviders: {}\n" })],
    ),
  },
  EnvironmentMissing: {
    request: aRequest(
      aParent({ ...override, externalProviders: external.externalProviders }),
      [],
      [aConfigMap("my-config", { "config.yaml": "version: 2\nproviders:\n  inference: []\nx: ${env.LLSD_NOT_SET}\n" })],
    ),
    find: fixtures,
  },
  ConfigGenerationFailed: {
    request: aRequest(aParent({ ...good, resources: { models: ["llama3"], shields: ["llama-guard"] } }), [], [creds]),
  },
  BaseConfigUnavailable: {
    request: aRequest(aParent({ ...good, distribution: { image: "quay.io/acme/llama:0.7.1" } }), [], [creds]),
  },
  MissingConfigLabels: { request: aRequest(aParent(good), [], [creds]), find: registry("MissingConfigLabels", false) },
  RegistryUnavailable: { request: aRequest(aParent(good), [], [creds]), find: registry("RegistryUnavailable", true) },
  RegistryError: { request: aRequest(aParent(good), [], [creds]), find: registry("RegistryError", false) },
  ImageReadingDisabled: { request: aRequest(aParent(external)) },
  ProviderMetadataMissing: {
    request: aRequest(aParent(external)),
    find: metadata({ kind: "missing", detail: "not in any of its 2 layers", digest: FIXTURE_DIGEST }),
  },
  ProviderMetadataInvalid: {
    request: aRequest(aParent(external)),
    find: metadata({ kind: "found", text: "kind: [\n", layer: "l", digest: FIXTURE_DIGEST }),
  },
  ProviderApiMismatch: {
    request: aRequest(aParent(external)),
    find: metadata({
      kind: "found",
      text: providerSpecYaml("mine", { api: "vector_io" }),
      layer: "l",
      digest: FIXTURE_DIGEST,
    }),
  },
  ExternalProviderImageError: {
    request: aRequest(aParent(external)),
    find: metadata({ kind: "error", reason: "ImageNotFound", message: "no manifest", transient: false }),
  },
  InvalidCABundle: {
    request: aRequest(
      aParent(caSpec),
      [],
      [aConfigMap("corp-ca", { "ca-bundle.crt": "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n" })],
    ),
  },
  CABundleTooLarge: {
    request: aRequest(aParent(caSpec), [], [aConfigMap("corp-ca", { "ca-bundle.crt": ROOT_CA.repeat(1001) })]),
  },
  InternalError: { request: aRequest(aParent(good), [], [creds]), failSync: true },
};

/** A registry that may come back is retried (Progressing); everything else waits for an edit (Degraded). */
const TRANSIENT = new Set(["RegistryUnavailable"]);

/** The failure reasons docs/spec-reference.md lists (ConfigGenerated or SecretsResolved False, not the waiting one). */
function documentedFailureReasons(): string[] {
  const text = readFileSync(join(ROOT, "docs", "spec-reference.md"), "utf8");
  const rows = text.split("\n").filter((l) => /^\| (ConfigGenerated|SecretsResolved) \|.*\| False \|/.test(l));
  const reasons = rows.flatMap((row) => [...row.split("|")[2]!.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!));
  return reasons.filter((r) => r !== "WaitingForSecrets").sort();
}

describe("Argo CD health and kstatus of every failure reason", () => {
  it("covers every failure reason the docs list", () => {
    expect(Object.keys(FAILURES).sort()).toEqual(documentedFailureReasons());
  });

  const answers = Object.entries(FAILURES).map(async ([reason, c]) => {
    const answer = await post(appWith(c.find ?? (() => ({ notes: [] })), c.failSync), c.request);
    return [reason, written(c.request, answer)] as const;
  });

  it("fails each with its own reason, Degraded (Failed for kstatus), or Progressing (InProgress) while the registry may come back", async () => {
    const parents = await Promise.all(answers);
    produced.push(...parents.map(([, parent]) => parent));
    const health = runHealthScript(
      SCRIPT,
      parents.map(([, parent]) => parent),
    );
    const seen = parents.map(([reason, parent], i) => ({
      reason,
      ready: conditionOf(parent, "Ready")?.reason,
      argo: health[i]!.status,
      kstatus: kstatus(parent),
    }));
    expect(seen).toEqual(
      parents.map(([reason]) => ({
        reason,
        ready: reason,
        argo: TRANSIENT.has(reason) ? "Progressing" : "Degraded",
        kstatus: TRANSIENT.has(reason) ? "InProgress" : "Failed",
      })),
    );
    // Argo CD shows the condition's own words: the reason, then the message that names the field.
    for (const [i, [reason, parent]] of parents.entries()) {
      const said = conditionOf(parent, TRANSIENT.has(reason) ? "Reconciling" : "Stalled")!;
      expect(health[i]!.message).toBe(`${reason}: ${said.message}`);
    }
  });
});

describe("the script on statuses no sync of these hooks wrote", () => {
  const ready = { type: "Ready", status: "True", reason: "Serving", message: "ok", observedGeneration: 2 };
  it.each<[string, object, string]>([
    ["no status yet", { metadata: { generation: 1 } }, "Progressing"],
    [
      "a status of an older generation",
      { metadata: { generation: 3 }, status: { observedGeneration: 2, conditions: [ready] } },
      "Progressing",
    ],
    [
      "a Ready condition of an older generation",
      { metadata: { generation: 3 }, status: { conditions: [ready] } },
      "Progressing",
    ],
    [
      "a hold reported for an older generation",
      { metadata: { generation: 3 }, status: { conditions: [{ ...ready, status: "False", reason: "ChildrenHeld" }] } },
      "Progressing",
    ],
    ["hooks without the summary conditions, phase Ready", { status: { phase: "Ready" } }, "Healthy"],
    ["hooks without the summary conditions, phase Failed", { status: { phase: "Failed" } }, "Degraded"],
    ["hooks without the summary conditions, phase Initializing", { status: { phase: "Initializing" } }, "Progressing"],
  ])("%s: %s", (_title, object, expected) => {
    expect(runHealthScript(SCRIPT, [object])[0]!.status).toBe(expected);
  });
});

it("the argocd-cm snippet carries health.lua unchanged, under the key Argo CD reads for the kind", () => {
  const cm = parse(readFileSync(join(ROOT, "metacontroller", "argocd", "argocd-cm.yaml"), "utf8")) as {
    metadata: { name: string };
    data: Record<string, string>;
  };
  expect(cm.metadata.name).toBe("argocd-cm");
  expect(cm.data).toEqual({
    "resource.customizations.health.llamastack.io_LlamaStackDistribution": readFileSync(SCRIPT, "utf8"),
  });
});

// ----- docs/gitops.md, checked on everything above -----------------------------------------------

const GITOPS = readFileSync(join(ROOT, "docs", "gitops.md"), "utf8");

/** The rows of the doc's table of Ready reasons, as cells. */
const REASON_ROWS: string[][] = GITOPS.split("\n")
  .filter((l) => l.startsWith("| ") && /\| (InProgress|Current|Failed) \|/.test(l))
  .map((l) =>
    l
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );

/** The table row for a `Ready` reason: the row that names it, else the "any other" row. */
function tableRow(reason: string): string[] {
  const named = REASON_ROWS.find((r) => r[0] === `\`${reason}\``);
  const other = REASON_ROWS.find((r) => r[0]!.startsWith("any other"));
  if (!named && !other) throw new Error("docs/gitops.md has no table of Ready reasons");
  return named ?? other!;
}

/** Flux's healthCheckExprs from the doc's Kustomization, evaluated as Flux does: the object's fields are the variables. */
function fluxExprs(): { inProgress: string; failed: string; current: string } {
  const block = /```yaml\n([\s\S]*?)```/.exec(GITOPS.slice(GITOPS.indexOf("## Flux")))![1]!;
  const docs = block.split(/^---$/m).map((d) => parse(d) as { spec: { healthCheckExprs?: unknown[] } });
  const exprs = docs.flatMap((d) => d.spec.healthCheckExprs ?? []) as {
    inProgress: string;
    failed: string;
    current: string;
  }[];
  expect(exprs).toHaveLength(1);
  return exprs[0]!;
}

const celOn = (expr: string, parent: KubeObject): unknown =>
  run(expr, { metadata: toCel(undefined, parent.metadata)!, status: toCel(undefined, parent.status)! });

describe("docs/gitops.md against the statuses the hooks wrote above", () => {
  const status = (parent: KubeObject, type: string) => conditionOf(parent, type)?.status;

  it("its table gives, for each Ready reason, the conditions, kstatus and Argo CD as they are", () => {
    expect(produced.length).toBeGreaterThan(samples.length * 5);
    const health = runHealthScript(SCRIPT, produced);
    const current = produced.filter(
      (p) => p.status && (p.status as { observedGeneration?: number }).observedGeneration === p.metadata.generation,
    );
    const rowsSeen = new Set<string>();
    for (const parent of current) {
      const ready = conditionOf(parent, "Ready")!;
      const row = tableRow(ready.reason);
      rowsSeen.add(row[0]!);
      const argo = health[produced.indexOf(parent)]!.status;
      expect([
        ready.reason,
        ready.status,
        status(parent, "Reconciling"),
        status(parent, "Stalled"),
        kstatus(parent),
        argo,
      ]).toEqual([ready.reason, ...row.slice(1)]);
    }
    // Every row is one some status above really had.
    expect(rowsSeen.size).toBe(REASON_ROWS.length);
  });

  it("its Flux CEL expressions agree with the conditions: failed when Stalled, current when Ready, in progress when Reconciling", () => {
    const { inProgress, failed, current } = fluxExprs();
    for (const parent of produced) {
      expect({
        name: parent.metadata.name,
        inProgress: celOn(inProgress, parent),
        failed: celOn(failed, parent),
        current: celOn(current, parent),
      }).toEqual({
        name: parent.metadata.name,
        inProgress: status(parent, "Reconciling") === "True",
        failed: status(parent, "Stalled") === "True",
        current: status(parent, "Ready") === "True",
      });
    }
    expect(celOn(failed, { ...produced[0]!, status: {} })).toBe(false);
  });
});
