/**
 * Issue 46 part 4, one verdict: `llsd validate`, `llsd render`, `POST /validate` and `POST /sync`
 * accept and refuse the same inputs given the same related objects (the ConfigMaps and Secrets
 * beside the CR: in its file for the CLI, in `related` for /sync). Admission sees no ConfigMap
 * and no image: where it cannot see an object the spec names, it may allow, but then it must say
 * what it did not check in a warning; it never refuses what /sync accepts. The CLI reads no
 * registry: an image's config labels are the same kind of object for it.
 *
 * The inputs: every sample, the broken CRs of tests/check/bad-crs.ts, the valid specs the
 * reliability arbitraries draw (with the objects they name), and a table of CRs whose verdict
 * depends on a ConfigMap, each with and without it. The table's expectations are the server's
 * rules (an unsupported config.yaml version, a model on a provider the base lacks, files kept
 * inside each pod), stated per row, so four entry points agreeing on a wrong answer fails too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { parseAllDocuments, stringify } from "yaml";
import { review, type AdmissionRequest } from "../../lib/admission/review";
import { LLSD_KIND } from "../../lib/config/check-object";
import { sync } from "../../lib/sync/sync";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { llsd } from "../cli-helpers";
import { aConfigMap, aRequest, deps } from "../sync-builders";
import { aValidSpec } from "../reliability/arbitraries";
import { relatedFor } from "../reliability/related";
import { selfSignedCertificate } from "../oci/support/cert";
import { asStored } from "./stored";
import { BAD_OBJECTS, object, type Json } from "./bad-crs";

const NS = "team-a";
const ROOT = join(__dirname, "../..");
/**
 * Said by every warning about an object that was not given (lib/config/related-check.ts), and by
 * generation's note on external providers whose images it did not read (admission passes notes
 * on as warnings).
 */
const UNSEEN = /was not checked here \(not given\)|were not read here|which only the sync hook reads/;

interface Input {
  readonly title: string;
  readonly cr: Json;
  /** ConfigMaps and Secrets beside it. */
  readonly related: readonly KubeObject[];
}

interface Verdicts {
  readonly validate: { ok: boolean; unseen: boolean; text: string };
  readonly render: { ok: boolean; text: string };
  readonly admission: { ok: boolean; unseen: boolean; text: string };
  /** `unseen`: this /sync (tests' deps, LLSD_READ_IMAGE_LABELS=false) could not read an external provider's image. */
  readonly sync: { ok: boolean; unseen: boolean; text: string };
}

const fileOf = (input: Input): string => [input.cr, ...input.related].map((o) => stringify(o)).join("---\n");

/** As Metacontroller sends it: in the namespace, a Secret's `stringData` stored as base64 `data` (as the apiserver does). */
function inNamespace(o: KubeObject): KubeObject {
  const placed = { ...o, metadata: { ...o.metadata, namespace: NS } };
  const { stringData, ...rest } = placed as KubeObject & { stringData?: { [k: string]: string } };
  if (o.kind !== "Secret" || stringData === undefined) return placed;
  const data = Object.fromEntries(Object.entries(stringData).map(([k, v]) => [k, Buffer.from(v).toString("base64")]));
  return { ...rest, data: { ...((rest as { data?: object }).data ?? {}), ...data } };
}

function verdicts(input: Input): Verdicts {
  const file = fileOf(input);
  const validated = llsd(["validate", "cr.yaml"], { "cr.yaml": file });
  const rendered = llsd(["render", "cr.yaml"], { "cr.yaml": file });
  const stored = asStored(input.cr, NS);
  const request: AdmissionRequest = {
    uid: "u-1",
    kind: { group: "llamastack.io", version: "v1alpha2", kind: LLSD_KIND },
    operation: "CREATE",
    name: stored.metadata.name,
    namespace: NS,
    object: stored,
  };
  const admitted = review(request);
  const synced = sync(aRequest(stored, [], input.related.map(inNamespace)), deps());
  const status = synced.status as { phase?: string; conditions?: { type: string; status: string; message: string }[] };
  const said = (status.conditions ?? []).filter((c) => c.status === "False").map((c) => `${c.type}: ${c.message}`);
  return {
    validate: { ok: validated.code === 0, unseen: UNSEEN.test(validated.stderr), text: validated.stdout },
    render: { ok: rendered.code === 0, text: rendered.stderr },
    admission: {
      ok: admitted.allowed,
      unseen: (admitted.warnings ?? []).some((w) => UNSEEN.test(w)),
      text: admitted.status?.message ?? (admitted.warnings ?? []).join("\n"),
    },
    sync: { ok: status.phase !== "Failed", unseen: said.join().includes("do not read images"), text: said.join("\n") },
  };
}

