/**
 * `settings` and Secret keys against each line's config classes, for every type a spec can name
 * in every section: a nested key the class declares passes, a misspelled key is refused with the
 * key meant, a value of a kind the class does not take is refused with its path. The keys, kinds
 * and nesting of each row are read here from the schema files of tests/fixtures/server-schemas
 * (the classes), not from the generated shapes the check uses.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SERVER_API } from "../../../lib/api/apis";
import type { JsonObject, ProviderApi } from "../../../lib/api/v1alpha2";
import { checkSpec } from "../../../lib/config/check";
import { RELEASE_APIS, schemaTagOf } from "../../../lib/distributions/releases";
import { RELEASES, type Release } from "../../../lib/distributions/table";
import { aSecretRef, aSpec } from "../../builders";
import { SCHEMAS_DIR } from "../../server-check/substitution";

type Schema = { [k: string]: unknown };
const readJson = (...parts: string[]): unknown => JSON.parse(readFileSync(join(SCHEMAS_DIR, ...parts), "utf8"));

/** The schema behind `$ref`s, and the branches of a union. */
function branches(s: Schema, root: Schema): Schema[] {
  if (typeof s.$ref === "string") return branches((root.$defs as Schema)[s.$ref.split("/").pop()!] as Schema, root);
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  return union ? union.flatMap((b) => branches(b, root)) : [s];
}

const isClass = (s: Schema): boolean => s.type === "object" && s.properties !== undefined;
const typesOf = (s: Schema, root: Schema): unknown[] => branches(s, root).map((b) => b.type);

/** A value the field takes (a scalar, or a list of one), from its schema alone; undefined when it takes neither. */
function validScalar(s: Schema, root: Schema): unknown {
  for (const b of branches(s, root)) {
    if (Array.isArray(b.enum)) return b.enum[0];
    if ("const" in b) return b.const;
    if (b.type === "string") return b.format === "uri" ? "http://h.example.com/x" : "x";
    if (b.type === "integer" || b.type === "number")
      return Math.max(1, Number(b.minimum ?? 0), Number(b.exclusiveMinimum ?? 0) + 1);
    if (b.type === "boolean") return true;
    if (b.type === "array" && b.items !== undefined) {
      const item = validScalar(b.items as Schema, root);
      if (item !== undefined) return [item];
    }
  }
  return undefined;
}

/** `{key: {leaf: value}}` through the first nested class with a scalar leaf, else `{key: value}`. */
function knownSetting(props: Schema, root: Schema): { path: string; settings: object } | undefined {
  for (const key of Object.keys(props).sort()) {
    const nested = branches(props[key] as Schema, root).find(isClass);
    const inner = nested ? (nested.properties as Schema) : {};
    for (const leaf of Object.keys(inner).sort()) {
      const value = validScalar(inner[leaf] as Schema, root);
      if (value !== undefined) return { path: `${key}.${leaf}`, settings: { [key]: { [leaf]: value } } };
    }
  }
  for (const key of Object.keys(props).sort()) {
    const value = validScalar(props[key] as Schema, root);
    if (value !== undefined) return { path: key, settings: { [key]: value } };
  }
  return undefined;
}

const SECTIONS = (Object.keys(SERVER_API) as ProviderApi[]).filter((s) => s !== "telemetry");

const cases = RELEASES.flatMap((release) => {
  const tag = schemaTagOf(release);
  const index = readJson(tag, "providers", "index.json") as Schema[];
  return SECTIONS.filter((section) => RELEASE_APIS[release].includes(SERVER_API[section])).flatMap((section) =>
    index
      .filter((e) => e.api === SERVER_API[section] && !e.deprecation_error)
      .map((e) => {
        const root = readJson(tag, "providers", String(e.schema)) as Schema;
        return { release, section, type: String(e.provider_type), root, props: (root.properties ?? {}) as Schema };
      }),
  );
});

