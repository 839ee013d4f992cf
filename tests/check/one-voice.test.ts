/**
 * One validation, one voice: `llsd validate`, `llsd render`, `POST /validate` and `POST /sync`
 * refuse the same specs with the same `path: message` lines, in the same order, whatever class
 * of rule the problem comes from (schema, semantic rule, provider type, generation against the
 * distribution's base config). Each row also names the fields it must report, so agreement on
 * an empty or wrong answer cannot pass. The hooks are called over HTTP (supertest).
 */
import request from "supertest";
import { stringify } from "yaml";
import { syncWith } from "../../lib/sync/with-io";
import { aTestApp } from "../hooks/helpers";
import { llsd } from "../cli-helpers";
import { aParent, aRequest, deps } from "../sync-builders";

const starter = { distribution: { name: "starter" } };
const vllm = { provider: "vllm", endpoint: "http://vllm:8000" };

/** [title, spec, the fields reported, in order, and a fragment of the first message] */
const BAD_SPECS: [string, object, string[], RegExp][] = [
  ["an unknown field (schema)", { ...starter, bogus: 1 }, ["spec"], /unknown field "bogus"/],
  [
    "a value of the wrong type (schema)",
    { ...starter, providers: { inference: { provider: "vllm", endpoint: 3 } } },
    ["spec.providers.inference.endpoint"],
    /must be string/,
  ],
  [
    "an unknown distribution (semantic)",
    { distribution: { name: "rh-dev" } },
    ["spec.distribution.name"],
    /Unknown distribution "rh-dev"/,
  ],
  [
    "a provider the servers removed (provider type)",
    { ...starter, providers: { inference: { provider: "tgi", endpoint: "http://tgi:8080" } } },
    ["spec.providers.inference.provider"],
    /remote::tgi does not exist/,
  ],
  [
    "a misspelled provider (provider type)",
    { ...starter, providers: { inference: { provider: "vlm", endpoint: "http://x:8000" } } },
    ["spec.providers.inference.provider"],
    /did you mean "vllm"\?/,
  ],
  [
    "a misspelled vector store",
    { ...starter, providers: { vectorIo: { provider: "fiass" } } },
    ["spec.providers.vectorIo.provider"],
    /did you mean "faiss"\?/,
  ],
  [
    "a model on an unknown provider (generation)",
    { ...starter, providers: { inference: vllm }, resources: { models: [{ name: "m", provider: "nope" }] } },
    ["spec.resources.models[0].provider"],
    /names provider "nope", which is not an inference provider/,
  ],
  [
    "a tool without its provider (generation)",
    { ...starter, disabled: ["responses", "toolRuntime"], resources: { tools: ["websearch"] } },
    ["spec.resources.tools[0]"],
    /toolRuntime provider that serves "websearch"/,
  ],
  [
    "overrideConfig beside providers (semantic)",
    { ...starter, overrideConfig: { configMapName: "cfg" }, providers: { inference: vllm } },
    ["spec.providers"],
    /mutually exclusive/,
  ],
  [
    "replicas above the autoscaler's maximum (semantic)",
    { ...starter, workload: { replicas: 5, autoscaling: { maxReplicas: 2 } } },
    ["spec.workload.replicas"],
    /maxReplicas/,
  ],
  [
    "every class at once",
    {
      distribution: { name: "rh-dev" },
      providers: { inference: [{ provider: "tgi" }, { provider: "vllm" }] },
      workload: { replicas: 5, autoscaling: { maxReplicas: 2 } },
    },
    [
      "spec.distribution.name",
      "spec.providers.inference[0].id",
      "spec.providers.inference[1].id",
      "spec.workload.replicas",
      "spec.providers.inference[0].provider",
    ],
    /Unknown distribution/,
  ],
  [
    "semantic and generation problems together",
    {
      ...starter,
      providers: {
        inference: [
          { provider: "vllm", endpoint: "http://a:8000" },
          { provider: "ollama", endpoint: "http://b:11434" },
        ],
      },
      resources: { models: [{ name: "m", provider: "nope" }] },
    },
    ["spec.providers.inference[0].id", "spec.providers.inference[1].id", "spec.resources.models[0].provider"],
    /unique id/,
  ],
];

