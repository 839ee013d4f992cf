/**
 * What `llsd convert` and `llsd migrate` refuse rather than print (lib/cli/convert.ts,
 * convert-ogx.ts, migrate-ogx.ts): each refusal's message with its fix, exit 1 and nothing on
 * stdout for it; the OGXServer's schema errors in our words; the namespace on every step.
 */
import { parse, stringify } from "yaml";
import type { JsonMap } from "../../lib/json";
import { llsd } from "../cli-helpers";
import { anLlsd, anOgxServer } from "./helpers";

const files = (...objects: unknown[]) => ({ "in.yaml": objects.map((o) => stringify(o)).join("---\n") });
const nameless = (object: JsonMap): JsonMap => ({ ...object, metadata: {} });
const v1alpha1 = {
  apiVersion: "llamastack.io/v1alpha1",
  kind: "LlamaStackDistribution",
  metadata: {},
  spec: { server: { distribution: { name: "starter" } } },
};

describe("the CLI refuses what it cannot do, with the fix", () => {
  it.each<[string, string[], unknown, string]>([
    [
      "migrate without --from, an OGXServer",
      ["migrate", "in.yaml"],
      anOgxServer(),
      "error: demo: kind: OGXServer is the peer operator's; migrate it with llsd migrate --from ogxserver FILE",
    ],
    [
      "migrate --from ogxserver, a file with no OGXServer",
      ["migrate", "--from", "ogxserver", "in.yaml"],
      anLlsd(),
      "error: the file holds no OGXServer (kind: OGXServer, apiVersion: ogx.io/v1beta1): migrate --from ogxserver reads those; for a LlamaStackDistribution run llsd migrate FILE without --from",
    ],
    [
      "convert --to v1alpha2, a nameless OGXServer",
      ["convert", "--to", "v1alpha2", "in.yaml"],
      nameless(anOgxServer()),
      "metadata.name: required: every LlamaStackDistribution needs a name; add metadata: {name: my-llsd}",
    ],
    [
      "convert --to v1alpha2, a nameless v1alpha1 LLSD",
      ["convert", "--to", "v1alpha2", "in.yaml"],
      v1alpha1,
      "metadata.name: required: every LlamaStackDistribution needs a name",
    ],
    [
      "migrate, a nameless LLSD",
      ["migrate", "in.yaml"],
      v1alpha1,
      "metadata.name: required: every LlamaStackDistribution needs a name",
    ],
    [
      "migrate --from ogxserver, a nameless OGXServer",
      ["migrate", "--from", "ogxserver", "in.yaml"],
      nameless(anOgxServer()),
      "metadata.name: required: every OGXServer needs a name; add metadata: {name: my-server}",
    ],
    [
      "convert --to ogx.io/v1beta1, a nameless LLSD",
      ["convert", "--to", "ogx.io/v1beta1", "in.yaml"],
      nameless(anLlsd()),
      "metadata.name: required: every OGXServer needs a name",
    ],
  ])("%s: exit 1, nothing printed, the fix on stderr", (_name, args, object, message) => {
    const run = llsd(args, files(object));
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain(message);
  });

  it("migrate --allow-weaker without --from is a usage error", () => {
    const run = llsd(["migrate", "--allow-weaker", "in.yaml"], files(anLlsd()));
    expect([run.code, run.stderr.split("\n")[0]]).toEqual([2, "error: --allow-weaker goes with --from ogxserver"]);
  });
});