function settingsErrors(release: Release, section: ProviderApi, provider: object): string[] {
  const spec = aSpec({ providers: { [section]: { id: "p1", ...provider } } });
  const prefix = `spec.providers.${section}.`;
  return checkSpec(spec, { release, generation: false })
    .errors.filter((e) => e.path.startsWith(`${prefix}settings`) || e.path.startsWith(`${prefix}secretRefs`))
    .map((e) => `${e.path.slice(prefix.length)}: ${e.message}`);
}

describe("settings checked against the line's config classes", () => {
  it("cover every section's types on every line", () => {
    for (const release of RELEASES) expect(cases.filter((c) => c.release === release).length).toBeGreaterThan(40);
  });

  it.each(cases)("$release $section $type: a key its class declares, nested where it nests, passes", (c) => {
    const known = knownSetting(c.props, c.root);
    if (known === undefined) return expect(Object.keys(c.props)).toEqual([]);
    expect(settingsErrors(c.release, c.section, { provider: c.type, settings: known.settings })).toEqual([]);
  });

  it.each(cases)("$release $section $type: a misspelled key is refused with the key meant", (c) => {
    const keys = Object.keys(c.props);
    // The longest key with one letter more: one edit from it, further from every other key.
    const meant = [...keys].sort((a, b) => b.length - a.length || a.localeCompare(b))[0] ?? "key";
    const errors = settingsErrors(c.release, c.section, { provider: c.type, settings: { [`${meant}x`]: 1 } });
    // remote::milvus is the one class declared extra="allow" (server-schemas/README.md): it takes any key.
    if (c.root.additionalProperties === true) return expect(errors).toEqual([]);
    expect(errors).toEqual([
      expect.stringMatching(
        keys.length > 0
          ? `^settings\\.${meant}x: unknown key "${meant}x" for ${c.type} on the ${c.release} line: .* did you mean "${meant}"\\?$`
          : `^settings\\.keyx: unknown key "keyx" for ${c.type} on the ${c.release} line: .* the nearest keys: \\(none\\)$`,
      ),
    ]);
  });

  it.each(
    cases.filter((c) =>
      Object.keys(c.props).some(
        (k) => !typesOf(c.props[k] as Schema, c.root).some((t) => t === "array" || t === undefined),
      ),
    ),
  )("$release $section $type: a list where the class takes none is refused with the path", (c) => {
    const key = Object.keys(c.props)
      .sort()
      .find((k) => !typesOf(c.props[k] as Schema, c.root).some((t) => t === "array" || t === undefined))!;
    const errors = settingsErrors(c.release, c.section, { provider: c.type, settings: { [key]: ["lots"] } });
    expect(errors).toEqual([
      expect.stringMatching(`^settings\\.${key}: ${c.type} on the ${c.release} line takes .* here, not \\["lots"\\]$`),
    ]);
  });
});

describe("Secret keys", () => {
  it.each<[string, ProviderApi, object, string]>([
    [
      "a Secret on a misspelled key of S3 files",
      "files",
      { provider: "s3", settings: { bucket_name: "b" }, secretRefs: { awsAccessKeyIds: aSecretRef() } },
      'secretRefs.awsAccessKeyIds: this Secret would land on config key "aws_access_key_ids", which remote::s3 on the 1.3 line does not have (the server ignores it); did you mean "aws_access_key_id"?',
    ],
    [
      "a Secret on vLLM's network settings (a nested class)",
      "inference",
      { provider: "vllm", secretRefs: { network: aSecretRef() } },
      `secretRefs.network: remote::vllm on the 1.3 line takes a structure under "network", which a Secret's value cannot be; write it in settings`,
    ],
  ])("%s is refused", (_title, section, provider, line) => {
    expect(settingsErrors("1.3", section, provider)).toEqual([line]);
  });

  it("a Secret on a key the class has passes (S3's aws_secret_access_key)", () => {
    const s3 = { provider: "s3", settings: { bucket_name: "b" }, secretRefs: { awsSecretAccessKey: aSecretRef() } };
    expect(settingsErrors("1.3", "files", s3)).toEqual([]);
  });
});

