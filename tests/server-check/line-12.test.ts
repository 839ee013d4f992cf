/**
 * The 1.2 line as OpenShift AI 3.5 runs it: an OGX 1.2.2 image whose labels carry its own
 * config. Every sample and a sample of valid specs (tests/reliability/arbitraries.ts) is synced
 * for a `…:1.2.2` image with that image's shipped config as the base (upstream's file, verbatim:
 * tests/fixtures/server-schemas/v1.2.2/distributions/), and each mounted config is read as the
 * 1.2.2 server reads it: substituted, then checked against the v1.2.2 classes, where an unknown
 * (silently ignored) key is an error. So: no ignored key, no type 1.2.2 lacks, no start-up check
 * the checker knows of failed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { validate } from "../../lib/api/validate";
import { requestCommand } from "../../lib/cli/request";
import { checkSpec } from "../../lib/config/check";
import { schemaTagOf } from "../../lib/distributions/releases";
import { DEFAULT_DISTRIBUTIONS, type DistributionTable } from "../../lib/distributions/table";
import type { BaseOutcome } from "../../lib/sync/base-source";
import { sync } from "../../lib/sync/sync";
import type { KubeObject, SyncRequest } from "../../lib/wire/metacontroller";
import { base } from "../config-helpers";
import { fixtureLookup } from "../external-fixtures";
import { selfSignedCertificate } from "../oci/support/cert";
import { aValidSpec } from "../reliability/arbitraries";
import { relatedFor } from "../reliability/related";
import { aParent, aRequest, deps } from "../sync-builders";
import { checkServerConfigs, type ServerCheck } from "./check";
import { describeFailure, serverCheckOf } from "./from-sync";

const RELEASE = "1.2" as const;
const VERSION = "1.2.2";
const ROOT = join(__dirname, "..", "..");
const SHIPPED = join(__dirname, "..", "fixtures", "server-schemas", schemaTagOf(RELEASE), "distributions");

/** Each named distribution on its published 1.2.2 image (`ogxai/distribution-<name>:1.2.2`). */
const TABLE: DistributionTable = DEFAULT_DISTRIBUTIONS.map((e) => ({
  name: e.name,
  image: `${e.image.replace(/:[^:/]*$/, "")}:${VERSION}`,
  release: RELEASE,
}));

/** What the registry answers for the image: its labels' config, upstream's shipped file for that distribution. */
function fromLabels(spec: unknown): BaseOutcome {
  const name = (spec as { distribution?: { name?: string } }).distribution?.name ?? "starter";
  const text = readFileSync(join(SHIPPED, name, "config.yaml"), "utf8");
  const external = fixtureLookup(spec);
  return {
    base: { text, source: "oci-label", digest: `sha256:${"1".repeat(64)}`, version: VERSION },
    notes: [],
    ...(external ? { external } : {}),
  };
}

function checksOf(runs: readonly { label: string; request: SyncRequest; spec: unknown }[]) {
  return runs.map(({ label, request, spec }) => {
    const answer = sync(request, { ...deps(), distributions: TABLE }, fromLabels(spec));
    const check = serverCheckOf(answer, request.related, RELEASE);
    return { label, phase: answer.status.phase, check, conditions: answer.status.conditions };
  });
}

function failuresOf(checks: readonly { label: string; check?: ServerCheck }[]): string[] {
  const mounted = checks.filter((c): c is { label: string; check: ServerCheck } => c.check !== undefined);
  const problems = checkServerConfigs(mounted.map((c) => c.check));
  return mounted.map((c, i) => describeFailure(c.label, problems[i] ?? [])).filter((f) => f !== "");
}

function sampleRequest(file: string): SyncRequest {
  let out = "";
  const io = {
    stdout: (t: string) => void (out += t),
    stderr: () => undefined,
    readFile: (p: string) => readFileSync(p, "utf8"),
  };
  if (requestCommand("sync", join(ROOT, "samples", file), io) !== 0)
    throw new Error(`llsd request sync ${file} failed`);
  return JSON.parse(out) as SyncRequest;
}

