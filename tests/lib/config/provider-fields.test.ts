/**
 * The endpoint and credential keys of every provider type come from the release's own config
 * classes: the committed data is what the generator script writes from the schemas, and every
 * type a spec can name gets its endpoint and API key under keys its schema declares — read
 * here from the schema files themselves, not from the derived data — on every line.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SERVER_API } from "../../../lib/api/apis";
import type { ProviderApi } from "../../../lib/api/v1alpha2";
import { fieldsOf } from "../../../lib/config/provider-fields";
import { schemaTagOf } from "../../../lib/distributions/releases";
import { RELEASES, type Release } from "../../../lib/distributions/table";
import { providerFieldsModule, TARGET } from "../../../scripts/provider-fields";
import { providerShapesModule, SHAPES_TARGET } from "../../../scripts/provider-shapes";
import { aSecretRef, aSpec } from "../../builders";
import { doc, ok, provider, run } from "../../config-helpers";
import { checkServerConfig } from "../../server-check/check";
import { shown } from "../../shown";
import { SCHEMAS_DIR } from "../../server-check/substitution";

type Props = { [key: string]: { anyOf?: { type?: string }[]; type?: string } };

function schemaProps(release: Release, api: string, type: string): Props {
  const tag = schemaTagOf(release);
  const index = JSON.parse(readFileSync(join(SCHEMAS_DIR, tag, "providers", "index.json"), "utf8")) as {
    api: string;
    provider_type: string;
    schema: string;
  }[];
  const entry = index.find((e) => e.api === api && e.provider_type === type)!;
  return (JSON.parse(readFileSync(join(SCHEMAS_DIR, tag, "providers", entry.schema), "utf8")) as { properties: Props })
    .properties;
}

const takesText = (p: Props[string] | undefined): boolean =>
  p !== undefined && [p.type, ...(p.anyOf ?? []).map((b) => b.type)].includes("string");

/** No providers; the two backends the stores a type requires are filled in on. */
const BARE_BASE = {
  version: 2,
  providers: {},
  storage: {
    backends: {
      kv_default: { type: "kv_sqlite", db_path: "/data/kv.db" },
      sql_default: { type: "sql_sqlite", db_path: "/data/sql.db" },
    },
  },
};

const SECTIONS = (Object.keys(SERVER_API) as ProviderApi[]).filter((s) => s !== "telemetry");

/** Every (line, section, type) a spec can name that has an endpoint or a credential key. */
const cases = RELEASES.flatMap((release) =>
  SECTIONS.flatMap((section) => {
    const types = fieldsOf(release).providers[SERVER_API[section]] ?? {};
    return Object.entries(types)
      .filter(([, f]) => (f.url !== undefined || f.key !== undefined) && !f.refused)
      .map(([type, f]) => ({ release, section, type, url: f.url, key: f.key, required: f.required ?? [] }));
  }),
);