describe("OGXServer schema errors speak like ours", () => {
  it.each<[string, JsonMap, string]>([
    [
      "an unknown field: the one it is a typo of",
      { storage: { kv: { type: "redis", endpont: "redis:6379" } } },
      'spec.storage.kv: unknown field "endpont"; did you mean "endpoint"?',
    ],
    [
      "a field one level too high: where it belongs",
      { network: { hostname: "x" } },
      'spec.network: unknown field "hostname"; did you mean "externalAccess.hostname"?',
    ],
    [
      "an unknown field and no near name",
      { network: { bogus: "x" } },
      'spec.network: unknown field "bogus"; remove it or check its spelling',
    ],
    [
      "a value outside the allowed ones: them, and the one it is a typo of",
      { storage: { kv: { type: "redi" } } },
      'spec.storage.kv.type: must be one of: sqlite, redis; did you mean "redis"?',
    ],
    [
      "a list item outside the allowed ones, at its index",
      { disabledAPIs: ["vector-io"] },
      "spec.disabledAPIs[0]: must be one of: batches, file_processors, inference, responses, tool_runtime, vector_io, files",
    ],
    [
      "a distribution name only the peer has",
      { distribution: { name: "remote-vllm" } },
      "spec.distribution.name: \"remote-vllm\" is a name of the peer's operator that llsd-hooks has no image for (llsd-hooks has postgres-demo, starter); set spec.distribution.image (instead of name) to the image the server runs: kubectl get deploy demo -n <namespace> -o jsonpath='{.spec.template.spec.containers[0].image}'",
    ],
    [
      "another name only the peer has",
      { distribution: { name: "meta-reference-gpu" } },
      'spec.distribution.name: "meta-reference-gpu" is a name of the peer\'s operator that llsd-hooks has no image for',
    ],
    [
      "a name neither knows",
      { distribution: { name: "rh-dev" } },
      'spec.distribution.name: "rh-dev" is a name llsd-hooks does not know (llsd-hooks has postgres-demo, starter); set spec.distribution.image',
    ],
    [
      "a typo of ours",
      { distribution: { name: "startr" } },
      'spec.distribution.name: "startr" is a name llsd-hooks does not know (llsd-hooks has postgres-demo, starter); did you mean "starter"? or set spec.distribution.image',
    ],
  ])("%s", (_name, spec, line) => {
    const run = llsd(["convert", "--to", "v1alpha2", "in.yaml"], files(anOgxServer(spec)));
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain(`\n${line}`);
    expect(run.stderr).not.toMatch(/must NOT have additional properties|must be equal to one of the allowed values/);
  });
});

describe("every kubectl step carries -n <namespace>", () => {
  const kubectlLines = (stderr: string): string[] => stderr.split("\n").filter((l) => /kubectl /.test(l));
  const withNamespace = (object: JsonMap, namespace?: string): JsonMap => ({
    ...object,
    metadata: { ...(object.metadata as JsonMap), ...(namespace ? { namespace } : {}) },
  });

  it.each<[string, string[], (ns?: string) => JsonMap]>([
    [
      "convert --adopt",
      ["convert", "--to", "ogx.io/v1beta1", "--adopt"],
      (ns) =>
        withNamespace(
          anLlsd({
            workload: { storage: { size: "1Gi" } },
            networking: { tls: { caBundle: { configMapName: "ca" } } },
          }),
          ns,
        ),
    ],
    [
      "migrate --from ogxserver",
      ["migrate", "--from", "ogxserver"],
      (ns) => withNamespace(anOgxServer({ workload: { storage: { size: "1Gi" } } }), ns),
    ],
  ])(
    "%s: the object's namespace, else a placeholder the shell refuses and a step that says so",
    (_name, args, object) => {
      const given = llsd([...args, "in.yaml"], files(object("team-a")));
      expect(given.code).toBe(0);
      expect(kubectlLines(given.stderr).length).toBeGreaterThan(3);
      for (const line of kubectlLines(given.stderr)) expect(line).toMatch(/ -n team-a( |$)/);

      const absent = llsd([...args, "in.yaml"], files(object()));
      expect(absent.code).toBe(0);
      for (const line of kubectlLines(absent.stderr)) expect(line).toMatch(/ -n <namespace>( |$)/);
      expect(absent.stderr).toContain("metadata.namespace is not set: replace <namespace> in the commands below");
      expect(parse(absent.stdout)).toBeTruthy();
    },
  );
});
