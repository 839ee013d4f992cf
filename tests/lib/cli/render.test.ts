import { llsd } from "../../cli-helpers";

const CR = (spec: string) => `apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata:
  name: demo
spec:
${spec}`;

const vllm = CR(`  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000", apiKey: {name: creds, key: token}}
  resources: {models: [llama3]}`);

describe("llsd render", () => {
  it("given a valid CR, prints config.yaml and the container env, and exits 0", () => {
    const run = llsd(["render", "cr.yaml"], { "cr.yaml": vllm });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^# demo: config.yaml for the 0.7 server line, sha256 [0-9a-f]{64}\n/);
    expect(run.stdout).toContain("api_token: ${env.LLSD_VLLM_API_KEY}");
    expect(run.stdout).toContain("- name: LLSD_VLLM_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: creds\n        key: token");
  });

  it("given an invalid CR, prints every error with its field path and exits 1", () => {
    const bad = CR(`  distribution: {name: nope}
  providers:
    inference: [{provider: vllm}, {provider: ollama}]
  networking: {port: 0}`);
    const run = llsd(["render", "bad.yaml"], { "bad.yaml": bad });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("spec.networking.port: must be >= 1");
  });

  it("given semantic errors, lists each on its own line", () => {
    const bad = CR(`  distribution: {name: nope}
  providers:
    inference: [{provider: vllm}, {provider: ollama}]`);
    const run = llsd(["render", "bad.yaml"], { "bad.yaml": bad });
    expect(run.code).toBe(1);
    expect(run.stderr.split("\n")).toEqual(expect.arrayContaining([
      'spec.distribution.name: Unknown distribution "nope". Available distributions: "postgres-demo", "starter"',
      expect.stringMatching(/^spec.providers.inference\[0\].id: required/),
      expect.stringMatching(/^spec.providers.inference\[1\].id: required/),
    ]));
  });

  it("given --release 0.8, renders on the 0.8 base", () => {
    const run = llsd(["render", "cr.yaml", "--release", "0.8"], { "cr.yaml": vllm });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("- interactions");
  });

  it("given --base-config, merges into that file", () => {
    const baseConfig = "version: 2\ndistro_name: tiny\nproviders:\n  inference: []\n";
    const run = llsd(["render", "cr.yaml", "--base-config", "base.yaml"], { "cr.yaml": vllm, "base.yaml": baseConfig });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("distro_name: tiny\nproviders:\n  inference:\n  - provider_id: vllm\n");
  });

  it("given a base config with an unsupported version, exits 1 with the FR-029 message", () => {
    const run = llsd(["render", "cr.yaml", "--base-config", "base.yaml"], { "cr.yaml": vllm, "base.yaml": "version: 3\nproviders: {}\n" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("baseConfig.version: Unsupported config.yaml version 3. Supported versions: 2");
  });

  it("given a multi-document file, renders each LLSD and skips other kinds", () => {
    const file = `apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\n---\n${vllm}\n---\n${vllm.replace("name: demo", "name: second")}`;
    const run = llsd(["render", "all.yaml"], { "all.yaml": file });
    expect(run.code).toBe(0);
    expect(run.stdout.match(/^# (demo|second): config.yaml/gm)).toEqual(["# demo: config.yaml", "# second: config.yaml"]);
  });

  it("given a CR that uses the image's default config, says so and prints nothing", () => {
    const run = llsd(["render", "cr.yaml"], { "cr.yaml": CR("  distribution: {name: starter}") });
    expect([run.code, run.stdout]).toEqual([0, ""]);
    expect(run.stderr).toMatch(/the distribution image runs its own default config/);
  });

  it.each([
    [["render"], 2, /render takes exactly one FILE/],
    [["render", "cr.yaml", "--release", "0.6"], 2, /--release must be one of 0.7, 0.8/],
    [["frobnicate"], 2, /unknown command "frobnicate"/],
    [["render", "missing.yaml"], 2, /^error: missing.yaml: no such file\nRun "llsd render --help" for usage.\n$/],
    [["render", "broken.yaml"], 1, /^error: broken.yaml:2: invalid YAML \(BAD_INDENT\): Flow sequence in block collection must be sufficiently indented and end with a \]\n$/],
  ])("given %j, exits %i with a clear message", (args, code, message) => {
    const run = llsd(args, { "cr.yaml": vllm, "broken.yaml": "kind: [unclosed\n" });
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });

  it("given v1alpha1, renders it as the cluster stores it (converted to v1alpha2) and says so", () => {
    const old = "apiVersion: llamastack.io/v1alpha1\nkind: LlamaStackDistribution\nmetadata: {name: old}\nspec: {server: {distribution: {name: starter}, userConfig: {configMapName: cfg}}}\n";
    const run = llsd(["render", "old.yaml"], { "old.yaml": old });
    const converted = llsd(["convert", "--to", "v1alpha2", "old.yaml"], { "old.yaml": old });
    const direct = llsd(["render", "new.yaml"], { "new.yaml": converted.stdout });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("note: old: llamastack.io/v1alpha1 converted to llamastack.io/v1alpha2, as the cluster stores it (llsd convert --to v1alpha2 old.yaml prints it");
    expect([run.stdout, run.stderr.replace(/^note: old: llamastack.io\/v1alpha1 converted.*\n/m, "")]).toEqual([direct.stdout, direct.stderr]);
  });

  it("lists the distributions with pinned images", () => {
    const run = llsd(["distributions"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^postgres-demo\tdocker.io\/llamastack\/distribution-postgres-demo:0.7.1\t\(0.7.x\)\nstarter\t/);
    expect(run.stdout).not.toContain(":latest");
  });
});