/** The agreement every input must show (see the file comment). */
function expectOneVerdict(v: Verdicts): void {
  if (v.sync.unseen) {
    // Nobody here read the images: each that accepts says so.
    if (v.validate.ok) expect(v.validate.unseen).toBe(true);
    if (v.admission.ok) expect(v.admission.unseen).toBe(true);
    return;
  }
  // The CLI and /sync are given the same objects: one verdict, unless the CLI says what it could not read.
  if (!v.validate.unseen)
    expect({ validate: v.validate.ok, why: v.sync.text }).toEqual({ validate: v.sync.ok, why: v.sync.text });
  expect({ render: v.render.ok, why: v.render.text }).toEqual({ render: v.sync.ok, why: v.render.text });
  // Admission never refuses what /sync accepts; it allows what /sync refuses only saying what it did not see.
  if (v.sync.ok)
    expect({ admission: v.admission.ok, why: v.admission.text }).toEqual({ admission: true, why: v.admission.text });
  if (!v.sync.ok && v.admission.ok)
    expect({ unseen: v.admission.unseen, sync: v.sync.text }).toEqual({ unseen: true, sync: v.sync.text });
  if (!v.sync.ok && v.validate.ok)
    expect({ unseen: v.validate.unseen, sync: v.sync.text }).toEqual({ unseen: true, sync: v.sync.text });
}

/** Every LLSD of every sample, with the ConfigMaps and Secrets of its file. */
function sampleInputs(): Input[] {
  const dir = join(ROOT, "samples");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .flatMap((f) => {
      const objects = parseAllDocuments(readFileSync(join(dir, f), "utf8")).map((d) => d.toJS() as Json);
      const related = objects.filter((o) => o.kind === "ConfigMap" || o.kind === "Secret") as unknown as KubeObject[];
      return objects.filter((o) => o.kind === LLSD_KIND).map((cr) => ({ title: `samples/${f}`, cr, related }));
    });
}

describe("the samples", () => {
  it.each(sampleInputs().map((i) => [i.title, i] as const))("%s: one verdict, valid", (_t, input) => {
    const v = verdicts(input);
    expectOneVerdict(v);
    // External providers' images are read only by a /sync that reads images: not this one.
    const expected = [true, true, true, !v.sync.unseen];
    expect([v.validate.ok, v.render.ok, v.admission.ok, v.sync.ok]).toEqual(expected);
  });
});

describe("the broken CRs", () => {
  it.each(BAD_OBJECTS.map((b) => [b.title, b] as const))("%s: one verdict, refused", (_t, bad) => {
    const v = verdicts({ title: bad.title, cr: bad.cr, related: [] });
    expectOneVerdict(v);
    expect([v.validate.ok, v.render.ok, v.sync.ok]).toEqual([false, false, false]);
  });
});

const STARTER_13 = readFileSync(join(ROOT, "lib/distributions/base/starter-1.3.yaml"), "utf8");
const VLLM = { provider: "vllm", endpoint: "http://vllm:8000/v1" };
const ONE_VLLM_BASE =
  "version: 2\napis: [inference]\nproviders:\n  inference:\n  - provider_id: a\n    provider_type: remote::vllm\n    config: {base_url: 'http://x:8000/v1'}\n";
const LOCALFS =
  "version: 2\napis: [files]\nproviders:\n  files:\n  - provider_id: f\n    provider_type: inline::localfs\n    config: {storage_dir: /d}\n";

const UPSTREAM_HEADER = `${LOCALFS}distro_name: mine\nserver:\n  auth:\n    provider_config: {type: upstream_header, principal_header: x-auth-user}\n`;