const object = (spec: object) => ({
  apiVersion: "llamastack.io/v1alpha2",
  kind: "LlamaStackDistribution",
  metadata: { name: "demo", namespace: "team-a" },
  spec,
});

function cliValidate(spec: object): string[] {
  const run = llsd(["validate", "cr.yaml"], { "cr.yaml": stringify(object(spec)) });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^cr.yaml: llamastack.io\/v1alpha2 demo: invalid\n/);
  return run.stdout
    .split("\n")
    .filter((l) => l.startsWith("  "))
    .map((l) => l.slice(2));
}

function cliRender(spec: object): { code: number; lines: string[] } {
  const run = llsd(["render", "cr.yaml"], { "cr.yaml": stringify(object(spec)) });
  const lines = run.stderr.split("\n").filter((l) => l.startsWith("spec"));
  return { code: run.code, lines };
}

const { app } = aTestApp({ handlers: { sync: (r) => syncWith(r, deps(), undefined) } });

async function admission(spec: object): Promise<{ allowed: boolean; lines: string[] }> {
  const review = {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: "u-1",
      kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
      operation: "CREATE",
      name: "demo",
      namespace: "team-a",
      object: object(spec),
    },
  };
  const res = await request(app).post("/validate").send(review).expect(200);
  const response = res.body.response as {
    allowed: boolean;
    status?: { details: { causes: { field: string; message: string }[] } };
  };
  return {
    allowed: response.allowed,
    lines: (response.status?.details.causes ?? []).map((c) => `${c.field}: ${c.message}`),
  };
}

async function syncHook(spec: object): Promise<{ phase: string; lines: string[] }> {
  const res = await request(app)
    .post("/sync")
    .send(aRequest(aParent(spec)))
    .expect(200);
  const status = res.body.status as { phase: string; conditions: { type: string; status: string; message: string }[] };
  const failed = status.conditions.find((c) => c.type === "ConfigGenerated" && c.status === "False");
  return { phase: status.phase, lines: failed ? failed.message.split("\n") : [] };
}

describe("llsd validate, llsd render, /validate and /sync", () => {
  it.each(BAD_SPECS)("given %s, all four refuse it with the same lines", async (_title, spec, paths, first) => {
    const validateLines = cliValidate(spec);
    const render = cliRender(spec);
    const admitted = await admission(spec);
    const synced = await syncHook(spec);
    expect(validateLines.map((l) => l.slice(0, l.indexOf(": ")))).toEqual(paths);
    expect(validateLines[0]).toMatch(first);
    expect(render.code).toBe(1);
    expect(admitted.allowed).toBe(false);
    expect(synced.phase).toBe("Failed");
    expect({ render: render.lines, admission: admitted.lines, sync: synced.lines }).toEqual({
      render: validateLines,
      admission: validateLines,
      sync: validateLines,
    });
  });

  it.each([
    ["the starter distribution as is", starter],
    ["vLLM with a model", { ...starter, providers: { inference: vllm }, resources: { models: ["llama3"] } }],
    [
      "a provider outside the table, written in full",
      { ...starter, providers: { inference: { provider: "remote::vlm", endpoint: "http://x:8000" } } },
    ],
    [
      "a provider named like an Object property (fuzz regression)",
      { ...starter, providers: { inference: { provider: "constructor", endpoint: "http://x:8000" } } },
    ],
  ])("given %s, all four accept it", async (_title, spec) => {
    const run = llsd(["validate", "cr.yaml"], { "cr.yaml": stringify(object(spec)) });
    expect([run.code, run.stdout]).toEqual([0, "cr.yaml: llamastack.io/v1alpha2 demo: valid\n"]);
    expect(cliRender(spec).code).toBe(0);
    expect((await admission(spec)).allowed).toBe(true);
    expect((await syncHook(spec)).phase).not.toBe("Failed");
  });
});
