/**
 * `toOgxServer` / `fromOgxServer` (lib/ogx/convert.ts) on our samples and on the OGXServer
 * objects of objects.yaml: each converts, passes the target's own checks (the peer's model with
 * its CEL rules; our `llsd validate`), and comes back byte for byte.
 */
import { stringify } from "yaml";
import { fromOgxServer, LLSD_FIELDS, OGXSERVER_FIELDS, ogxServerErrors, toOgxServer } from "../../lib/ogx/convert";
import { ogxServerProblems } from "../../lib/ogx/schema";
import { llsd } from "../cli-helpers";
import { anLlsd, anOgxServer, bytes, ok, sampleLlsds } from "./helpers";
import { ogxObjects } from "./objects";

const v1alpha2 = (object: unknown): unknown =>
  (object as { apiVersion: string }).apiVersion === "llamastack.io/v1alpha2";

describe("LLSD → OGXServer", () => {
  it.each(sampleLlsds())(
    "converts %s into an object the peer accepts, and back into the same bytes",
    (_file, object) => {
      const ogx = ok(toOgxServer(object));
      expect(ogxServerProblems(ogx)).toEqual([]);
      const back = ok(fromOgxServer(ogx));
      if (v1alpha2(object)) expect(bytes(back)).toBe(bytes(object));
      else expect(bytes(ok(toOgxServer(back)))).toBe(bytes(ogx));
    },
  );

  it("writes nothing of its own when everything has a home, and the annotation when not", () => {
    const plain = ok(toOgxServer(anLlsd({ monitoring: { enabled: true } })));
    expect(plain.metadata).toEqual({ name: "demo" });
    const lossy = ok(toOgxServer(anLlsd({ monitoring: { enabled: true }, resources: { tools: ["rag"] } })));
    expect(lossy.metadata).toEqual({
      name: "demo",
      annotations: { [LLSD_FIELDS]: '{"spec.resources":{"is":{"tools":["rag"]}}}' },
    });
  });
});

describe("LLSD → OGXServer: pod overrides the peer has no field for", () => {
  it.each([
    ["terminationGracePeriodSeconds", 60],
    ["priorityClassName", "high"],
  ])("%s: a warning at its path, kept in the annotation, and back", (key, value) => {
    const object = anLlsd({ workload: { overrides: { [key]: value } } });
    const conversion = toOgxServer(object);
    const warned = conversion.ok ? conversion.warnings.map((w) => w.path) : [];
    expect(warned.filter((path) => path.startsWith("spec.workload"))).toEqual([`spec.workload.overrides.${key}`]);
    const ogx = ok(conversion);
    expect(JSON.stringify(ogx.spec)).not.toContain(key);
    expect(bytes(ok(fromOgxServer(ogx)))).toBe(bytes(object));
  });
});

describe("OGXServer → LLSD", () => {
  it.each(ogxObjects().map((o) => [o.name, o.object] as const))(
    "converts %s into an LLSD llsd validate accepts, and back into the same bytes",
    (name, object) => {
      const converted = ok(fromOgxServer(object));
      const run = llsd(["validate", "x.yaml"], { "x.yaml": stringify(converted) });
      // A volume with several pods is refused (ReadWriteOnce, docs/scaling.md), nothing else; a
      // Redis password, which the server never used, is left out of the LLSD.
      type Workload = { storage?: object; replicas?: number; autoscaling?: { maxReplicas?: number } };
      const spec = converted.spec as { workload?: Workload; storage?: { kv?: { password?: object } } };
      expect(spec.storage?.kv?.password).toBeUndefined();
      const w = spec.workload ?? {};
      const pods = Math.max(w.replicas ?? 1, w.autoscaling?.maxReplicas ?? 1);
      const refused = w.storage && pods > 1 ? ["spec.workload.storage: "] : [];
      const verdict = refused.length > 0 ? "invalid\n" : "valid\n";
      expect(run.stdout.startsWith(`x.yaml: llamastack.io/v1alpha2 ${name}: ${verdict}`)).toBe(true);
      const lines = run.stdout.split("\n").filter((l) => l.startsWith("  "));
      expect(lines.map((l) => refused.find((r) => l.startsWith(`  ${r}`))).sort()).toEqual([...refused].sort());
      expect(bytes(ok(toOgxServer(converted)))).toBe(bytes(object));
    },
  );

  it("keeps what only the peer has in its annotation", () => {
    const converted = ok(
      fromOgxServer(
        anOgxServer({
          monitoring: { enabled: true },
          tls: { identity: { cert: { name: "c", key: "k" }, key: { name: "s", key: "k" } } },
        }),
      ),
    );
    expect(converted.metadata).toEqual({
      name: "demo",
      annotations: {
        [OGXSERVER_FIELDS]:
          '{"spec.tls":{"is":{"identity":{"cert":{"name":"c","key":"k"},"key":{"name":"s","key":"k"}}}}}',
      },
    });
  });
});

describe("the annotations", () => {
  it("give way to an edit: a field changed in the converted object is kept on the way back", () => {
    const source = anLlsd({ providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" } } });
    const ogx = ok(toOgxServer(source));
    const edited = structuredClone(ogx) as {
      spec: { providers: { inference: { remote: { vllm: { endpoint: string }[] } } } };
    };
    const vllm = edited.spec.providers.inference.remote.vllm[0];
    if (vllm) vllm.endpoint = "http://other:8000/v1";
    const back = ok(fromOgxServer(edited)) as { spec: { providers: { inference: unknown } } };
    expect(back.spec.providers.inference).toEqual([
      { id: "vllm", provider: "vllm", settings: { base_url: "http://other:8000/v1" } },
    ]);
  });

  it.each([
    ["not JSON", "{", "is not valid JSON"],
    ["not a change", '{"spec.x":1}', "must be a {was, is} change"],
    ["outside spec and status", '{"metadata.name":{"is":"x"}}', "is not a field path under spec or status"],
  ])("refuses an annotation that is %s, with its path", (_what, text, message) => {
    const object = anOgxServer();
    const result = fromOgxServer({ ...object, metadata: { name: "demo", annotations: { [LLSD_FIELDS]: text } } });
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.errors[0]).toEqual({
        path: `metadata.annotations["${LLSD_FIELDS}"]`,
        message: expect.stringContaining(message),
      });
  });

  it("say what the peer's model refuses, with the field path", () => {
    const errors = ogxServerErrors(anOgxServer({ workload: { storage: { size: "0" } } }));
    expect(errors).toEqual([{ path: "spec.workload.storage", message: "size must be a positive quantity" }]);
  });
});
