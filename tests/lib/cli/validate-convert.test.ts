import { parse, parseAllDocuments } from "yaml";
import { llsd } from "../../cli-helpers";

const v2 = (spec: string, name = "demo") =>
  `apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: ${name}}\nspec:\n${spec}`;
const v1 = `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: old}
spec:
  replicas: 1
  server:
    distribution: {name: starter}
    containerSpec:
      port: 8321
      env:
      - {name: VLLM_URL, value: "http://vllm:8000/v1"}
      - {name: INFERENCE_MODEL, value: llama3}
      - name: VLLM_API_KEY
        valueFrom: {secretKeyRef: {name: vllm-creds, key: token}}
`;

describe("llsd validate", () => {
  it("given valid objects of both versions and other kinds, checks each LLSD and exits 0", () => {
    const file = `${v1}---\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\n---\n${v2("  distribution: {name: starter}")}`;
    const run = llsd(["validate", "a.yaml"], { "a.yaml": file });
    expect([run.code, run.stdout]).toEqual([
      0,
      "a.yaml: llamastack.io/v1alpha1 old: valid\na.yaml: llamastack.io/v1alpha2 demo: valid\n",
    ]);
  });

  it.each([
    [
      "a schema error",
      v2("  distribution: {name: starter}\n  networking: {port: 0}"),
      /spec.networking.port: must be >= 1/,
    ],
    ["a CEL rule", v2("  distribution: {name: starter, image: x:1}"), /spec.distribution: .*name.*image/i],
    [
      "a semantic rule",
      v2("  distribution: {name: starter}\n  providers:\n    inference: [{provider: vllm}, {provider: ollama}]"),
      /spec.providers.inference\[0\].id: required/,
    ],
    [
      "a v1alpha1 semantic rule, reported as stored",
      v1.replace("name: starter", "name: nope"),
      /spec.distribution.name: Unknown distribution "nope".*\(as stored in v1alpha2\)/,
    ],
    [
      "a 56-character name (its Service name would be 64)",
      v2("  distribution: {name: starter}", "a".repeat(56)),
      /metadata.name: "a{56}" gives the Service "a{56}-service" of 64 characters; a DNS-1035 label is at most 63\. Use a name of at most 55 characters/,
    ],
    [
      "a conversion annotation that is not JSON (every v1alpha1 read of the CR would fail)",
      v2("  distribution: {name: starter}").replace(
        "metadata: {name: demo}",
        "metadata: {name: demo, annotations: {llamastack.io/v1alpha1-fields: '{spec'}}",
      ),
      /\n {2}metadata.annotations\["llamastack.io\/v1alpha1-fields"\]: is not valid JSON; restore the value the conversion wrote, or remove the annotation/,
    ],
  ])("given %s, prints the field path and exits 1", (_title, file, message) => {
    const run = llsd(["validate", "bad.yaml"], { "bad.yaml": file });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/: invalid\n/);
    expect(run.stdout).toMatch(message);
  });

  /** The first hour's file (issue 41): `replicas: "2"` used to hide the other four. */
  const FIRST_HOUR = v2(`  distribution: {name: starter}
  providers:
    inference:
      id: vllm-primary
      provider: vllm
      endpoint: "vllm:8000"
  resources:
    models:
      - name: llama3
        provider: vllm-primery
  workload:
    replicas: "2"
    autoscaling: { minReplicas: 3, maxReplicas: 2 }
    podDisruptionBudget: { minAvailable: 1, maxUnavailable: 1 }
`);
  const V1ALPHA1_TYPE_ERROR = v1.replace("replicas: 1", 'replicas: "2"').replace("name: starter", "name: nope");

  it.each([
    [
      "the first hour's file",
      FIRST_HOUR,
      [
        "spec.workload.replicas: must be integer",
        'spec.providers.inference.endpoint: "vllm:8000" is not an http(s) URL',
        "spec.workload.autoscaling.maxReplicas: must be at least minReplicas (3)",
        "spec.workload.podDisruptionBudget: set one of minAvailable or maxUnavailable, not both",
        'spec.resources.models[0].provider: model "llama3" names provider "vllm-primery", which is not an inference provider: did you mean "vllm-primary"?',
      ],
    ],
    [
      "a v1alpha1 file with a type error and an unknown distribution",
      V1ALPHA1_TYPE_ERROR,
      ["spec.replicas: must be integer", 'spec.distribution.name: Unknown distribution "nope"'],
    ],
  ])("given %s, prints every problem at once, each with its path", (_what, file, starts) => {
    const run = llsd(["validate", "f.yaml"], { "f.yaml": file });
    const lines = run.stdout.split("\n").filter((l) => l.startsWith("  "));
    expect(run.code).toBe(1);
    // Each line as far as the expected start goes: the rest lists the table's provider names.
    expect(lines.map((l, i) => l.slice(2, 2 + (starts[i]?.length ?? l.length)))).toEqual(starts);
  });

  it("prints the notes of samples/complete.yaml on stderr, each once, and still exits 0", () => {
    const run = llsd(["validate", "samples/complete.yaml"]);
    // The oracle: the notes `llsd render` prints for the same file.
    const rendered = llsd(["render", "samples/complete.yaml"]);
    const notes = rendered.stderr
      .split("\n")
      .filter((l) => l.startsWith("note: llsd-complete: "))
      .map((l) =>
        l.replace("note: llsd-complete: ", "samples/complete.yaml: llamastack.io/v1alpha2 llsd-complete: note: "),
      );
    expect(notes).toHaveLength(8);
    expect([run.code, run.stdout]).toEqual([0, "samples/complete.yaml: llamastack.io/v1alpha2 llsd-complete: valid\n"]);
    expect(run.stderr.split("\n").filter((l) => l.includes(": note: "))).toEqual(notes);
  });

  it("given no file, exits 2", () => {
    expect(llsd(["validate"]).code).toBe(2);
  });
});

