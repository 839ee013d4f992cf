/**
 * What the servers require at start-up beyond their config classes (docs/server-lines.md, "What
 * the server requires at start-up"), as facts of their code: the config that triggers a stop on
 * each line, and what the server prints. Every spec is synced for the line, the config it mounts
 * is read as that server reads it (tests/server-check/check.ts), and it must start; the same
 * config without what the hooks added must stop as the fact says, so the check enforces the fact.
 */
import { join } from "node:path";
import { parse, stringify } from "yaml";
import type { AuthInput } from "../../lib/api/auth-types";
import type { Release } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import { fixtureFound } from "../external-fixtures";
import { llsd } from "../cli-helpers";
import { aConfigMap, aParent, aRequest, deps } from "../sync-builders";
import { checkServerConfigs } from "./check";
import { serverCheckOf, tableFor } from "./from-sync";

const POLICY_STOP =
  "Failed to initialize vector store provider: metadata_store is required when access control policies are configured";
const MULTI_STOP =
  "Failed to initialize vector store provider: metadata_store is required when tenancy mode is 'multi'";

const rules: AuthInput["accessPolicy"] = [{ permit: { actions: ["read"] }, when: "user in owners roles" }];
const multi: AuthInput = {
  upstreamHeader: { principalHeader: "x-user", tenantHeader: "x-tenant" },
  tenancy: { mode: "multi", defaultTenantId: "team-a" },
};

/**
 * name, line, auth, what the server prints when the config lacks a vector store metadata store
 * (undefined: it starts). Sources: `openai_vector_store_mixin.py` (`initialize_openai_vector_stores`)
 * at v1.3.0; at v0.7.3 and v0.8.0 the mixin has no such check.
 */
const FACTS: readonly (readonly [string, Release, AuthInput, string | undefined])[] = [
  ["kubernetes with access rules", "1.3", { kubernetes: {}, accessPolicy: rules }, POLICY_STOP],
  ["oidc with access rules", "1.3", { oidc: { jwks: { uri: "https://idp/certs" } }, accessPolicy: rules }, POLICY_STOP],
  ["multi tenancy without access rules", "1.3", multi, MULTI_STOP],
  ["multi tenancy with access rules", "1.3", { ...multi, accessPolicy: rules }, MULTI_STOP],
  ["kubernetes without access rules", "1.3", { kubernetes: {} }, undefined],
  [
    "single tenancy",
    "1.3",
    { kubernetes: { tenantClaim: "extra.tenant" }, tenancy: { mode: "single", defaultTenantId: "team-a" } },
    undefined,
  ],
  ["route rules only", "1.3", { kubernetes: {}, routePolicy: [{ permit: { paths: "/v1/models*" } }] }, undefined],
  ["kubernetes with access rules", "0.8", { kubernetes: {}, accessPolicy: rules }, undefined],
  ["kubernetes with access rules", "0.7", { kubernetes: {}, accessPolicy: rules }, undefined],
];

function syncAuth(auth: AuthInput, release: Release) {
  // upstreamHeader is accepted only with its gateway named (docs/auth.md); the other providers do not mind.
  const spec = { distribution: { name: "starter" }, auth, networking: { allowedFrom: { namespaces: ["gateway"] } } };
  const request = aRequest(aParent(spec), [], []);
  const answer = sync(request, { ...deps(), distributions: tableFor(release) }, fixtureFound(spec));
  const check = serverCheckOf(answer, request.related, release);
  if (!check) throw new Error(`no config mounted: ${JSON.stringify(answer.status.conditions)}`);
  return { answer, check };
}

/** The config as the hooks wrote it, less `storage.stores.vector_stores`. */
function withoutStore(configYaml: string): string {
  const config = parse(configYaml) as { storage: { stores: { vector_stores?: unknown } } };
  delete config.storage.stores.vector_stores;
  return stringify(config);
}

const runs = FACTS.map(([name, release, auth, stops]) => ({ name, release, stops, ...syncAuth(auth, release) }));
const started = checkServerConfigs(runs.map((r) => r.check));
const bare = checkServerConfigs(runs.map((r) => ({ ...r.check, configYaml: withoutStore(r.check.configYaml) })));

