/** `llamastack.io/hold-children: "true"`: a held CR's running children stay as they are, and the status says what is held. */
import { sync } from "../../../lib/sync";
import { HOLD_ANNOTATION } from "../../../lib/sync/hold";
import { keptChildren, LAST_APPLIED } from "../../../lib/sync/keep";
import type { KubeObject, SyncRequest } from "../../../lib/wire/metacontroller";
import { aSpec, aVllm } from "../../builders";
import { aParent, aRequest, deps, objectMap, steadyState } from "../../sync-builders";

const syncOnce = (r: SyncRequest) => sync(r, deps());

/** The steady state of a CR whose vLLM is at `endpoint`. */
async function running(endpoint = "http://vllm.models.svc:8000"): Promise<SyncRequest> {
  return steadyState(aRequest(aParent(aSpec({ providers: { inference: aVllm({ endpoint }) } }))), syncOnce);
}

/** The same cluster, the CR's spec edited (what an upgrade that changes the config does too), annotated or not. */
function edited(request: SyncRequest, annotations: Record<string, string>): SyncRequest {
  const spec = aSpec({ providers: { inference: aVllm({ endpoint: "http://other:8000" }) } });
  return { ...request, parent: annotated({ ...request.parent, spec }, annotations) };
}

function annotated(parent: KubeObject, annotations: Record<string, string>): KubeObject {
  return { ...parent, metadata: { ...parent.metadata, annotations } };
}

/** JSON with every map's keys sorted, as Metacontroller (Go) writes the last-applied annotation. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

function withSortedLastApplied(request: SyncRequest): SyncRequest {
  const children = keptChildren(request.children).map((desired): KubeObject => {
    const observed = Object.values(request.children ?? {})
      .flatMap((m) => Object.values(m))
      .find((o) => o.kind === desired.kind && o.metadata.name === desired.metadata.name)!;
    const annotations = { ...observed.metadata.annotations, [LAST_APPLIED]: JSON.stringify(sortedKeys(desired)) };
    return { ...observed, metadata: { ...observed.metadata, annotations } };
  });
  return { ...request, children: objectMap(children) };
}

const names = (children: readonly KubeObject[]): string[] => children.map((c) => `${c.kind} ${c.metadata.name}`);
const notesOf = (status: object): string[] => (status as { notes?: string[] }).notes ?? [];

type Condition = { type: string; status: string; reason: string; message: string; lastTransitionTime: string };
/** The fields of a status these tests read. */
type Status = {
  conditions: Condition[];
  configGeneration: { configMapName: string };
  resolvedDistribution: { image: string };
};
const conditionOf = (status: object, type: string): Condition | undefined =>
  (status as Status).conditions.find((c) => c.type === type);