describe("provider fields derived from the release's config classes", () => {
  it(`are committed as the generator writes them (npm run gen:provider-fields)`, () => {
    expect(readFileSync(join(__dirname, "..", "..", "..", TARGET), "utf8")).toBe(providerFieldsModule());
  });

  it(`with the classes at every depth, are committed as the generator writes them (npm run gen:provider-fields)`, () => {
    expect(readFileSync(join(__dirname, "..", "..", "..", SHAPES_TARGET), "utf8")).toBe(providerShapesModule());
  });

  it("cover the types of every section on every line", () => {
    for (const release of RELEASES) expect(cases.filter((c) => c.release === release).length).toBeGreaterThan(30);
  });

  it.each(cases)(
    "$release $type: endpoint → $url, apiKey → $key, both keys its schema declares",
    ({ release, section, type, url, key, required }) => {
      const props = schemaProps(release, SERVER_API[section], type);
      // Other text keys the type requires (Vertex AI's project, OCI's wallet) come from settings, as users
      // give them; the stores it requires (metadata_store, persistence) are filled in by the hooks.
      const others = required.filter((k) => k !== url && k !== key && takesText(props[k]));
      const spec = aSpec({
        providers: {
          [section]: {
            provider: type,
            id: "p1",
            ...(url ? { endpoint: "http://db.example.com:5432/store" } : {}),
            ...(key ? { apiKey: aSecretRef() } : {}),
            ...(others.length > 0 ? { settings: Object.fromEntries(others.map((k) => [k, "x"])) } : {}),
          },
        },
      });
      const config = provider(doc(run(spec, release, BARE_BASE)), SERVER_API[section], "p1")?.config ?? {};
      if (key) {
        expect(takesText(props[key])).toBe(true);
        expect(config[key]).toBe("${env.LLSD_P1_API_KEY}");
      }
      if (url === "split-postgres")
        expect(config).toEqual(expect.objectContaining({ host: "db.example.com", port: 5432, db: "store" }));
      else if (url) {
        expect(takesText(props[url])).toBe(true);
        expect(shown(config[url])).toMatch(/^http:\/\/db\.example\.com:5432\/store/);
      }
    },
  );

  it.each(RELEASES)("on %s, put the credentials the issue found misplaced where the server reads them", (release) => {
    const expected: [string, string][] = [
      ["remote::databricks", "api_token"],
      ["remote::runpod", "api_token"],
      ["remote::vllm", "api_token"],
      ["remote::openai", "api_key"],
    ];
    for (const [type, key] of expected) {
      const config = provider(
        doc(
          run(aSpec({ providers: { inference: { provider: type, id: "p1", apiKey: aSecretRef() } } }), release, {
            version: 2,
            providers: {},
          }),
        ),
        "inference",
        "p1",
      )?.config;
      expect({ type, config }).toEqual({ type, config: expect.objectContaining({ [key]: "${env.LLSD_P1_API_KEY}" }) });
      expect(config).not.toHaveProperty(key === "api_key" ? "api_token" : "api_key");
    }
  });

  it.each(RELEASES)(
    "on %s, take a secretRefs credential written in another type's spelling to this type's key",
    (release) => {
      const spec = aSpec({
        providers: { inference: { provider: "databricks", id: "db", secretRefs: { api_key: aSecretRef() } } },
      });
      expect(provider(doc(run(spec, release, { version: 2, providers: {} })), "inference", "db")?.config).toEqual({
        api_token: "${env.LLSD_DB_API_KEY}",
      });
    },
  );

  it.each(RELEASES)(
    "on %s, refuse a provider without a key its type requires, naming it and where to set it",
    (release) => {
      const result = run(aSpec({ providers: { inference: { provider: "vertexai", id: "vx" } } }), release, {
        version: 2,
        providers: {},
      });
      expect(!result.ok && result.errors).toEqual([
        {
          path: "spec.providers.inference",
          message: expect.stringMatching(/^remote::vertexai requires project in its config.*set settings\.project/),
        },
      ]);
      expect(
        run(
          aSpec({ providers: { inference: { provider: "vertexai", id: "vx", settings: { project: "p" } } } }),
          release,
          { version: 2, providers: {} },
        ).ok,
      ).toBe(true);
    },
  );

  it.each(RELEASES)(
    "on %s, give inline vector stores the file location their config requires, and the server starts",
    (release) => {
      // 1.x's inline chromadb never starts (it reads a metadata_store its class lacks), so it is refused there.
      const chroma = release.startsWith("0.") ? [{ provider: "chromadb", id: "chroma" }] : [];
      const spec = aSpec({
        providers: {
          vectorIo: [...chroma, { provider: "qdrant", id: "qd" }, { provider: "sqlite-vec", id: "sv" }],
        },
      });
      const config = doc(run(spec, release));
      if (chroma.length > 0)
        expect(provider(config, "vector_io", "chroma")).toEqual(
          expect.objectContaining({
            provider_type: "inline::chromadb",
            config: expect.objectContaining({ db_path: "/.llama/chroma.db" }),
          }),
        );
      expect(provider(config, "vector_io", "qd")).toEqual(
        expect.objectContaining({
          provider_type: "inline::qdrant",
          config: expect.objectContaining({ path: "/.llama/qd.db" }),
        }),
      );
      expect(provider(config, "vector_io", "sv")?.config).toEqual(
        expect.objectContaining({ db_path: "/.llama/sv.db" }),
      );
      expect(checkServerConfig(ok(run(spec, release)).configYaml, {}, schemaTagOf(release))).toEqual([]);
    },
  );
});
