/**
 * `networking.policy` through the sync hook: a policy switched off is a deleted child and a
 * status note; egress notes reach the status; the rest of the answer is what it was.
 */
import { POLICY_DISABLED_NOTE } from "../../../lib/children/network-policy-notes";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aParent, aRequest, deps, observedFrom } from "../../sync-builders";

const BASE = {
  distribution: { name: "starter" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm.models.svc:8000/v1" } },
};
const kinds = (children: readonly KubeObject[]) => children.map((c) => c.kind);
const answer = (policy?: object, observed: KubeObject[] = []) =>
  sync(aRequest(aParent(policy ? { ...BASE, networking: { policy } } : BASE), observed), deps());

describe("networking.policy in /sync", () => {
  it("enabled: false on a running CR: the NetworkPolicy is left out (Metacontroller deletes it), with a note", () => {
    const running = observedFrom(answer().children);
    expect(kinds(running)).toContain("NetworkPolicy");
    const off = answer({ enabled: false }, running);
    expect(kinds(off.children)).toEqual(
      kinds(answer(undefined, running).children).filter((k) => k !== "NetworkPolicy"),
    );
    expect(off.status.notes).toContain(POLICY_DISABLED_NOTE);
  });

  it("egress that leaves an endpoint out: a note naming it; unset: no networking note", () => {
    const notesOf = (policy?: object): unknown[] => {
      const notes: unknown = answer(policy).status.notes;
      return (Array.isArray(notes) ? notes : []).filter((n) => String(n).startsWith("networking"));
    };
    expect(notesOf()).toEqual([]);
    expect(notesOf({ egress: [{ to: [{ ipBlock: { cidr: "10.0.0.0/8" } }], ports: [{ port: 9000 }] }] })).toEqual([
      "networking.policy.egress: no rule allows spec.providers.inference.endpoint (vllm.models.svc:8000); the server cannot connect there: add an egress rule for its address and port",
    ]);
  });
});