describe.each(runs.map((r, i) => [r.name, r.release, i] as const))("%s on %s", (_name, _release, i) => {
  const run = runs[i]!;
  const store = (parse(run.check.configYaml) as { storage: { stores: { vector_stores?: object } } }).storage.stores
    .vector_stores;

  it("the server starts on the config the hooks mount", () => {
    expect(started[i]).toEqual([]);
  });

  it("without a vector store metadata store, the server does what its code says", () => {
    const stops = run.stops === undefined ? [] : [`providers.vector_io faiss: ${run.stops}`];
    expect(bare[i]!.filter((p) => p.startsWith("providers.vector_io faiss"))).toEqual(stops);
  });

  it("the store is added only where the server demands it, with a note", () => {
    const notes = (run.answer.status.notes ?? []) as string[];
    if (run.stops === undefined) {
      expect(store).toBeUndefined();
      expect(notes.join("\n")).not.toContain("storage.stores.vector_stores");
    } else {
      expect(store).toEqual({ backend: "sql_default", table_name: "vector_store_metadata" });
      expect(notes).toContainEqual(expect.stringMatching(/^storage\.stores\.vector_stores: added on sql_default/));
    }
  });
});

describe("an overrideConfig that misses the store", () => {
  const config = (extra: string) =>
    "version: 2\ndistro_name: mine\napis: [inference, vector_io]\nproviders:\n  inference:\n  - {provider_id: st, provider_type: inline::sentence-transformers}\n  vector_io:\n  - provider_id: faiss\n    provider_type: inline::faiss\n    config: {persistence: {namespace: v, backend: kv_default}}\n" +
    "storage:\n  backends:\n    kv_default: {type: kv_sqlite, db_path: /tmp/kv.db}\n    sql_default: {type: sql_sqlite, db_path: /tmp/sql.db}\n  stores:\n    metadata: {namespace: registry, backend: kv_default}\n" +
    extra +
    "server:\n  insecure: true\n  auth:\n    provider_config: {type: kubernetes}\n    access_policy:\n    - permit: {actions: [read]}\n";
  const notesOf = (text: string) => {
    const spec = { distribution: { name: "starter" }, overrideConfig: { configMapName: "cfg" } };
    const answer = sync(aRequest(aParent(spec), [], [aConfigMap("cfg", { "config.yaml": text })]), {
      ...deps(),
      distributions: tableFor("1.3"),
    });
    return ((answer.status.notes ?? []) as string[]).filter((n) => n.includes("metadata_store"));
  };

  it("is mounted as is, and the status says the server stops and what to add", () => {
    expect(notesOf(config(""))).toEqual([
      'ConfigMap cfg: server.auth.access_policy is set and vector_io provider faiss (inline::faiss) has no metadata_store: the 1.3 server stops at start-up ("metadata_store is required"); add storage.stores.vector_stores: {backend: sql_default, table_name: vector_store_metadata} (or metadata_store in the provider\'s config)',
    ]);
  });

  it("with the store, says nothing", () => {
    expect(notesOf(config("    vector_stores: {backend: sql_default, table_name: vs}\n"))).toEqual([]);
  });
});

describe.each(["auth-kubernetes.yaml", "auth-oidc.yaml"])("samples/%s, rendered for 1.3", (file) => {
  const run = llsd(["render", join(__dirname, "..", "..", "samples", file), "--release", "1.3"]);
  const configYaml = run.stdout.split(/^---$/m)[0]!;

  it("satisfies every start-up requirement the server check knows, and says what it added", () => {
    expect(run.code).toBe(0);
    const [problems, bareProblems] = checkServerConfigs([
      { configYaml, env: {}, tag: "v1.3.0" },
      { configYaml: withoutStore(configYaml), env: {}, tag: "v1.3.0" },
    ]);
    expect(problems).toEqual([]);
    expect(bareProblems).toContain(`providers.vector_io faiss: ${POLICY_STOP}`);
    expect(run.stderr).toContain("storage.stores.vector_stores: added on sql_default");
  });
});
