import { parse } from "yaml";
import { RELEASES } from "../../../lib/distributions/table";
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
    expect(run.stdout).toMatch(/^# demo: config.yaml for the 1.3 server line, sha256 [0-9a-f]{64}\n/);
    expect(run.stdout).toContain("api_token: ${env.LLSD_VLLM_API_KEY}");
    expect(run.stdout).toContain(
      "- name: LLSD_VLLM_API_KEY\n    valueFrom:\n      secretKeyRef:\n        name: creds\n        key: token",
    );
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
    expect(run.stderr.split("\n")).toEqual(
      expect.arrayContaining([
        'spec.distribution.name: Unknown distribution "nope". Available distributions: "postgres-demo", "starter"',
        expect.stringMatching(/^spec.providers.inference\[0\].id: required/),
        expect.stringMatching(/^spec.providers.inference\[1\].id: required/),
      ]),
    );
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

  it("given a base config with an unsupported version, exits 1 naming the supported versions", () => {
    const run = llsd(["render", "cr.yaml", "--base-config", "base.yaml"], {
      "cr.yaml": vllm,
      "base.yaml": "version: 3\nproviders: {}\n",
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("baseConfig.version: Unsupported config.yaml version 3. Supported versions: 2");
  });

  describe("given spec.baseConfig", () => {
    const withBase = CR(`  distribution: {name: starter}
  baseConfig: {configMapName: platform-base, key: run.yaml}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000"}`);
    const baseMap = (key: string, text: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: platform-base}\ndata:\n  ${key}: |\n${text.trimEnd().replace(/^/gm, "    ")}\n`;
    const TINY = "version: 2\ndistro_name: tiny\nproviders:\n  inference: []\n";

    it("merges into the ConfigMap's key found in the same file", () => {
      const run = llsd(["render", "cr.yaml"], { "cr.yaml": `${baseMap("run.yaml", TINY)}---\n${withBase}` });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain("distro_name: tiny\nproviders:\n  inference:\n  - provider_id: vllm\n");
    });

    it.each([
      [
        "the ConfigMap is not in the file",
        withBase,
        "spec.baseConfig.configMapName: ConfigMap platform-base was not given",
      ],
      [
        "the key is missing",
        `${baseMap("config.yaml", TINY)}---\n${withBase}`,
        'spec.baseConfig.configMapName: ConfigMap "platform-base" has no key "run.yaml" (it has "config.yaml")',
      ],
      [
        "the base is refused",
        `${baseMap("run.yaml", "version: 2\nproviders: [a]\n")}---\n${withBase}`,
        'spec.baseConfig: ConfigMap platform-base key "run.yaml" at providers: the base config.yaml has no providers map',
      ],
    ])("exits 1 when %s, at spec.baseConfig", (_what, file, message) => {
      const run = llsd(["render", "cr.yaml"], { "cr.yaml": file });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(message);
    });
  });

  it("given a multi-document file, renders each LLSD and skips other kinds", () => {
    const file = `apiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {token: t}\n---\n${vllm}\n---\n${vllm.replace("name: demo", "name: second")}`;
    const run = llsd(["render", "all.yaml"], { "all.yaml": file });
    expect(run.code).toBe(0);
    expect(run.stdout.match(/^# (demo|second): config.yaml/gm)).toEqual([
      "# demo: config.yaml",
      "# second: config.yaml",
    ]);
  });

  it("given a CR that uses the image's default config, says so and prints nothing", () => {
    const run = llsd(["render", "cr.yaml"], { "cr.yaml": CR("  distribution: {name: starter}") });
    expect([run.code, run.stdout]).toEqual([0, ""]);
    expect(run.stderr).toMatch(/the distribution image runs its own default config/);
  });

  it.each([
    [["render"], 2, /render takes exactly one FILE/],
    [["render", "cr.yaml", "--release", "0.6"], 2, /--release must be one of 0.7, 0.8, 1.2, 1.3/],
    [["frobnicate"], 2, /unknown command "frobnicate"/],
    [["render", "missing.yaml"], 2, /^error: missing.yaml: no such file\nRun "llsd render --help" for usage.\n$/],
    [
      ["render", "broken.yaml"],
      1,
      /^error: broken.yaml:2: invalid YAML \(BAD_INDENT\): Flow sequence in block collection must be sufficiently indented and end with a \]\n$/,
    ],
  ])("given %j, exits %i with a clear message", (args, code, message) => {
    const run = llsd(args, { "cr.yaml": vllm, "broken.yaml": "kind: [unclosed\n" });
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });

  it("given v1alpha1, renders it as the cluster stores it (converted to v1alpha2) and says so", () => {
    const old =
      "apiVersion: llamastack.io/v1alpha1\nkind: LlamaStackDistribution\nmetadata: {name: old}\nspec: {server: {distribution: {name: starter}, userConfig: {configMapName: cfg}}}\n";
    const run = llsd(["render", "old.yaml"], { "old.yaml": old });
    const converted = llsd(["convert", "--to", "v1alpha2", "old.yaml"], { "old.yaml": old });
    const direct = llsd(["render", "new.yaml"], { "new.yaml": converted.stdout });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      "note: old: llamastack.io/v1alpha1 converted to llamastack.io/v1alpha2, as the cluster stores it (llsd convert --to v1alpha2 old.yaml prints it",
    );
    expect([run.stdout, run.stderr.replace(/^note: old: llamastack.io\/v1alpha1 converted.*\n/m, "")]).toEqual([
      direct.stdout,
      direct.stderr,
    ]);
  });

  it("lists the distributions with pinned images", () => {
    const run = llsd(["distributions"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^postgres-demo\tdocker.io\/ogxai\/distribution-postgres-demo:1.3.0\t\(1.3.x\)\nstarter\t/,
    );
    expect(run.stdout).not.toContain(":latest");
  });
});

describe("llsd releases", () => {
  it("prints one supported line per row, oldest first, the value --release takes first", () => {
    const run = llsd(["releases"]);
    expect(run.code).toBe(0);
    const rows = run.stdout.trimEnd().split("\n");
    expect(rows.map((row) => row.split("\t")[0])).toEqual([...RELEASES]);
  });

  it.each(RELEASES.flatMap((release) => ["starter", "postgres-demo"].map((name) => [release, name] as const)))(
    "the value of row %s works with render --release (%s)",
    (release, name) => {
      const run = llsd(["render", "cr.yaml", "--release", release], {
        "cr.yaml": vllm.replace("name: starter", `name: ${name}`),
      });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`config.yaml for the ${release} server line`);
      const config = parse(run.stdout.split("\n---\n")[0]!) as { apis: string[]; server: { insecure?: boolean } };
      // 1.x (1.2 and 1.3) has no Safety API and refuses plain HTTP unless told.
      const oneX = release.startsWith("1.");
      expect(config.apis.includes("safety")).toBe(!oneX);
      expect(config.server.insecure).toBe(oneX ? true : undefined);
    },
  );
});

describe("llsd on the 1.x line", () => {
  const shields = CR(`  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: "http://vllm:8000"}
    safety: {provider: llama-guard}
  resources: {models: [llama3], shields: [llama-guard]}`);

  it("render refuses the Safety API on 1.3 (the default line), naming the fields and the alternative", () => {
    const run = llsd(["render", "cr.yaml"], { "cr.yaml": shields });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "spec.providers.safety: the 1.3 server line has no Safety API (removed in OGX 1.0): remove this provider;",
    );
    expect(run.stderr).toContain(
      "spec.resources.shields[0]: the 1.3 server line has no Safety API (removed in OGX 1.0), so shields cannot be registered",
    );
    expect(run.stderr).toContain("moderation_endpoint");
  });

  it.each([
    ["0.8", 0],
    ["0.7", 0],
    ["1.3", 1],
  ] as const)("render --release %s exits %i for the same spec", (release, code) => {
    expect(llsd(["render", "cr.yaml", "--release", release], { "cr.yaml": shields }).code).toBe(code);
  });

  it("validate says the same, and accepts the spec on an image of a line that has the Safety API", () => {
    const onDefault = llsd(["validate", "cr.yaml"], { "cr.yaml": shields });
    expect(onDefault.code).toBe(1);
    expect(onDefault.stdout).toContain("spec.providers.safety: the 1.3 server line has no Safety API");
    const pinned = shields.replace(
      "distribution: {name: starter}",
      'distribution: {image: "docker.io/ogx/distribution-starter:0.8.0"}',
    );
    expect(llsd(["validate", "cr.yaml"], { "cr.yaml": pinned }).stdout).toContain("valid");
    expect(llsd(["validate", "cr.yaml"], { "cr.yaml": pinned }).code).toBe(0);
  });

  it("notes the line it picked for an image whose tag names no known line", () => {
    const run = llsd(["render", "cr.yaml"], {
      "cr.yaml": vllm.replace(
        "distribution: {name: starter}",
        'distribution: {image: "docker.io/ogxai/distribution-starter:1.5.0"}',
      ),
    });
    expect(run.stderr).toContain(
      "server version 1.5.0 (tag of docker.io/ogxai/distribution-starter:1.5.0) is not a line these hooks know",
    );
  });
});