describe("llsd convert", () => {
  it("converts v1alpha1 to v1alpha2 and back to the same object", () => {
    const up = llsd(["convert", "--to", "v1alpha2", "old.yaml"], { "old.yaml": v1 });
    expect(up.code).toBe(0);
    const hub = parse(up.stdout) as {
      apiVersion: string;
      spec: { networking: { port: number }; workload: { overrides: { env: unknown[] } } };
    };
    expect(hub.apiVersion).toBe("llamastack.io/v1alpha2");
    expect(hub.spec.networking.port).toBe(8321);
    expect(hub.spec.workload.overrides.env).toHaveLength(3);
    const down = llsd(["convert", "--to", "v1alpha1", "hub.yaml"], { "hub.yaml": up.stdout });
    expect(parse(down.stdout)).toEqual(parse(v1));
  });

  it.each([
    [
      ["convert", "old.yaml"],
      "error: convert needs --to v1alpha1, v1alpha2, llamastack.io/v1alpha1, llamastack.io/v1alpha2, ogx.io/v1beta1\n",
    ],
    [
      ["convert", "--to", "v1alpha3", "old.yaml"],
      'error: --to must be one of v1alpha1, v1alpha2, llamastack.io/v1alpha1, llamastack.io/v1alpha2, ogx.io/v1beta1, got "v1alpha3"\n',
    ],
    [
      ["convert", "--to", "v1alpah2", "old.yaml"],
      'error: --to must be one of v1alpha1, v1alpha2, llamastack.io/v1alpha1, llamastack.io/v1alpha2, ogx.io/v1beta1, got "v1alpah2": did you mean "v1alpha2"?\n',
    ],
  ])("given %j, exits 2 naming the value and the ones allowed", (args, first) => {
    const run = llsd(args, { "old.yaml": v1 });
    expect([run.code, run.stdout, run.stderr]).toEqual([2, "", `${first}Run "llsd convert --help" for usage.\n`]);
  });
});

