/**
 * Property: any valid spec (tests/reliability/arbitraries.ts), with the Secrets and ConfigMaps
 * it names, synced for each supported line, mounts a config that server line starts with —
 * read with PyYAML, substituted with the Deployment's env, checked against the line's schemas.
 */
import fc from "fast-check";
import { validate } from "../../lib/api/validate";
import { checkSpec } from "../../lib/config/check";
import { RELEASES } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { fixtureFound } from "../external-fixtures";
import { aValidSpec } from "../reliability/arbitraries";
import { relatedFor } from "../reliability/related";
import { selfSignedCertificate } from "../oci/support/cert";
import { base } from "../config-helpers";
import { aParent, aRequest, deps } from "../sync-builders";
import { checkServerConfigs, type ServerCheck } from "./check";
import { describeFailure, serverCheckOf, tableFor } from "./from-sync";

const RUNS = Number(process.env.SERVER_CHECK_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CA_PEM = selfSignedCertificate("llsd server-check CA").pem;

const relatedOf = (spec: object, release: (typeof RELEASES)[number]): KubeObject[] =>
  relatedFor(spec, { caPem: CA_PEM, override: base("starter", release), base: base("starter", release) });

/**
 * The config does not depend on the number of pods, but several pods on the base's sqlite stores
 * and local files are refused (docs/scaling.md; tests/lib/config/shared-state*.test.ts): the
 * configs are checked on one pod.
 */
function onePod(spec: object): object {
  const { workload } = spec as { workload?: { [k: string]: unknown } };
  if (!workload) return spec;
  const { autoscaling: _hpa, replicas, ...rest } = workload;
  return { ...spec, workload: { ...rest, ...(replicas === 0 ? { replicas } : {}) } };
}

describe.each(RELEASES)(`valid specs synced for the %s line (seed ${SEED}, ${RUNS} specs)`, (release) => {
  // One pod (see onePod), and valid on this line: the OGX sections, monitoring,
  // registryRefreshIntervalSeconds… are not on every line.
  // Drawn twice over: on 0.7 about a quarter of the specs is valid.
  const specs = fc
    .sample(aValidSpec, { numRuns: 2 * RUNS, seed: SEED })
    .map(onePod)
    .filter((s) => validate(s).errors.length === 0 && checkSpec(s, { release }).errors.length === 0)
    .slice(0, RUNS);

  it("mount configs that the server of this line accepts", () => {
    expect(specs.length).toBeGreaterThan(RUNS / 4); // the line's filter leaves enough to say something
    const checks: { spec: object; check: ServerCheck }[] = [];
    for (const spec of specs) {
      const request = aRequest(aParent(spec), [], relatedOf(spec, release));
      const answer = sync(request, { ...deps(), distributions: tableFor(release) }, fixtureFound(spec));
      expect(answer.status.phase).not.toBe("Failed");
      const check = serverCheckOf(answer, request.related, release);
      if (check) checks.push({ spec, check });
    }
    // Specs that run the image's own config mount none; on 0.7 they are many of the valid ones.
    expect(checks.length).toBeGreaterThan(specs.length / 4);
    const problems = checkServerConfigs(checks.map((c) => c.check));
    const failures = checks
      .map((c, i) => describeFailure(JSON.stringify(c.spec), problems[i] ?? []))
      .filter((f) => f !== "");
    expect(failures.slice(0, 3)).toEqual([]);
  }, 120_000);
});
