/**
 * Property, against an oracle: for settings drawn from each provider class's own JSON Schema
 * (tests/fixtures/server-schemas), some then broken (a key no class has, a value of another
 * kind), the check of `settings` (lib/config/provider-settings.ts) refuses exactly when ajv
 * refuses the provider config they merge into. The drawn values are plain (no text for a
 * number, no 1 for a boolean), the path on which pydantic and the schema agree; what pydantic
 * accepts beyond the schema is tests/lib/config/lax-values.test.ts.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { SERVER_API } from "../../lib/api/apis";
import { normalize } from "../../lib/api/normalize";
import type { ProviderApi } from "../../lib/api/v1alpha2";
import { providerSettingsErrors } from "../../lib/config/provider-settings";
import { buildProviders } from "../../lib/config/providers";
import { RELEASE_APIS, schemaTagOf } from "../../lib/distributions/releases";
import { NO_ENV } from "../../lib/config/settings-env";
import { specProviderType } from "../../lib/config/spec-provider-type";
import { RELEASES } from "../../lib/distributions/table";
import { aSpec } from "../builders";
import { pydanticAjv } from "./ajv";
import { SCHEMAS_DIR } from "./substitution";

const RUNS = Number(process.env.SETTINGS_ORACLE_RUNS ?? 25);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

type Schema = { [k: string]: unknown };
type Json = unknown;
const readJson = (...parts: string[]): Schema =>
  JSON.parse(readFileSync(join(SCHEMAS_DIR, ...parts), "utf8")) as Schema;

function deref(s: Schema, root: Schema): Schema {
  return typeof s.$ref === "string" ? deref((root.$defs as Schema)[s.$ref.split("/").pop()!] as Schema, root) : s;
}

const text = (min: number, max: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(..."abcxyz_-"), minLength: min, maxLength: Math.max(min, max) });

function numberBounds(s: Schema, integer: boolean): { min: number; max: number } {
  const step = integer ? 1 : 0.5;
  const min =
    typeof s.minimum === "number"
      ? s.minimum
      : typeof s.exclusiveMinimum === "number"
        ? s.exclusiveMinimum + step
        : -50;
  const max =
    typeof s.maximum === "number"
      ? s.maximum
      : typeof s.exclusiveMaximum === "number"
        ? s.exclusiveMaximum - step
        : min + 100;
  return { min, max };
}

/** A value the schema accepts, plainly typed; deeper than 4, optional keys are left out. */
function drawn(schema: Schema, root: Schema, depth: number): fc.Arbitrary<Json> {
  const s = deref(schema, root);
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  const tag = (s.discriminator as { propertyName?: string } | undefined)?.propertyName;
  // pydantic refuses a discriminated union's object without its tag (union_tag_not_found), where
  // the schema lets a branch's default stand in: drawn ones carry it (provider-settings.test.ts has the fact).
  if (union && tag)
    return fc.oneof(...union.map((b) => drawnObject({ ...deref(b, root), required: [tag] }, root, depth + 1)));
  if (union) return fc.oneof(...union.map((b) => drawn(b, root, depth + 1)));
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as Json[]));
  if ("const" in s) return fc.constant(s.const);
  switch (s.type) {
    case "string":
      return s.format === "uri"
        ? fc.constantFrom("http://h.example.com/x", "https://proxy.example.com:3128")
        : text(Number(s.minLength ?? 0), Math.min(Number(s.maxLength ?? 8), 8));
    case "integer":
      return fc.integer(numberBounds(s, true));
    case "number": {
      const { min, max } = numberBounds(s, false);
      return fc.integer({ min: Math.ceil(min * 2), max: Math.floor(max * 2) }).map((n) => n / 2);
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return s.items
        ? fc.array(drawn(s.items as Schema, root, depth + 1), { maxLength: depth > 4 ? 0 : 2 })
        : fc.constant([]);
    case "object":
      return drawnObject(s, root, depth);
    default:
      return fc.constantFrom<Json>(1, "x", null, { a: 1 });
  }
}

