/**
 * Issue 37 part 2 through the sync hook: a CR whose workload runs more than one pod while its
 * config keeps state inside each pod. New: refused, nothing created. Running: kept exactly as it
 * runs (docs/failure-policy.md), `Stalled` with reason UnsharedState and a note; kstatus reads Failed.
 */
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../../lib/wire/metacontroller";
import { kstatus } from "../../kstatus";
import { aConfigMap, aParent, aRequest, aSecret, deps, observedFrom } from "../../sync-builders";

const PG = aSecret("pg", { dsn: "postgresql://u:p@pg.db:5432/llama" });
const SHARED_STORAGE: LlsdSpecV1alpha2["storage"] = {
  kv: { type: "redis", endpoint: "redis.db:6379" },
  sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } },
};
const OVERRIDE = aConfigMap("mine", {
  "config.yaml":
    "version: 2\napis: [vector_io]\nproviders:\n  vector_io:\n  - provider_id: faiss\n    provider_type: inline::faiss\n    config: {persistence: {backend: kv_default, namespace: v}}\nstorage:\n  backends:\n    kv_default: {type: kv_redis, host: redis.db, port: 6379}\n",
});

/** In KINDS: the state is refused at the field that scales the workload. */
const SCALE = "(the scale field)";

/** One pod-local kind per row: the spec (one pod), what it runs on, the field the refusal names. */
const KINDS: [string, LlsdSpecV1alpha2, string][] = [
  ["the image's own sqlite stores", { distribution: { name: "starter" } }, SCALE],
  [
    "sqlite kv storage",
    {
      distribution: { name: "postgres-demo" },
      storage: { kv: { type: "sqlite" } },
      disabled: ["files", "responses", "toolRuntime"],
    },
    "spec.storage.kv.type",
  ],
  [
    "an inline vector store",
    {
      distribution: { name: "postgres-demo" },
      storage: SHARED_STORAGE,
      providers: { vectorIo: { id: "faiss", provider: "faiss" } },
      disabled: ["files", "responses", "toolRuntime"],
    },
    "spec.providers.vectorIo.provider",
  ],
  ["the base's localfs files", { distribution: { name: "postgres-demo" }, storage: SHARED_STORAGE }, SCALE],
  [
    "an override with faiss",
    { distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } },
    "spec.overrideConfig.configMapName",
  ],
];

const SCALES: [string, LlsdSpecV1alpha2["workload"], string][] = [
  ["replicas: 3", { replicas: 3 }, "spec.workload.replicas"],
  ["autoscaling to 5", { autoscaling: { minReplicas: 1, maxReplicas: 5 } }, "spec.workload.autoscaling.maxReplicas"],
];

const scaled = (spec: LlsdSpecV1alpha2, workload: LlsdSpecV1alpha2["workload"]): LlsdSpecV1alpha2 => ({
  ...spec,
  workload,
});

type Condition = { type: string; status: string; reason: string; message: string };
const condition = (answer: SyncResponse, type: string): Condition | undefined =>
  (answer.status.conditions as Condition[]).find((c) => c.type === type);

function expectUnshared(answer: SyncResponse, path: string): void {
  // Every refusal names the field that scales the workload, also where it is said at another field.
  expect(answer.status.phase).toBe("Failed");
  expect(condition(answer, "ConfigGenerated")).toMatchObject({ status: "False", reason: "UnsharedState" });
  expect(condition(answer, "ConfigGenerated")?.message).toContain(`${path}: `);
  expect(condition(answer, "Stalled")).toMatchObject({ status: "True", reason: "UnsharedState" });
  expect(condition(answer, "Reconciling")?.status).toBe("False");
}

describe.each(SCALES)("a workload of %s", (_scale, workload, scalePath) => {
  it.each(KINDS)("a new CR with %s is refused and nothing is created", (_kind, spec, path) => {
    const answer = sync(aRequest(aParent(scaled(spec, workload)), [], [PG, OVERRIDE]), deps());
    expect(answer.children).toEqual([]);
    expectUnshared(answer, path === SCALE ? scalePath : path);
    expect(kstatus({ metadata: { generation: 1 }, status: answer.status })).toBe("Failed");
  });

  it.each(KINDS)("a running CR with %s keeps its children byte for byte", (_kind, spec, path) => {
    const first = sync(aRequest(aParent(spec), [], [PG, OVERRIDE]), deps());
    expect(first.status.phase).toBe("Pending");
    const running: KubeObject[] = observedFrom(first.children);
    const parent = aParent(scaled(spec, workload), { generation: 2, status: first.status });
    const answer = sync(aRequest(parent, running, [PG, OVERRIDE]), deps());
    expect(JSON.stringify(answer.children)).toBe(JSON.stringify(first.children));
    expectUnshared(answer, path === SCALE ? scalePath : path);
    expect(answer.status.notes).toContainEqual(
      expect.stringMatching(
        /^spec.workload: the running Deployment \(1 pods\) and the other children are kept as they are/,
      ),
    );
    expect(kstatus({ metadata: { generation: 2 }, status: answer.status })).toBe("Failed");
  });
});

it.each(KINDS)("one pod with %s runs as before", (_kind, spec) => {
  const answer = sync(aRequest(aParent(scaled(spec, { replicas: 1 })), [], [PG, OVERRIDE]), deps());
  expect(answer.status.phase).toBe("Pending");
  expect(answer.children.some((c) => c.kind === "Deployment")).toBe(true);
});
