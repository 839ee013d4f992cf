/**
 * Every config the suite's samples and goldens hold, read as the real server of each supported
 * line reads it (tests/server-check/check.ts): each sample synced for every line in RELEASES
 * (config.yaml and the Deployment's env), and every render and sync golden for the line it was
 * made for.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { requestCommand } from "../../lib/cli/request";
import { releaseFor } from "../../lib/config/render";
import { schemaTagOf } from "../../lib/distributions/releases";
import { validate } from "../../lib/api/validate";
import { RELEASES, type Release } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import { KEYS, objectsOf, type KubeObject, type SyncRequest, type SyncResponse } from "../../lib/wire/metacontroller";
import { fixtureFound } from "../external-fixtures";
import { refusedSamples, sampleCr } from "../sample-files";
import { deps } from "../sync-builders";
import { checkServerConfigs, type ServerCheck } from "./check";
import { containerEnv, envOf, type EnvVar } from "./container-env";
import { describeFailure, serverCheckOf, tableFor } from "./from-sync";

const ROOT = join(__dirname, "..", "..");
const SAMPLES = join(ROOT, "samples");
const v1alpha2 = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".yaml") && !f.startsWith("v1alpha1"))
  .sort();

function syncRequest(file: string): SyncRequest {
  let out = "";
  const io = {
    stdout: (t: string) => void (out += t),
    stderr: () => undefined,
    readFile: (p: string) => readFileSync(p, "utf8"),
  };
  if (requestCommand("sync", join(SAMPLES, file), io) !== 0) throw new Error(`llsd request sync ${file} failed`);
  return JSON.parse(out) as SyncRequest;
}

function syncOn(file: string, release: Release): { answer: SyncResponse; request: SyncRequest } {
  const request = syncRequest(file);
  const spec = (request.parent as { spec?: unknown }).spec;
  const answer = sync(request, { ...deps(), distributions: tableFor(release) }, fixtureFound(spec));
  return { answer, request };
}

/** Every sample on every line; the samples that run their image's own config have nothing to check. */
const samplesOnLines = v1alpha2.flatMap((file) =>
  RELEASES.map((release) => ({ file, release, ...syncOn(file, release) })),
);

describe.each(RELEASES)("samples synced for the %s line", (release) => {
  const runs = samplesOnLines.filter((r) => r.release === release);
  const checks = runs.map((r) => ({
    file: r.file,
    check: serverCheckOf(r.answer, r.request.related, release),
    phase: r.answer.status.phase,
  }));
  let problems: string[][] = [];
  beforeAll(() => {
    problems = checkServerConfigs(checks.flatMap((c) => (c.check ? [c.check] : [])));
  });

  it("sync every sample (none fails on this line but those it refuses on purpose, for the fields they name)", () => {
    const refused = refusedSamples(release);
    expect(checks.filter((c) => c.phase === "Failed").map((c) => c.file)).toEqual(Object.keys(refused));
    for (const [file, paths] of Object.entries(refused)) {
      const conditions = JSON.stringify(runs.find((r) => r.file === file)?.answer.status.conditions);
      for (const path of paths)
        expect({ file, conditions }).toEqual({ file, conditions: expect.stringContaining(`${path}:`) });
    }
    expect(checks.filter((c) => c.check !== undefined).length).toBeGreaterThan(5);
  });

  it("start the server of this line: every mounted config passes its schemas, substitution and startup checks", () => {
    const mounted = checks.filter((c) => c.check !== undefined);
    const failures = mounted
      .map((c, i) => describeFailure(`${c.file} on ${release}`, problems[i] ?? []))
      .filter((f) => f !== "");
    expect(failures).toEqual([]);
  });
});

/** Secrets of a sample file, for the env its golden's Deployment reads. */
function sampleSecrets(file: string): KubeObject[] {
  return objectsOf(syncRequest(file).related, KEYS.secret);
}

function sampleSpec(file: string): { spec: unknown; overridesEnv: readonly EnvVar[] } {
  const { spec } = sampleCr(file)!;
  const { workload } = (spec ?? {}) as { workload?: { overrides?: { env?: EnvVar[] } } };
  return { spec, overridesEnv: workload?.overrides?.env ?? [] };
}

function releaseOfSample(file: string): Release {
  const checked = validate(sampleSpec(file).spec);
  if (!checked.spec) throw new Error(`${file} does not validate`);
  return releaseFor(checked.spec, {});
}

describe("goldens, each for the line it was made for", () => {
  const syncGoldens = readdirSync(join(ROOT, "tests/golden/sync"))
    .filter((f) => f.endsWith(".json"))
    .sort();
  const renderGoldens = readdirSync(join(ROOT, "tests/golden/render"))
    .filter((f) => f.endsWith(".yaml"))
    .sort();

  it("every sync golden's mounted config", () => {
    const found = syncGoldens.flatMap((golden) => {
      const file = golden.replace(/\.json$/, ".yaml");
      const answer = JSON.parse(readFileSync(join(ROOT, "tests/golden/sync", golden), "utf8")) as SyncResponse;
      const related = syncRequest(file).related;
      const check = serverCheckOf(answer, related, releaseOfSample(file));
      return check ? [{ golden, check: { ...check, env: containerEnv(answer.children, sampleSecrets(file)) } }] : [];
    });
    expect(found.length).toBeGreaterThan(5);
    const problems = checkServerConfigs(found.map((f) => f.check));
    expect(found.map((f, i) => describeFailure(f.golden, problems[i] ?? [])).filter((s) => s !== "")).toEqual([]);
  });

  it("every render golden's generated config", () => {
    const found = renderGoldens.flatMap((golden): { golden: string; check: ServerCheck }[] => {
      const text = readFileSync(join(ROOT, "tests/golden/render", golden), "utf8");
      const line = /config\.yaml for the (\S+) server line/.exec(text)?.[1] as Release | undefined;
      if (line === undefined) return [];
      const [config = "", envPart = ""] = text.split(/^---\n# .*: container env.*\n/m);
      const listed = (parse(envPart.split(/^# stderr:/m)[0] ?? "") as { env?: EnvVar[] } | null)?.env ?? [];
      const env = envOf([...listed, ...sampleSpec(golden).overridesEnv], sampleSecrets(golden));
      return [{ golden, check: { configYaml: config, env, tag: schemaTagOf(line) } }];
    });
    expect(found.length).toBeGreaterThan(5);
    const problems = checkServerConfigs(found.map((f) => f.check));
    expect(found.map((f, i) => describeFailure(f.golden, problems[i] ?? [])).filter((s) => s !== "")).toEqual([]);
  });
});
