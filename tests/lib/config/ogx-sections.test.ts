/**
 * The OGX sections (`files`, `batches`, `responses`, `fileProcessors`, `messages`,
 * `interactions`, `skills`): every provider name each line registers for them, synced on that
 * line, mounts a config its server accepts (schemas with unknown keys flagged, substitution,
 * startup checks) with no Secret value in the ConfigMap; lines without the API refuse it.
 */
import { OGX_SECTIONS, SERVER_API, type ProviderApi } from "../../../lib/api/apis";
import type { JsonObject, LlsdSpecV1alpha2, ProviderInput } from "../../../lib/api/v1alpha2";
import { typeFields, registeredNames } from "../../../lib/config/provider-fields";
import { RELEASE_APIS } from "../../../lib/distributions/releases";
import { resolveProviderType } from "../../../lib/config/provider-types";
import { RELEASES, type Release } from "../../../lib/distributions/table";
import { sync } from "../../../lib/sync/sync";
import type { SyncResponse } from "../../../lib/wire/metacontroller";
import { aSpec } from "../../builders";
import { secretsFor } from "../../reliability/support";
import { checkServerConfigs } from "../../server-check/check";
import { describeFailure, serverCheckOf, tableFor } from "../../server-check/from-sync";
import { aParent, aRequest, deps } from "../../sync-builders";
import { fixtureFound } from "../../external-fixtures";

const SECTIONS = [...OGX_SECTIONS];

/** What a type needs from the user beyond what generation fills in (its stores): the keys its class requires. */
const USER_SETTINGS: { readonly [type: string]: JsonObject } = { "remote::s3": { bucket_name: "llsd-files" } };

/** A provider of `name` that sets every spec field the type has a home for: endpoint, apiKey, settings. */
function aProviderOf(section: ProviderApi, name: string, release: Release): ProviderInput {
  const { type } = resolveProviderType(SERVER_API[section], name, false, release);
  const fields = typeFields(release, SERVER_API[section], type);
  const settings = USER_SETTINGS[type];
  return {
    id: `my-${name}`,
    provider: name,
    ...(fields?.url ? { endpoint: `http://${name}.tools.svc:8080` } : {}),
    ...(fields?.key ? { apiKey: { name: `${name}-creds`, key: "api-key" } } : {}),
    ...(type === "remote::s3"
      ? {
          secretRefs: {
            awsAccessKeyId: { name: "s3-creds", key: "id" },
            awsSecretAccessKey: { name: "s3-creds", key: "secret" },
          },
        }
      : {}),
    ...(settings ? { settings } : {}),
  };
}

const cases = RELEASES.flatMap((release) =>
  SECTIONS.filter((s) => RELEASE_APIS[release].includes(SERVER_API[s])).flatMap((section) =>
    registeredNames(SERVER_API[section], release).map((name) => ({ release, section, name })),
  ),
);

/** A value no config key would hold by chance, so a leak into the ConfigMap is found. */
const secretValue = (name: string, key: string): string => `sEcReT-${name}-${key}`;

function syncOn(spec: LlsdSpecV1alpha2, release: Release) {
  const related = secretsFor(spec, secretValue);
  const request = aRequest(aParent(spec), [], related);
  const answer = sync(request, { ...deps(), distributions: tableFor(release) }, fixtureFound(spec));
  return { answer, check: serverCheckOf(answer, request.related, release) };
}

const configMapText = (answer: SyncResponse): string =>
  JSON.stringify(answer.children.filter((c) => c.kind === "ConfigMap"));

describe.each(RELEASES)("every OGX section provider on the %s line", (release) => {
  const runs = cases
    .filter((c) => c.release === release)
    .map((c) => {
      const spec = aSpec({ providers: { [c.section]: aProviderOf(c.section, c.name, release) } });
      return { ...c, spec, ...syncOn(spec, release) };
    });

  it("covers every section the line has", () => {
    const covered = new Set(runs.map((r) => r.section));
    expect([...covered].sort()).toEqual(SECTIONS.filter((s) => RELEASE_APIS[release].includes(SERVER_API[s])).sort());
  });

  it("syncs each one and mounts a config the server of the line accepts, with zero ignored keys", () => {
    expect(runs.filter((r) => r.answer.status.phase === "Failed").map((r) => `${r.section} ${r.name}`)).toEqual([]);
    const problems = checkServerConfigs(runs.map((r) => r.check!));
    const failures = runs.map((r, i) => describeFailure(`${r.section} ${r.name}`, problems[i] ?? [])).filter(Boolean);
    expect(failures).toEqual([]);
  });

  it("puts each spec provider in the config as written, and no Secret value in any ConfigMap", () => {
    for (const r of runs) {
      const text = r.check!.configYaml;
      expect(text).toContain(`provider_id: my-${r.name}`);
      for (const secret of secretsFor(r.spec, secretValue)) {
        for (const key of Object.keys(secret.data ?? {}))
          expect(configMapText(r.answer)).not.toContain(secretValue(secret.metadata.name, key));
      }
    }
  });
});
