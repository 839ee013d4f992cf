/**
 * `llsd migrate` keeps the server line a CR runs, and moves it only when asked (`--release`),
 * saying what changes. The oracle for "the line a CR runs" is the admission code's own choice
 * (lineOfAdmitted), applied to the input and to the output, and the sync hook's Deployment.
 */
import { parse } from "yaml";
import { lineOfAdmitted } from "../../../lib/admission/line";
import { GO_OPERATOR_DISTRIBUTIONS, DEFAULT_DISTRIBUTIONS } from "../../../lib/distributions/table";
import { syncWith } from "../../../lib/sync/with-io";
import type { BaseConfigResolver } from "../../../lib/oci";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { llsd } from "../../cli-helpers";
import { aRequest, deps } from "../../sync-builders";

const GO_STARTER = GO_OPERATOR_DISTRIBUTIONS.find((e) => e.name === "starter")?.image ?? "";
const NEW_STARTER = DEFAULT_DISTRIBUTIONS.find((e) => e.name === "starter")?.image ?? "";

const v1 = (env: string) => `apiVersion: llamastack.io/v1alpha1
kind: LlamaStackDistribution
metadata: {name: old, namespace: team-a}
spec:
  server:
    distribution: {name: starter}
    containerSpec:
      port: 8321
      env:${env}
`;
const withVllm = v1(
  `\n      - {name: VLLM_URL, value: "http://vllm:8000/v1"}\n      - {name: INFERENCE_MODEL, value: llama3}`,
);
const withoutPattern = v1(`\n      - {name: LOG_LEVEL, value: debug}`);
const v2 = (spec: string, extra = "") =>
  `apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: new, namespace: team-a}\nspec:\n${spec}${extra}`;
const running07 = v2(
  "  distribution: {name: starter}\n",
  `status:\n  distributionConfig: {activeDistribution: starter}\n  resolvedDistribution: {image: "${GO_STARTER}"}\n`,
);

const migrated = (file: string, ...flags: string[]) => {
  const run = llsd(["migrate", "in.yaml", ...flags], { "in.yaml": file });
  return { ...run, object: parse(run.stdout) as { spec: { distribution: object } } | null };
};

describe("llsd migrate keeps the server line the CR runs", () => {
  it.each([
    ["a v1alpha1 CR whose env becomes providers", withVllm, { image: GO_STARTER }, "0.7"],
    ["a v1alpha1 CR with nothing to rewrite", withoutPattern, { image: GO_STARTER }, "0.7"],
    ["a v1alpha2 CR that runs 0.7 (kubectl get -o yaml)", running07, { image: GO_STARTER }, "0.7"],
    ["a new v1alpha2 CR", v2("  distribution: {name: starter}\n"), { name: "starter" }, "1.3"],
    ["a CR that names its image", v2(`  distribution: {image: "${GO_STARTER}"}\n`), { image: GO_STARTER }, "0.7"],
  ])("%s: the distribution it needs to stay on the line it ran", (_title, file, distribution, line) => {
    const run = migrated(file);
    expect(run.code).toBe(0);
    expect(lineOfAdmitted(parse(file))).toBe(line);
    expect(run.object?.spec.distribution).toEqual(distribution);
    expect(lineOfAdmitted(run.object)).toBe(line);
    expect(run.stderr).toMatch(
      new RegExp(`^note: \\w+: stays on server line ${line.replace(".", "\\.")}: it runs `, "m"),
    );
  });

  it("names the image in the note, and says how to move", () => {
    const run = migrated(withVllm);
    expect(run.stderr).toContain(`note: old: stays on server line 0.7: it runs ${GO_STARTER}`);
    expect(run.stderr).toContain("llsd migrate --release LINE");
  });

  it("the migrated CR, applied new, gets the 0.7 image and a config from the bundled 0.7 base (the image has no labels)", async () => {
    const run = migrated(withVllm);
    const noLabels: BaseConfigResolver = {
      resolve: () => Promise.resolve({ kind: "no-labels", digest: `sha256:${"0".repeat(64)}` }),
    };
    const parent = {
      ...(run.object as object),
      metadata: { name: "old", namespace: "team-a", uid: "u", generation: 1 },
    };
    const answer = await syncWith(aRequest(parent as KubeObject), deps(), noLabels);
    const deployment = answer.children.find((c) => c.kind === "Deployment") as
      { spec: { template: { spec: { containers: { image: string }[] } } } } | undefined;
    expect(deployment?.spec.template.spec.containers[0]?.image).toBe(GO_STARTER);
    const configMap = answer.children.find((c) => c.kind === "ConfigMap" && c.metadata.name.startsWith("old-config-"));
    expect(JSON.stringify(configMap)).toContain("remote::vllm");
  });
});

describe("llsd migrate --release moves the CR, and says what changes", () => {
  it("0.7 → 1.3: pins the 1.3 image and lists APIs, provider types and state", () => {
    const run = migrated(withVllm, "--release", "1.3");
    expect(run.code).toBe(0);
    expect(run.object?.spec.distribution).toEqual({ image: NEW_STARTER });
    expect(lineOfAdmitted(run.object)).toBe("1.3");
    const moved = run.stderr.split("\n").filter((l) => l.startsWith("moved: old: "));
    expect(moved).toEqual([
      `moved: old: server line 0.7 (${GO_STARTER}) → 1.3 (${NEW_STARTER})`,
      "moved: old: APIs removed: safety, eval, datasetio, scoring; APIs added: messages, interactions, skills, container_runtime, containers",
      "moved: old: provider types: none change",
      expect.stringMatching(
        /^moved: old: state: ~\/\.llama \(0\.7\) becomes ~\/\.ogx \(1\.3\): the 1\.3 server does not read the 0\.7 state/,
      ),
    ]);
  });

  it.each([
    [
      "a removed provider type",
      "  providers:\n    inference: {provider: transformers}\n",
      /spec\.providers\.inference \(transformers\): inline::transformers does not exist on 1\.3/,
    ],
    [
      "the Safety API",
      "  providers:\n    safety: {provider: llama-guard}\n",
      /spec\.providers\.safety \(llama-guard\): the safety API does not exist on 1\.3/,
    ],
  ])("%s is named, and the CR the new line refuses is not written (exit 1)", (_title, providers, said) => {
    const run = migrated(v2(`  distribution: {image: "${GO_STARTER}"}\n${providers}`), "--release", "1.3");
    expect(run.stderr).toMatch(said);
    expect(run.stderr).toMatch(/^error: new: 1\.3 refuses \d+ field\(s\)/m);
    expect([run.code, run.stdout]).toEqual([1, ""]);
  });

  it("a line with no pinned image for the name is an error that says what to do", () => {
    const run = migrated(withVllm, "--release", "0.8");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "error: old: spec.distribution: no pinned image of starter is known for server line 0.8; set spec.distribution.image",
    );
  });

  it("the line it already runs moves nothing", () => {
    const same = migrated(withVllm, "--release", "0.7");
    expect([same.code, same.stdout]).toEqual([0, migrated(withVllm).stdout]);
  });

  it("a line that does not exist is a usage error naming the lines", () => {
    const run = migrated(withVllm, "--release", "2.0");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--release must be one of 0\.7, 0\.8, 1\.2, 1\.3/);
  });
});