function drawnObject(s: Schema, root: Schema, depth: number): fc.Arbitrary<Json> {
  const props = (s.properties ?? {}) as Schema;
  const required = Array.isArray(s.required) ? (s.required as string[]) : [];
  const keys = Object.keys(props).filter((k) => depth <= 4 || required.includes(k));
  const record = fc.record(Object.fromEntries(keys.map((k) => [k, drawn(props[k] as Schema, root, depth + 1)])), {
    requiredKeys: required,
  });
  const extra = s.additionalProperties;
  if (typeof extra !== "object" || extra === null || depth > 4) return record;
  const entries = fc.dictionary(text(1, 6), drawn(extra as Schema, root, depth + 1), { maxKeys: 2 });
  return fc.tuple(entries, record).map(([more, own]) => ({ ...more, ...own }));
}

/** Every place in a value: objects (for a new key) and every value under a key or index. */
function places(value: Json, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => places(v, [...at, i]))];
  if (typeof value === "object" && value !== null)
    return [at, ...Object.entries(value).flatMap(([k, v]) => places(v, [...at, k]))];
  return [at];
}

const CANDIDATES: Json[] = ["lots", 0.5, ["x"], { zz: 1 }, null, 7];

/** `settings` with a key no class declares added, or one value replaced by another kind's. */
function broken(settings: Json, pick: number, candidate: number, addKey: boolean): Json {
  const copy = structuredClone(settings) as { [k: string]: Json };
  const objects = places(copy).filter((p) => {
    const v = p.reduce<Json>((o, k) => (o as { [k: string]: Json })[k], copy);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  });
  const targets = addKey ? objects : places(copy).filter((p) => p.length > 0);
  const path = targets[pick % Math.max(targets.length, 1)];
  if (path === undefined) return copy;
  const parent = path.slice(0, addKey ? path.length : -1).reduce<Json>((o, k) => (o as { [k: string]: Json })[k], copy);
  if (addKey) (parent as { [k: string]: Json }).zz_bogus = 1;
  else (parent as { [k: string | number]: Json })[path[path.length - 1]!] = CANDIDATES[candidate % CANDIDATES.length]!;
  return copy;
}

const SECTIONS = (Object.keys(SERVER_API) as ProviderApi[]).filter((s) => s !== "telemetry");
const cases = RELEASES.flatMap((release) => {
  const tag = schemaTagOf(release);
  const index = readJson(tag, "providers", "index.json") as unknown as Schema[];
  return SECTIONS.filter((s) => RELEASE_APIS[release].includes(SERVER_API[s])).flatMap((section) =>
    index
      .filter((e) => e.api === SERVER_API[section] && !e.deprecation_error)
      .map((e) => ({ release, section, type: String(e.provider_type), schema: String(e.schema), tag })),
  );
});

describe(`settings drawn from each class's schema (seed ${SEED}, ${RUNS} per type)`, () => {
  it.each(cases)("$release $section $type: refused exactly when ajv refuses the merged config", (c) => {
    const root = readJson(c.tag, "providers", c.schema);
    const valid = pydanticAjv().compile(root);
    const draws = fc.sample(
      fc.tuple(drawnObject(root, root, 0), fc.nat(), fc.nat(), fc.constantFrom("keep", "key", "value")),
      { numRuns: RUNS, seed: SEED },
    );
    let refused = 0;
    for (const [settings, pick, candidate, how] of draws) {
      const written = how === "keep" ? settings : broken(settings, pick, candidate, how === "key");
      const spec = normalize(aSpec({ providers: { [c.section]: { id: "p1", provider: c.type, settings: written } } }));
      const p = spec.providers[0]!;
      const checked = providerSettingsErrors(p, specProviderType(p, c.release, []), c.release, NO_ENV);
      const built = buildProviders([p], { release: c.release, mountPath: "/data", externals: [] });
      const merged = built.entries[0]?.entry.config ?? {};
      const oracle = valid(merged);
      if (!oracle) refused++;
      // On a disagreement, both reasons are shown beside the settings.
      const said = { settings: written, refused: checked.length > 0, why: checked.map((e) => e.message) };
      const ajvSays = (valid.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""}`);
      expect(said).toEqual({ settings: written, refused: !oracle, why: oracle ? [] : expect.anything() });
      if (!oracle) expect(ajvSays.length).toBeGreaterThan(0);
    }
    // The draws say something both ways: a few broken ones are refused.
    expect(refused).toBeGreaterThan(0);
  });
});
