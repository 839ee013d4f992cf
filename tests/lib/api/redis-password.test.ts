/**
 * `storage.kv.password` on a Redis store: the server's kv_redis has no password field, so a new
 * CR is refused with the fix (type postgres), and a CR that already runs with it is kept with a
 * warning. Each entry point's way of knowing "already runs": /validate from the UPDATE's old
 * object, /sync from its observed Deployment, `llsd validate` from an object read back from the
 * cluster (uid and resourceVersion).
 */
import { stringify } from "yaml";
import { review, type AdmissionRequest } from "../../../lib/admission/review";
import { validate } from "../../../lib/api/validate";
import { LLSD_KIND } from "../../../lib/config/check-object";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { llsd } from "../../cli-helpers";
import { aParent, aRequest, aSecret, deps, observedFrom } from "../../sync-builders";

const PATH = "spec.storage.kv.password";
const REDIS = { type: "redis", endpoint: "redis.cache.svc:6379" };
const WITHOUT = { distribution: { name: "starter" }, storage: { kv: REDIS } };
const WITH = {
  distribution: { name: "starter" },
  storage: { kv: { ...REDIS, password: { name: "redis", key: "pw" } } },
};
const SECRET = aSecret("redis", { pw: "s3cret" });
const FIX = /use type: postgres with a connectionString for a key-value store behind a password/;

describe("validate()", () => {
  it.each([
    ["a new CR: refused with the fix", undefined, { errors: 1, warnings: 0 }],
    ["a CR that runs with it: kept, with a warning", true, { errors: 0, warnings: 1 }],
  ])("%s", (_t, keepsRedisPassword, counts) => {
    const result = validate(WITH, keepsRedisPassword ? { keepsRedisPassword } : {});
    const said = [...result.errors, ...result.warnings].filter((e) => e.path === PATH);
    expect(said).toHaveLength(1);
    expect(said[0]?.message).toMatch(FIX);
    expect(said[0]?.message).toContain("redis store has no password field");
    expect({ errors: result.errors.length, warnings: result.warnings.filter((w) => w.path === PATH).length }).toEqual(
      counts,
    );
  });

  it("without a password: nothing said", () => {
    expect(validate(WITHOUT).errors).toEqual([]);
    expect(validate(WITHOUT).warnings.filter((w) => w.path === PATH)).toEqual([]);
  });
});

const object = (spec: object): KubeObject => aParent(spec, { name: "cache" });
const admission = (operation: "CREATE" | "UPDATE", spec: object, old?: object): AdmissionRequest => ({
  uid: "u-1",
  kind: { group: "llamastack.io", version: "v1alpha2", kind: LLSD_KIND },
  operation,
  name: "cache",
  namespace: "team-a",
  object: object(spec),
  ...(old ? { oldObject: object(old) } : {}),
});

describe("/validate", () => {
  it.each([
    ["CREATE with a password: denied", admission("CREATE", WITH), false, true],
    ["UPDATE adding a password: denied", admission("UPDATE", WITH, WITHOUT), false, true],
    [
      "UPDATE of a CR stored with one, another field changed: allowed with the warning",
      admission("UPDATE", { ...WITH, workload: { replicas: 1 } }, WITH),
      true,
      true,
    ],
    ["UPDATE removing it: allowed, nothing said", admission("UPDATE", WITHOUT, WITH), true, false],
  ])("%s", (_t, request, allowed, mentioned) => {
    const response = review(request);
    expect(response.allowed).toBe(allowed);
    const said = [response.status?.message ?? "", ...(response.warnings ?? [])].join("\n");
    // The denial's message or the warning: the field and the fix.
    expect(new RegExp(`${PATH.replaceAll(".", "\\.")}: [^\n]*use type: postgres`).test(said)).toBe(mentioned);
  });
});

describe("/sync", () => {
  it("a CR with no Deployment yet: refused, nothing created", () => {
    const answer = sync(aRequest(object(WITH), [], [SECRET]), deps());
    expect(answer.status.phase).toBe("Failed");
    expect(answer.children).toEqual([]);
    expect(JSON.stringify(answer.status.conditions)).toMatch(FIX);
  });

  it("a running server (observed Deployment): its children unchanged, the warning in the status", () => {
    const before = sync(aRequest(object(WITHOUT), [], []), deps());
    expect(before.status.phase).not.toBe("Failed");
    const running = observedFrom(before.children);
    const after = sync(aRequest(object(WITH), running, [SECRET]), deps());
    expect(after.status.phase).not.toBe("Failed");
    expect(after.children).toEqual(before.children);
    const notes = JSON.stringify(after.status);
    expect(notes).toContain(`${PATH}: the server's redis store has no password field`);
    expect(notes).toContain("kept because this CR already runs with it");
    expect(notes).not.toContain("s3cret");
  });
});

describe("llsd validate", () => {
  const file = (o: object): { "cr.yaml": string } => ({ "cr.yaml": stringify(o) });
  const cr = { apiVersion: "llamastack.io/v1alpha2", kind: LLSD_KIND, metadata: { name: "cache" }, spec: WITH };
  it("a file written by hand is a new CR: invalid, with the fix", () => {
    const run = llsd(["validate", "cr.yaml"], file(cr));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`${PATH}: the server's redis store has no password field`);
    expect(run.stdout).toMatch(FIX);
  });

  it("an object read back from the cluster (uid, resourceVersion) already runs: valid, with the warning", () => {
    const readBack = { ...cr, metadata: { ...cr.metadata, uid: "6f1c", resourceVersion: "812" } };
    const run = llsd(["validate", "cr.yaml"], file(readBack));
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`warning: ${PATH}: the server's redis store has no password field`);
  });
});
