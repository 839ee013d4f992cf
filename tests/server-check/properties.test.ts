/**
 * Property: any valid spec (tests/reliability/arbitraries.ts), with the Secrets and ConfigMaps
 * it names, synced for each supported line, mounts a config that server line starts with —
 * read with PyYAML, substituted with the Deployment's env, checked against the line's schemas.
 */
import fc from "fast-check";
import { validate } from "../../lib/api/validate";
import { RELEASES } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { fixtureFound } from "../external-fixtures";
import { aValidSpec } from "../reliability/arbitraries";
import { secretOf, secretsFor, valueFor } from "../reliability/support";
import { selfSignedCertificate } from "../oci/support/cert";
import { base } from "../config-helpers";
import { aConfigMap, aParent, aRequest, deps } from "../sync-builders";
import { checkServerConfigs, type ServerCheck } from "./check";
import { describeFailure, serverCheckOf, tableFor } from "./from-sync";

const RUNS = Number(process.env.SERVER_CHECK_RUNS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const CA_PEM = selfSignedCertificate("llsd server-check CA").pem;

function relatedFor(spec: object, release: (typeof RELEASES)[number]): KubeObject[] {
  const tls = (spec as { networking?: { tls?: { caBundle?: { configMapKeys?: string[] } } } }).networking?.tls;
  const keys = tls?.caBundle?.configMapKeys ?? ["ca-bundle.crt"];
  return [
    ...secretsFor(spec, (name, key, path) => valueFor(path, `value-of-${name}-${key}`)),
    aConfigMap("custom-ca", Object.fromEntries(keys.map((k) => [k, CA_PEM]))),
    aConfigMap("my-config", { "config.yaml": base("starter", release) }),
    {
      ...secretOf("llama-tls", { "tls.crt": "-----BEGIN CERTIFICATE-----", "tls.key": "-----BEGIN PRIVATE KEY-----" }),
      type: "kubernetes.io/tls",
    },
  ];
}

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
  const specs = fc
    .sample(aValidSpec, { numRuns: RUNS, seed: SEED })
    .filter((s) => validate(s).errors.length === 0)
    .map(onePod);

  it("mount configs that the server of this line accepts", () => {
    const checks: { spec: object; check: ServerCheck }[] = [];
    for (const spec of specs) {
      const request = aRequest(aParent(spec), [], relatedFor(spec, release));
      const answer = sync(request, { ...deps(), distributions: tableFor(release) }, fixtureFound(spec));
      expect(answer.status.phase).not.toBe("Failed");
      const check = serverCheckOf(answer, request.related, release);
      if (check) checks.push({ spec, check });
    }
    expect(checks.length).toBeGreaterThan(specs.length / 2);
    const problems = checkServerConfigs(checks.map((c) => c.check));
    const failures = checks
      .map((c, i) => describeFailure(JSON.stringify(c.spec), problems[i] ?? []))
      .filter((f) => f !== "");
    expect(failures.slice(0, 3)).toEqual([]);
  }, 120_000);
});