/** What the migrate test reads of the migrated CR. */
interface MigratedCr {
  apiVersion: unknown;
  spec: { providers: { inference: unknown }; resources: { models: unknown } };
}

describe("llsd migrate", () => {
  it("rewrites the migration guide's env vars into providers and models and says so", () => {
    const run = llsd(["migrate", "old.yaml"], { "old.yaml": v1 });
    expect(run.code).toBe(0);
    const doc = parseAllDocuments(run.stdout)[0]!.toJS() as MigratedCr;
    expect(doc.apiVersion).toBe("llamastack.io/v1alpha2");
    expect(doc.spec.providers.inference).toEqual({
      provider: "vllm",
      endpoint: "http://vllm:8000/v1",
      apiKey: { name: "vllm-creds", key: "token" },
    });
    expect(doc.spec.resources.models).toEqual(["llama3"]);
    expect(run.stderr).toContain(
      "changed: old: env VLLM_URL and VLLM_API_KEY → spec.providers.inference (vllm, apiKey from Secret vllm-creds)",
    );
    expect(llsd(["validate", "new.yaml"], { "new.yaml": run.stdout }).code).toBe(0);
  });
});

/** A v1alpha1 file with `server` lines (indented four spaces) after its distribution. */
const v1With = (server: string) =>
  `apiVersion: llamastack.io/v1alpha1\nkind: LlamaStackDistribution\nmetadata: {name: old}\nspec:\n  server:\n    distribution: {name: starter}\n${server}`;

describe.each([
  { command: "convert --to v1alpha2", args: ["convert", "--to", "v1alpha2"] },
  { command: "migrate", args: ["migrate"] },
])("llsd $command, given a v1alpha1 file", ({ args }) => {
  // A file was never validated by an apiserver: these commands refuse what its version refuses.
  it.each([
    ["workers: 0", "    workers: 0\n", "spec.server.workers: must be >= 1"],
    [
      "serviceAccountName: 42",
      "    podOverrides: {serviceAccountName: 42}\n",
      "spec.server.podOverrides.serviceAccountName: must be string",
    ],
    ["a string env item", "    containerSpec: {env: [FOO=bar]}\n", "spec.server.containerSpec.env[0]: must be object"],
  ])("refuses %s, invalid in v1alpha1, with its field path, prints nothing and exits 1", (_title, server, error) => {
    const run = llsd([...args, "bad.yaml"], { "bad.yaml": v1With(server) });
    expect([run.code, run.stdout, run.stderr]).toEqual([1, "", `error: old:\n${error}\n`]);
  });

  it("keeps port 0 (valid in v1alpha1, the default port; v1alpha2 has no such value) in the annotation, and exits 0", () => {
    const run = llsd([...args, "old.yaml"], { "old.yaml": v1With("    containerSpec: {port: 0}\n") });
    const doc = parseAllDocuments(run.stdout)[0]!.toJS() as { spec: object; metadata: { annotations: object } };

    expect([run.code, "networking" in doc.spec]).toEqual([0, false]);
    expect(doc.metadata.annotations).toEqual({
      "llamastack.io/v1alpha1-fields": '{"spec.server.containerSpec.port":0}',
    });
    expect(llsd(["validate", "new.yaml"], { "new.yaml": run.stdout }).code).toBe(0);
  });
});

describe("llsd convert --to v1alpha1, given a v1alpha2 file", () => {
  it("refuses one its own version refuses, with the field path", () => {
    const run = llsd(["convert", "--to", "v1alpha1", "bad.yaml"], {
      "bad.yaml": v2("  distribution: {name: starter}\n  workload: {workers: 0}"),
    });
    expect([run.code, run.stdout, run.stderr]).toEqual([1, "", "error: demo:\nspec.workload.workers: must be >= 1\n"]);
  });
});