describe(`every sample on an OGX ${VERSION} image, its own config as the base`, () => {
  const files = readdirSync(join(ROOT, "samples"))
    .filter((f) => f.endsWith(".yaml") && !f.startsWith("v1alpha1"))
    .sort();
  const checks = checksOf(
    files.map((file) => {
      const request = sampleRequest(file);
      return { label: file, request, spec: (request.parent as { spec?: unknown }).spec };
    }),
  );

  it("syncs every sample", () => {
    expect(checks.filter((c) => c.phase === "Failed").map((c) => [c.label, c.conditions])).toEqual([]);
    expect(checks.filter((c) => c.check !== undefined).length).toBeGreaterThan(files.length / 2);
  });

  it("mounts configs the 1.2.2 classes load with no ignored key", () => {
    expect(failuresOf(checks)).toEqual([]);
  });
});

const RUNS = Number(process.env.SERVER_CHECK_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

describe(`valid specs on an OGX ${VERSION} image, its own config as the base (seed ${SEED}, ${RUNS} specs)`, () => {
  const caPem = selfSignedCertificate("llsd 1.2 line CA").pem;
  const relatedOf = (spec: object): KubeObject[] =>
    relatedFor(spec, { caPem, override: base("starter", RELEASE), base: base("starter", RELEASE) });
  // One pod, as tests/server-check/properties.test.ts: several pods on the base's sqlite stores are refused.
  const onePod = (spec: object): object => {
    const { workload } = spec as { workload?: { [k: string]: unknown } };
    if (!workload) return spec;
    const { autoscaling: _hpa, replicas, ...rest } = workload;
    return { ...spec, workload: { ...rest, ...(replicas === 0 ? { replicas } : {}) } };
  };
  const specs = fc
    .sample(aValidSpec, { numRuns: 2 * RUNS, seed: SEED })
    .map(onePod)
    .filter((s) => validate(s).errors.length === 0 && checkSpec(s, { release: RELEASE }).errors.length === 0)
    .slice(0, RUNS);

  it("syncs each one and mounts configs the 1.2.2 classes load with no ignored key", () => {
    expect(specs.length).toBeGreaterThan(RUNS / 2);
    const checks = checksOf(
      specs.map((spec) => ({
        label: JSON.stringify(spec),
        request: aRequest(aParent(spec), [], relatedOf(spec)),
        spec,
      })),
    );
    expect(checks.filter((c) => c.phase === "Failed").map((c) => [c.label, c.conditions])).toEqual([]);
    expect(checks.filter((c) => c.check !== undefined).length).toBeGreaterThan(specs.length / 2);
    expect(failuresOf(checks).slice(0, 3)).toEqual([]);
  }, 120_000);
});

/**
 * The issue's second held-out case: a model on the distribution's `ollama` provider, which
 * 1.2.2's starter switches on with `${env.OLLAMA_URL:+ollama}`. Both 1.2.2 and 1.3.0 skip a
 * registered model whose `model_id` resolves to nothing (`RESOURCE_ID_FIELDS`, core/stack.py,
 * same code at both tags) and stop with "Provider `ollama` not found" for one on the switched-off
 * provider (`register_resources`, same code). The real 1.2.2 server started on this config with
 * OLLAMA_URL unset and served chat (tools/ogx-server check.sh, RESULT: PASS).
 */
describe("a model on the starter's env-switched ollama provider, on 1.2.2", () => {
  const spec = {
    distribution: { name: "starter" },
    providers: { inference: { provider: "vllm", endpoint: "http://vllm.models.svc:8000/v1" } },
    resources: {
      models: [
        { name: "fake-model", provider: "vllm" },
        { name: "llama3.2:1b", provider: "ollama" },
      ],
    },
  };
  const [run] = checksOf([{ label: "ollama model", request: aRequest(aParent(spec), [], []), spec }]);

  it("goes behind the provider's switch, and the 1.2.2 classes and start-up checks accept the config", () => {
    expect(run!.check?.configYaml).toContain("model_id: ${env.OLLAMA_URL:+llama3.2:1b}");
    expect(run!.check?.env.OLLAMA_URL).toBeUndefined();
    expect(failuresOf([run!])).toEqual([]);
  });
});