describe("a union the server picks by a tag (pgvector's vector_index)", () => {
  // Read from the real 1.3.0 class: {m: 16} and the peer operator's {hnsw: {m: 16}} stop the
  // server with "Unable to extract tag using discriminator 'type'"; {type: HNSW, m: 16} loads.
  it.each<[string, object, string[]]>([
    ["the tag and its class's keys", { type: "HNSW", m: 16 }, []],
    ["IVFFlat's keys under its tag", { type: "IVFFlat", lists: 100, probes: 10 }, []],
    [
      "no tag, though each class has a default one",
      { m: 16 },
      [
        'settings.vector_index: remote::pgvector on the 1.3 line (vector_index) needs "type" here, one of "HNSW", "IVFFlat": the server picks the class by it',
      ],
    ],
    [
      "the peer operator's form",
      { hnsw: { m: 16 } },
      [
        'settings.vector_index: remote::pgvector on the 1.3 line (vector_index) needs "type" here, one of "HNSW", "IVFFlat": the server picks the class by it',
      ],
    ],
    [
      "a key of the other class",
      { type: "HNSW", lists: 3 },
      [
        'settings.vector_index.lists: unknown key "lists" for remote::pgvector on the 1.3 line (vector_index): the server ignores it, so it has no effect; the nearest keys: "m", "type", "ef_search"',
      ],
    ],
  ])("%s", (_title, index, lines) => {
    const pgvector = { provider: "pgvector", settings: { vector_index: index } };
    expect(settingsErrors("1.3", "vectorIo", pgvector)).toEqual(lines);
  });
});

describe("a setting written with ${env.…}, as the server substitutes it", () => {
  // env-substitution.md (every line): an unset variable's `:=` default is used; the result is
  // converted (`"4096"` → 4096, `"5"` → 5), so a text field given digits gets an int and refuses it.
  const vllmWith = (maxTokens: string, env: JsonObject[] = []) => ({
    spec: { workload: { overrides: { env } } },
    provider: { provider: "vllm", settings: { max_tokens: maxTokens } },
  });
  it.each<[string, string, JsonObject[], string[]]>([
    ["an unset variable's integer default", "${env.MAXT:=4096}", [], []],
    [
      "an unset variable's word default",
      "${env.MAXT:=lots}",
      [],
      [
        'settings.max_tokens: remote::vllm on the 1.3 line takes an integer here, not "${env.MAXT:=lots}" ("lots" once substituted)',
      ],
    ],
    [
      "a variable the pod sets to a word",
      "${env.MAXT:=4096}",
      [{ name: "MAXT", value: "lots" }],
      [
        'settings.max_tokens: remote::vllm on the 1.3 line takes an integer here, not "${env.MAXT:=4096}" ("lots" once substituted)',
      ],
    ],
    [
      "a variable read from a Secret (its value is not seen here)",
      "${env.MAXT}",
      [{ name: "MAXT", valueFrom: { secretKeyRef: { name: "s", key: "k" } } }],
      [],
    ],
  ])("%s", (_title, written, env, lines) => {
    const { spec, provider } = vllmWith(written, env);
    const all = aSpec({ ...spec, providers: { inference: { id: "p1", ...provider } } });
    const errors = checkSpec(all, { release: "1.3", generation: false }).errors.filter((e) =>
      e.path.includes("settings"),
    );
    expect(errors.map((e) => `${e.path.replace("spec.providers.inference.", "")}: ${e.message}`)).toEqual(lines);
  });

  it("digits for a text field become an int, which it refuses (S3's region)", () => {
    const s3 = { id: "p1", provider: "s3", settings: { bucket_name: "b", region: "${env.REGION:=5}" } };
    const errors = checkSpec(aSpec({ providers: { files: s3 } }), { release: "1.3", generation: false }).errors;
    expect(errors.map((e) => e.path)).toEqual(["spec.providers.files.settings.region"]);
  });
});
