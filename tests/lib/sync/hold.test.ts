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

  it("reports the held CR Ready on its running pods: no rollout is coming", async () => {
    const answer = sync(edited(await running(), { [HOLD_ANNOTATION]: "true" }), deps());
    const ready = (answer.status as { conditions: { type: string; status: string; reason: string }[] }).conditions.find(
      (c) => c.type === "Ready",
    );
    expect([answer.status.phase, ready?.status, ready?.reason]).toEqual(["Ready", "True", "Serving"]);
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