/** [title, spec, the ConfigMap it names, accepted once the ConfigMap is given]. */
const WITH_CONFIGMAP: [string, object, KubeObject, boolean][] = [
  [
    "a baseConfig of an unsupported version (the server reads version 2 only)",
    { distribution: { name: "starter" }, baseConfig: { configMapName: "base" }, providers: { inference: VLLM } },
    aConfigMap("base", { "config.yaml": "version: 3\napis: []\nproviders: {}\n" }),
    false,
  ],
  [
    "a model on a provider the baseConfig lacks",
    {
      distribution: { name: "starter" },
      baseConfig: { configMapName: "base" },
      resources: { models: [{ name: "m", provider: "nope" }] },
    },
    aConfigMap("base", { "config.yaml": ONE_VLLM_BASE }),
    false,
  ],
  [
    "a model on the baseConfig's provider",
    {
      distribution: { name: "starter" },
      baseConfig: { configMapName: "base" },
      resources: { models: [{ name: "m", provider: "a" }] },
    },
    aConfigMap("base", { "config.yaml": ONE_VLLM_BASE }),
    true,
  ],
  [
    "a baseConfig ConfigMap without the key",
    { distribution: { name: "starter" }, baseConfig: { configMapName: "base" }, providers: { inference: VLLM } },
    aConfigMap("base", { "run.yaml": STARTER_13 }),
    false,
  ],
  [
    "an override keeping files in each of 2 pods",
    { distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" }, workload: { replicas: 2 } },
    aConfigMap("mine", { "config.yaml": LOCALFS }),
    false,
  ],
  [
    "the same override on one pod",
    { distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } },
    aConfigMap("mine", { "config.yaml": LOCALFS }),
    true,
  ],
  [
    "an exposed override whose server believes a gateway's headers (upstream_header)",
    { distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" }, networking: { expose: true } },
    aConfigMap("mine", { "config.yaml": UPSTREAM_HEADER }),
    false,
  ],
  [
    "the same override, not exposed",
    { distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } },
    aConfigMap("mine", { "config.yaml": UPSTREAM_HEADER }),
    true,
  ],
  [
    "an override of an unsupported version",
    { distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } },
    aConfigMap("mine", { "config.yaml": "version: 3\n" }),
    false,
  ],
];

describe("a verdict that depends on a ConfigMap", () => {
  it.each(WITH_CONFIGMAP)("%s, given: one verdict", (title, spec, configMap, accepted) => {
    const v = verdicts({ title, cr: object(spec), related: [configMap] });
    expectOneVerdict(v);
    expect([v.validate.ok, v.render.ok, v.sync.ok]).toEqual([accepted, accepted, accepted]);
    // Admission cannot see the ConfigMap: it says so.
    expect(v.admission).toMatchObject({ ok: true, unseen: true });
  });

  it.each(WITH_CONFIGMAP)(
    "%s, not given: /sync refuses it, llsd validate and /validate say what they could not check",
    (title, spec) => {
      const v = verdicts({ title, cr: object(spec), related: [] });
      expect(v.sync.ok).toBe(false);
      expect(v.sync.text).toMatch(/ConfigMap/);
      expect(v.validate).toMatchObject({ unseen: true });
      expect(v.admission).toMatchObject({ ok: true, unseen: true });
    },
  );
});

describe("an image's config labels", () => {
  it("a generated config on an image with no bundled config: the ones that cannot read it say so", () => {
    const spec = { distribution: { image: "quay.io/acme/llama:1.3.0" }, providers: { inference: VLLM } };
    const v = verdicts({ title: "image", cr: object(spec), related: [] });
    // /sync here reads no labels (none found): it refuses, as `llsd render` does without --base-config.
    expectOneVerdict(v);
    expect([v.render.ok, v.sync.ok]).toEqual([false, false]);
    expect([v.validate.unseen, v.admission.unseen]).toEqual([true, true]);
  });
});

const SEED = Number(process.env.FUZZ_SEED ?? 46);
const CA_PEM = selfSignedCertificate("llsd one-verdict test CA").pem;
const STATELESS = "version: 2\ndistro_name: starter\napis: [inference]\nproviders:\n  inference: []\n";

describe(`the specs the reliability arbitraries draw (seed ${SEED})`, () => {
  const specs = fc.sample(aValidSpec, { numRuns: 40, seed: SEED });
  it.each(specs.map((spec, i) => [i, spec] as const))("draw %i: one verdict", (_i, spec) => {
    const related = relatedFor(spec, { caPem: CA_PEM, override: STATELESS, base: STARTER_13 });
    expectOneVerdict(verdicts({ title: "drawn", cr: object(spec), related }));
  });
});
