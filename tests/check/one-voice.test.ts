/**
 * One validation, one voice: `llsd validate`, `llsd render`, `llsd request`, `POST /validate` and
 * `POST /sync` refuse the same CRs with the same `path: message` lines, in the same order,
 * whatever class of rule the problem comes from (the name, the schema, a semantic rule, a provider
 * type, generation against the distribution's base config). Each row also names the fields it
 * must report, so agreement on an empty or wrong answer cannot pass. The hooks are called over
 * HTTP (supertest) with the object as the apiserver hands it over (v1alpha1 converted to
 * v1alpha2); they may accept more only where the apiserver refuses first (docs/cli.md).
 */
import request from "supertest";
import { stringify } from "yaml";
import { syncWith } from "../../lib/sync/with-io";
import { aTestApp } from "../hooks/helpers";
import { llsd } from "../cli-helpers";
import { aRequest, deps } from "../sync-builders";
import { asStored } from "./stored";
import { BAD_OBJECTS, object, starter, vllm, type Json } from "./bad-crs";

/** The `path: message` lines of a command's stderr (notes and warnings start otherwise). */
const problemLines = (stderr: string): string[] => stderr.split("\n").filter((l) => /^(spec|metadata)\b/.test(l));

function cliValidate(cr: Json): string[] {
  const run = llsd(["validate", "cr.yaml"], { "cr.yaml": stringify(cr) });
  expect(run.code).toBe(1);
  expect(run.stdout).toMatch(/^cr.yaml: llamastack.io\/v1alpha\d \S+: invalid\n/);
  return run.stdout
    .split("\n")
    .filter((l) => l.startsWith("  "))
    .map((l) => l.slice(2));
}

/** `llsd render FILE` or `llsd request sync FILE`: the exit code, stdout and the problem lines. */
function cli(args: string[], cr: Json): { code: number; stdout: string; lines: string[] } {
  const run = llsd([...args, "cr.yaml"], { "cr.yaml": stringify(cr) });
  return { code: run.code, stdout: run.stdout, lines: problemLines(run.stderr) };
}

const { app } = aTestApp({ handlers: { sync: (r) => syncWith(r, deps(), undefined) } });

async function admission(cr: Json): Promise<{ allowed: boolean; lines: string[] }> {
  const stored = asStored(cr, "team-a");
  const review = {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    request: {
      uid: "u-1",
      kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
      operation: "CREATE",
      name: stored.metadata.name,
      namespace: "team-a",
      object: stored,
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

async function syncHook(cr: Json): Promise<{ phase: string; lines: string[] }> {
  const res = await request(app)
    .post("/sync")
    .send(aRequest(asStored(cr, "team-a")))
    .expect(200);
  const status = res.body.status as { phase: string; conditions: { type: string; status: string; message: string }[] };
  const failed = status.conditions.find((c) => c.type === "ConfigGenerated" && c.status === "False");
  return { phase: status.phase, lines: failed ? failed.message.split("\n") : [] };
}

/** A line as the hooks say it: they judge the stored v1alpha2 form, so without the CLI's "(as stored…)". */
const hooksSay = (line: string): string => line.replace(/ \(as stored in v1alpha2\)$/, "");

describe("llsd validate, llsd render, llsd request, /validate and /sync", () => {
  it.each(BAD_OBJECTS)(
    "given $title, all five refuse it with the same lines",
    async ({ cr, paths, first, apiserverOnly = [] }) => {
      const validateLines = cliValidate(cr);
      const render = cli(["render"], cr);
      const requested = cli(["request", "sync"], cr);
      const admitted = await admission(cr);
      const synced = await syncHook(cr);
      expect(validateLines.map((l) => l.slice(0, l.indexOf(": ")))).toEqual(paths);
      expect(validateLines[0]).toMatch(first);
      expect([render.code, render.stdout, requested.code, requested.stdout]).toEqual([1, "", 1, ""]);
      expect(admitted.allowed).toBe(false);
      expect(synced.phase).toBe("Failed");
      const hooksLines = validateLines
        .filter((l) => !apiserverOnly.includes(l.slice(0, l.indexOf(": "))))
        .map(hooksSay);
      expect({ render: render.lines, request: requested.lines, admission: admitted.lines, sync: synced.lines }).toEqual(
        { render: validateLines, request: validateLines, admission: hooksLines, sync: hooksLines },
      );
    },
  );

  it.each([
    ["the starter distribution as is", starter],
    ["vLLM with a model", { ...starter, providers: { inference: vllm }, resources: { models: ["llama3"] } }],
    [
      "a provider outside the table, written in full",
      { ...starter, providers: { inference: { provider: "remote::vlm", endpoint: "http://x:8000" } } },
    ],
    [
      "a type of one's own named like an Object property, written in full (fuzz regression)",
      { ...starter, providers: { inference: { provider: "remote::constructor", endpoint: "http://x:8000" } } },
    ],
  ])("given %s, all five accept it", async (_title, spec) => {
    const run = llsd(["validate", "cr.yaml"], { "cr.yaml": stringify(object(spec)) });
    expect([run.code, run.stdout]).toEqual([0, "cr.yaml: llamastack.io/v1alpha2 demo: valid\n"]);
    expect(cli(["render"], object(spec)).code).toBe(0);
    expect(cli(["request", "sync"], object(spec)).code).toBe(0);
    expect((await admission(object(spec))).allowed).toBe(true);
    expect((await syncHook(object(spec))).phase).not.toBe("Failed");
  });
});
