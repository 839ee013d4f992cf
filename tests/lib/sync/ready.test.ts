/**
 * The summary conditions (lib/status/summary.ts): `Ready` is True only once the pods run the
 * Deployment spec of this sync — Metacontroller applied it, the Deployment controller saw it,
 * every pod is updated and ready — and `Reconciling`/`Stalled` say which way it is going.
 */
import { DEPLOYMENT_SPEC_HASH_ANNOTATION } from "../../../lib/names";
import type { LiveReport } from "../../../lib/live/types";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps, observedFrom } from "../../sync-builders";

// Two pods: on postgres-demo (Postgres stores, named by POSTGRES_HOST, a remote vector store) without its local files (docs/scaling.md).
const spec = {
  distribution: { name: "postgres-demo" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } } },
  resources: { models: ["llama3"] },
  disabled: ["files", "responses", "toolRuntime"],
  workload: { replicas: 2, overrides: { env: [{ name: "POSTGRES_HOST", value: "postgres.db.svc" }] } },
};
const secret = aSecret("creds", { token: "t" });
type Cond = { type: string; status: string; reason: string; message: string };
type Mutable = {
  metadata: { annotations: Record<string, string>; generation?: number };
  status: Record<string, unknown>;
};

/** The children of a rollout that finished (2 of 2 pods), with the observed Deployment changed by `edit`. */
function observedWith(edit: (d: Mutable) => void): KubeObject[] {
  const children = observedFrom(sync(aRequest(aParent(spec), [], [secret]), deps()).children, 2);
  for (const c of children) if (c.kind === "Deployment") edit(c as unknown as Mutable);
  return children;
}

const summary = (r: SyncResponse) =>
  Object.fromEntries(
    (r.status.conditions as Cond[])
      .filter((c) => ["Ready", "Reconciling", "Stalled"].includes(c.type))
      .map((c) => [c.type, `${c.status} ${c.reason}`]),
  );
const readyMessage = (r: SyncResponse) => (r.status.conditions as Cond[]).find((c) => c.type === "Ready")!.message;

const rolling = {
  Ready: "False RolloutInProgress",
  Reconciling: "True RolloutInProgress",
  Stalled: "False Reconciling",
};

describe("Ready, Reconciling and Stalled from the observed Deployment", () => {
  it.each<[string, (d: Mutable) => void, Record<string, string>, RegExp]>([
    [
      "every pod updated and ready",
      () => undefined,
      { Ready: "True Serving", Reconciling: "False Reconciled", Stalled: "False Reconciled" },
      /^Generation 1 is served by 2 ready pods$/,
    ],
    [
      "a spec Metacontroller has not applied yet",
      (d) => (d.metadata.annotations[DEPLOYMENT_SPEC_HASH_ANNOTATION] = "0ld"),
      rolling,
      /Metacontroller to apply/,
    ],
    [
      "a Deployment written by older hooks (no hash)",
      (d) => delete d.metadata.annotations[DEPLOYMENT_SPEC_HASH_ANNOTATION],
      rolling,
      /Metacontroller to apply/,
    ],
    [
      "a spec the Deployment controller has not seen",
      (d) => (d.metadata.generation = 2),
      rolling,
      /controller to observe/,
    ],
    ["pods not yet updated", (d) => (d.status.updatedReplicas = 1), rolling, /^Rolling out: 1 of 2 pods updated$/],
    ["old pods still running", (d) => (d.status.replicas = 3), rolling, /^Rolling out: 1 old pods still running$/],
    [
      "updated pods not ready",
      (d) => (d.status.readyReplicas = 1),
      rolling,
      /^Rolling out: 1 of 2 updated pods ready$/,
    ],
    [
      "a rollout past its progress deadline",
      (d) =>
        (d.status.conditions = [
          { type: "Progressing", status: "False", reason: "ProgressDeadlineExceeded", message: "timed out" },
        ]),
      {
        Ready: "False ProgressDeadlineExceeded",
        Reconciling: "False Stalled",
        Stalled: "True ProgressDeadlineExceeded",
      },
      /^timed out$/,
    ],
  ])("given %s", (_title, edit, expected, message) => {
    const r = sync(aRequest(aParent(spec), observedWith(edit), [secret]), deps());
    expect(summary(r)).toEqual(expected);
    expect(readyMessage(r)).toMatch(message);
    // A rollout under way is looked at again soon; a finished or stuck one waits for events.
    expect(r.resyncAfterSeconds).toBe(expected.Reconciling!.startsWith("True") ? 15 : undefined);
  });

  it("given no Deployment yet, Reconciling", () => {
    expect(summary(sync(aRequest(aParent(spec), [], [secret]), deps()))).toEqual(rolling);
  });

  it("given a finished rollout the server did not answer for, Ready False HealthCheckFailed, neither reconciling nor stalled", () => {
    const live: LiveReport = {
      url: "http://demo-service.team-a.svc.cluster.local:8321",
      problems: ["GET /v1/version: timed out"],
    };
    const r = sync(
      aRequest(
        aParent(spec),
        observedWith(() => undefined),
        [secret],
      ),
      deps(),
      { notes: [] },
      live,
    );
    expect(summary(r)).toEqual({
      Ready: "False HealthCheckFailed",
      Reconciling: "False Reconciled",
      Stalled: "False Reconciled",
    });
  });

  it("given a spec that cannot be served, Stalled with the failure's reason; the old pods run on, Ready False", () => {
    const r = sync(
      aRequest(
        aParent({ ...spec, networking: { port: "x" } }),
        observedWith(() => undefined),
        [secret],
      ),
      deps(),
    );
    expect(summary(r)).toEqual({
      Ready: "False InvalidSpec",
      Reconciling: "False Stalled",
      Stalled: "True InvalidSpec",
    });
    expect(readyMessage(r)).toBe("ConfigGenerated is False (InvalidSpec): spec.networking.port: must be integer");
  });

  it("writes the same hash for the same spec, a new one for a changed pod template", () => {
    const hash = (s: object) =>
      sync(aRequest(aParent(s), [], [secret]), deps()).children.find((c) => c.kind === "Deployment")!.metadata
        .annotations![DEPLOYMENT_SPEC_HASH_ANNOTATION];
    expect(hash(spec)).toMatch(/^[0-9a-f]{16}$/);
    expect(hash(structuredClone(spec))).toBe(hash(spec));
    expect(hash({ ...spec, workload: { ...spec.workload, replicas: 3 } })).not.toBe(hash(spec));
    expect(hash({ ...spec, resources: { models: ["llama3", "other"] } })).not.toBe(hash(spec));
  });
});
