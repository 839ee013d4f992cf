/**
 * The 1.x vector_io start-up rule from the spec's side (lib/config/vector-store-startup.ts): what
 * no store can satisfy is refused with the field path and the fix, the migration of existing
 * vector stores under multi tenancy is said, and a store on a backend of the other kind is refused.
 * The server facts behind them: tests/server-check/startup-requirements.test.ts.
 */
import type { TenancyInput } from "../../../lib/api/auth-types";
import type { JsonObject, LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import type { Release } from "../../../lib/distributions/table";
import { aSpec } from "../../builders";
import { base, doc, run } from "../../config-helpers";

/** remote::oci with the keys its 1.3 config class requires (it has no metadata_store key). */
const oci = {
  id: "oracle",
  provider: "remote::oci",
  apiKey: { name: "oci", key: "password" },
  settings: {
    conn_str: "db",
    user: "u",
    ewallet_password: "w",
    ewallet_pem_loc: "/pem",
    tnsnames_loc: "/tns",
    persistence: { namespace: "oci", backend: "kv_default" },
  },
};
const header = { principalHeader: "x-user", tenantHeader: "x-tenant" };
const rules = [{ permit: { actions: ["read" as const] }, when: "user in owners roles" }];

const spec = (extra: Partial<LlsdSpecV1alpha2>): LlsdSpecV1alpha2 => aSpec({ ...extra });
const errorsOf = (s: LlsdSpecV1alpha2, release: Release = "1.3") => {
  const r = run(s, release, base("starter", release));
  return r.ok ? [] : r.errors;
};

describe("what no vector store metadata store can satisfy", () => {
  it("multi tenancy with remote::oci (its config class has no metadata_store): refused at the provider", () => {
    const s = spec({ providers: { vectorIo: oci }, auth: { upstreamHeader: header, tenancy: { mode: "multi" } } });
    expect(errorsOf(s)).toContainEqual({
      path: "spec.providers.vectorIo",
      message: expect.stringMatching(
        /^vector_io provider oracle \(remote::oci\) keeps no vector store metadata in SQL, which the 1\.3 server requires with multi tenancy.*or tenancy mode single$/,
      ),
    });
  });

  it("access rules with remote::oci: accepted (its factory takes no policy); the others get the store", () => {
    const s = spec({ providers: { vectorIo: oci }, auth: { kubernetes: {}, accessPolicy: rules } });
    const stores = doc(run(s, "1.3")).storage?.stores as { vector_stores?: object };
    expect(stores.vector_stores).toEqual({ backend: "sql_default", table_name: "vector_store_metadata" });
  });

  it.each<[Release, string, boolean]>([
    ["1.3", "refused", true],
    ["0.8", "accepted", false],
    ["0.7", "accepted", false],
  ])("chromadb without an endpoint (inline::chromadb) on %s: %s", (release, _verdict, refused) => {
    const found = errorsOf(spec({ providers: { vectorIo: { provider: "chromadb" } } }), release).filter((e) =>
      e.message.startsWith("inline::chromadb does not start"),
    );
    expect(found.map((e) => e.path)).toEqual(refused ? ["spec.providers.vectorIo"] : []);
  });

  it("a base without a sql_* backend: refused at spec.storage.sql", () => {
    const text = base("starter", "1.3").replace(/ {4}sql_default:\n {6}type: sql_sqlite\n {6}db_path: .*\n/, "");
    expect(text).not.toContain("type: sql_sqlite");
    const r = run(spec({ auth: { kubernetes: {}, accessPolicy: rules } }), "1.3", text);
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toContain("spec.storage.sql");
  });
});

describe("multi tenancy and the vector stores a server already keeps", () => {
  it.each<[string, TenancyInput, boolean]>([
    ["without defaultTenantId: the status says the move needs one", { mode: "multi" }, true],
    ["with defaultTenantId: nothing to say", { mode: "multi", defaultTenantId: "team-a" }, false],
  ])("%s", (_name, tenancy, said) => {
    const r = run(spec({ auth: { upstreamHeader: header, tenancy } }), "1.3");
    const notes = r.notes.filter((n) => n.startsWith("spec.auth.tenancy.defaultTenantId"));
    expect(notes).toHaveLength(said ? 1 : 0);
  });
});

describe("a provider's store on a backend of the other kind", () => {
  it.each<[string, JsonObject]>([
    ["a KV store on sql_default", { kvstore: { namespace: "m", backend: "sql_default" } }],
    ["a SQL store on kv_default", { kvstore: { table_name: "m", backend: "kv_default" } }],
  ])("%s: refused (the server registers kv_* and sql_* backends apart)", (_name, settings) => {
    const errors = errorsOf(spec({ providers: { messages: { id: "mine", provider: "builtin", settings } } }));
    expect(errors).toContainEqual({
      path: "spec.providers.messages.settings",
      message: expect.stringMatching(/^kvstore is a (KV|SQL) store .* the server stops at startup/),
    });
  });

  it("a KV store on kv_default: accepted", () => {
    const settings = { kvstore: { namespace: "m", backend: "kv_default" } };
    expect(errorsOf(spec({ providers: { messages: { id: "mine", provider: "builtin", settings } } }))).toEqual([]);
  });
});