describe(HOLD_ANNOTATION, () => {
  it("keeps every running child as Metacontroller applied it while the sync would change them, and says so", async () => {
    const before = await running();
    const answer = sync(edited(before, { [HOLD_ANNOTATION]: "true" }), deps());

    expect(answer.children).toEqual(keptChildren(before.children));
    const note = notesOf(answer.status).find((n) => n.startsWith(HOLD_ANNOTATION));
    expect(note).toMatch(
      /would change ConfigMap demo-config-\w+ \(added\), Deployment demo \(changed\)\. Remove it to apply them$/,
    );
    expect(answer.resyncAfterSeconds).toBeUndefined();
  });

  it("is not Ready while it holds an edit: ChildrenHeld, Stalled (nothing is under way), saying how to release it", async () => {
    const answer = sync(edited(await running(), { [HOLD_ANNOTATION]: "true" }), deps());
    const summary = ["Ready", "Reconciling", "Stalled"].map((type) => {
      const c = conditionOf(answer.status, type)!;
      return [type, c.status, c.reason];
    });
    expect(summary).toEqual([
      ["Ready", "False", "ChildrenHeld"],
      ["Reconciling", "False", "Stalled"],
      ["Stalled", "True", "ChildrenHeld"],
    ]);
    const ready = conditionOf(answer.status, "Ready")!;
    expect(ready.message).toContain(HOLD_ANNOTATION);
    expect(ready.message).toContain(`kubectl -n team-a annotate llsd demo ${HOLD_ANNOTATION}-`);
    expect(conditionOf(answer.status, "Stalled")!.message).toBe(ready.message);
    // The pods that run are ready: the phase (the Go operator's meaning) says so.
    expect(answer.status.phase).toBe("Ready");
  });

  it("names the config and image that run, not the ones held back", async () => {
    const before = await running();
    const ran = before.parent.status as Status;
    const answer = sync(edited(before, { [HOLD_ANNOTATION]: "true" }), deps());
    const held = answer.status as Status;
    const released = sync(edited(before, {}), deps()).status as Status;

    // The ConfigMap of the steady state, which the kept Deployment mounts and the answer keeps.
    expect(held.configGeneration).toEqual(ran.configGeneration);
    expect(names(answer.children)).toContain(`ConfigMap ${ran.configGeneration.configMapName}`);
    expect(held.resolvedDistribution).toEqual(ran.resolvedDistribution);
    // The edit's own ConfigMap is another one, created only once the hold is lifted.
    expect(released.configGeneration.configMapName).not.toBe(ran.configGeneration.configMapName);
    expect(conditionOf(held, "ConfigGenerated")!.message).toContain(
      `not applied while ${HOLD_ANNOTATION} holds it: ConfigMap ${ran.configGeneration.configMapName} runs`,
    );
  });

  it("names the image that runs while an image change is held", async () => {
    const before = await running();
    const ran = before.parent.status as Status;
    const spec = { ...(before.parent.spec as object), distribution: { name: "postgres-demo" } };
    const parent = annotated({ ...before.parent, spec }, { [HOLD_ANNOTATION]: "true" });
    const held = sync({ ...before, parent }, deps()).status as Status;
    const released = sync({ ...before, parent: { ...parent, metadata: before.parent.metadata } }, deps())
      .status as Status;

    expect(conditionOf(held, "Ready")!.reason).toBe("ChildrenHeld");
    expect(held.resolvedDistribution.image).toBe(ran.resolvedDistribution.image);
    expect(released.resolvedDistribution.image).not.toBe(ran.resolvedDistribution.image);
  });

  it("writes the same status on every resync of the hold: a transition time moves once, when Ready flips", async () => {
    const held = edited(await running(), { [HOLD_ANNOTATION]: "true" });
    const first = sync(held, deps(new Date("2026-11-22T11:00:00Z")));
    const again = sync(
      { ...held, parent: { ...held.parent, status: first.status } },
      deps(new Date("2026-11-22T12:00:00Z")),
    );

    expect(again.status).toEqual(first.status);
    expect(conditionOf(first.status, "Ready")!.lastTransitionTime).toBe("2026-11-22T11:00:00Z");
  });

  it.each([
    ["not annotated", {}],
    ["annotated with another value", { [HOLD_ANNOTATION]: "false" }],
  ])("applies the change when %s", async (_what, annotations) => {
    const before = await running();
    const answer = sync(edited(before, annotations), deps());

    expect(answer.children).not.toEqual(keptChildren(before.children));
    expect(notesOf(answer.status).filter((n) => n.startsWith(HOLD_ANNOTATION))).toEqual([]);
  });

  it("holds nothing and says nothing when the sync changes nothing (Metacontroller's sorted keys included)", async () => {
    const before = withSortedLastApplied(await running());
    const held = { ...before, parent: annotated(before.parent, { [HOLD_ANNOTATION]: "true" }) };

    const answer = sync(held, deps());
    expect(answer).toEqual(sync(before, deps()));
  });

  it("creates a new CR's children: there is nothing running to hold", () => {
    const parent = annotated(aParent(aSpec({ providers: { inference: aVllm() } })), { [HOLD_ANNOTATION]: "true" });

    expect(names(sync(aRequest(parent), deps()).children)).toEqual(
      expect.arrayContaining(["Deployment demo", "Service demo-service"]),
    );
  });
});
