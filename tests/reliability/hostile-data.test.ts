/**
 * Data that once made /sync answer 500 (Metacontroller retries forever, the CR never says why):
 * a Postgres password with a bare `%`, a base config of an unexpected shape, a YAML tag whose
 * value is not JSON data. Each is now a Failed status that names the field, with the running
 * children kept — checked through HTTP with the real inputs, then as a property over hostile
 * values (seed printed in the title; FUZZ_SEED=<n> replays it).
 */
import fc from "fast-check";
import { parseYaml } from "../../lib/config/yaml";
import { parsePostgresDsn } from "../../lib/sync/postgres-dsn";
import { sync } from "../../lib/sync/sync";
import type { BaseOutcome } from "../../lib/sync/base-source";
import type { SyncResponse } from "../../lib/wire/metacontroller";
import { aConfigMap, aParent, aRequest, aSecret, deps, observedFrom } from "../sync-builders";
import { startHarness, type Harness } from "./support";

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
type Cond = { type: string; status: string; reason: string; message: string };
const conditions = (r: SyncResponse): Cond[] => r.status.conditions as Cond[];
/** The condition a failure is reported in: SecretsResolved when a Secret is at fault, else ConfigGenerated. */
const failedWith = (r: SyncResponse): Cond | undefined =>
  conditions(r).find((c) => c.type === "SecretsResolved" && c.status === "False") ??
  conditions(r).find((c) => c.type === "ConfigGenerated" && c.status === "False");

const postgresSpec = {
  distribution: { name: "starter" },
  storage: { sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } },
};
const generatedSpec = {
  distribution: { name: "starter" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" } },
  resources: { models: ["m"] },
  disabled: ["safety"],
};
const overrideSpec = { distribution: { name: "starter" }, overrideConfig: { configMapName: "cm" } };
const labelled = (text: string): BaseOutcome => ({
  base: { text, source: "oci-label", digest: "sha256:0" },
  notes: [],
});

/** The answers of a running parent's sync once its data turned hostile: children kept, a reason that names the field. */
function rerun(
  spec: object,
  related: Parameters<typeof aRequest>[2],
  found?: BaseOutcome,
): { first: SyncResponse; again: SyncResponse } {
  const first = sync(aRequest(aParent(generatedSpec)), deps());
  const again = sync(aRequest(aParent(spec, { generation: 2 }), observedFrom(first.children), related), deps(), found);
  return { first, again };
}

describe("the inputs that made /sync answer 500, through HTTP", () => {
  let harness: Harness;
  let found: BaseOutcome | undefined;
  beforeAll(async () => {
    harness = await startHarness({
      logLevel: "error",
      handlers: {
        sync: (r) => Promise.resolve(sync(r, deps(), found)),
        customize: () => Promise.resolve({ relatedResources: [] }),
      },
    });
  });
  afterAll(async () => {
    await harness.close();
  });

  it.each([
    [
      "a DSN password with a bare %",
      postgresSpec,
      [aSecret("pg", { dsn: "postgresql://llama:50%off@db:5432/llama" })],
      undefined,
      {
        type: "SecretsResolved",
        reason: "InvalidConnectionString",
        message: expect.stringContaining("has a % in its password that is not a %-escape; write a literal % as %25"),
      },
    ],
    [
      "a DSN user with a bare %",
      postgresSpec,
      [aSecret("pg", { dsn: "postgresql://ll%ama:pw@db:5432/llama" })],
      undefined,
      { type: "SecretsResolved", reason: "InvalidConnectionString", message: expect.stringContaining("in its user") },
    ],
    [
      "!!binary in a base config",
      generatedSpec,
      [],
      labelled("version: 2\nproviders: {}\nimage: !!binary aGVsbG8=\n"),
      {
        type: "ConfigGenerated",
        reason: "ConfigGenerationFailed",
        message: expect.stringContaining(
          "baseConfig: the base config.yaml is invalid YAML at line 3: the tag !!binary",
        ),
      },
    ],
    [
      "!!timestamp in a base config",
      generatedSpec,
      [],
      labelled("version: 2\nproviders:\n  inference: []\nbuilt: !!timestamp 2026-01-01\n"),
      { type: "ConfigGenerated", message: expect.stringContaining("the tag !!timestamp") },
    ],
    [
      "a local tag in an override config",
      overrideSpec,
      [aConfigMap("cm", { "config.yaml": "version: 2\nproviders: !custom {}\n" })],
      undefined,
      { type: "ConfigGenerated", reason: "OverrideConfigInvalid", message: expect.stringContaining("the tag !custom") },
    ],
    [
      "!!set in an override config",
      overrideSpec,
      [aConfigMap("cm", { "config.yaml": "version: 2\napis: !!set {inference}\n" })],
      undefined,
      { type: "ConfigGenerated", reason: "OverrideConfigInvalid", message: expect.stringContaining("the tag !!set") },
    ],
    [
      "providers of an API as a number",
      generatedSpec,
      [],
      labelled("version: 2\nproviders:\n  inference: 3\n"),
      {
        type: "ConfigGenerated",
        message: expect.stringContaining("baseConfig.providers.inference: must be a list of providers"),
      },
    ],
    [
      "a provider entry that is null",
      generatedSpec,
      [],
      labelled("version: 2\nproviders:\n  inference: [null]\n"),
      { type: "ConfigGenerated", message: expect.stringContaining("baseConfig.providers.inference[0]: must be a map") },
    ],
    [
      "a provider_id that is a list",
      generatedSpec,
      [],
      labelled("version: 2\nproviders:\n  inference: [{provider_id: [a], provider_type: remote::vllm}]\n"),
      {
        type: "ConfigGenerated",
        message: expect.stringContaining("baseConfig.providers.inference[0].provider_id: must be a string"),
      },
    ],
    [
      "apis as a string",
      generatedSpec,
      [],
      labelled("version: 2\napis: inference\nproviders: {}\n"),
      { type: "ConfigGenerated", message: expect.stringContaining("baseConfig.apis: must be a list of API names") },
    ],
    [
      "registered_resources.models as a number",
      generatedSpec,
      [],
      labelled("version: 2\nproviders: {}\nregistered_resources: {models: 3}\n"),
      {
        type: "ConfigGenerated",
        message: expect.stringContaining("baseConfig.registered_resources.models: must be a list of maps"),
      },
    ],
    [
      "safety as a list",
      generatedSpec,
      [],
      labelled("version: 2\nproviders: {}\nsafety: [x]\n"),
      { type: "ConfigGenerated", message: expect.stringContaining("baseConfig.safety: must be a map") },
    ],
  ] as const)(
    "%s: 200, Failed naming the field, the running children kept",
    async (...[_what, spec, related, base, condition]) => {
      const { first } = rerun(spec, [...related]);
      found = base;
      const answer = await harness.post(
        "/sync",
        aRequest(aParent(spec, { generation: 2 }), observedFrom(first.children), [...related]),
      );
      expect(answer.status).toBe(200);
      const r = JSON.parse(answer.text) as SyncResponse;
      expect(r.status.phase).toBe("Failed");
      expect(failedWith(r)).toMatchObject({ status: "False", ...condition });
      expect(r.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(
        first.children.map((c) => `${c.kind}/${c.metadata.name}`).sort(),
      );
      expect(harness.logText()).toBe(""); // no error line: nothing reached the internal-error boundary
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Properties: hostile values never make sync() throw; a failure names a field.

const awkwardText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "%",
    "%%",
    "%zz",
    "%e0%80",
    "%00",
    "50%off",
    "@:/?#",
    "\u0000",
    "\ud800",
    "${env.X}",
    "*alias",
    "&anchor x",
    "!!binary",
    "~",
    "- x",
  ),
  fc.integer({ min: 300, max: 5000 }).map((n) => "p%".repeat(n)),
);
const aDsn = fc
  .tuple(
    fc.constantFrom("postgresql", "postgres", "mysql", ""),
    awkwardText,
    awkwardText,
    fc.constantFrom("db", "", "[::1]", "h%"),
    fc.constantFrom("5432", "", "x", "99999"),
    awkwardText,
  )
  .map(
    ([scheme, user, password, host, port, db]) =>
      `${scheme}://${user}:${password}@${host}${port ? `:${port}` : ""}/${db}`,
  );

const TAGS = [
  "!!binary aGk=",
  "!!set {a}",
  "!!timestamp 2001-12-14",
  "!!omap [a: 1]",
  "!!pairs [a: 1]",
  "!local x",
  "!!python/object:os.system x",
  "!!str s",
  "!!int 3",
  "!!null ''",
  ".inf",
  ".nan",
  "null",
  "[]",
  "{}",
  "3",
  "x",
  "[null]",
  "[3]",
  "[[a]]",
  "[{provider_id: 1, provider_type: x}]",
  "[{provider_id: a, provider_type: remote::vllm, config: 3}]",
  "[{provider_id: a, provider_type: remote::vllm, config: {}}]",
];
const aValue = fc.constantFrom(...TAGS);
/** Base config texts with hostile values where the generator reads. */
const aBaseText = fc
  .record({
    version: fc.constantFrom("2", "3", "x", "!!binary Mg==", "null"),
    apis: fc.option(aValue, { nil: undefined }),
    inference: fc.option(aValue, { nil: undefined }),
    safety: fc.option(aValue, { nil: undefined }),
    rr: fc.option(aValue, { nil: undefined }),
    storage: fc.option(aValue, { nil: undefined }),
    server: fc.option(aValue, { nil: undefined }),
    vectorStores: fc.option(aValue, { nil: undefined }),
  })
  .map(
    (r) =>
      [
        `version: ${r.version}`,
        ...(r.apis !== undefined ? [`apis: ${r.apis}`] : []),
        r.inference !== undefined
          ? `providers:\n  inference: ${r.inference}\n  safety: [{provider_id: llama-guard, provider_type: inline::llama-guard}]`
          : "providers: {}",
        ...(r.safety !== undefined ? [`safety: ${r.safety}`] : []),
        ...(r.rr !== undefined ? [`registered_resources:\n  models: ${r.rr}\n  shields: ${r.rr}`] : []),
        ...(r.storage !== undefined ? [`storage: ${r.storage}`] : []),
        ...(r.server !== undefined ? [`server: ${r.server}`] : []),
        ...(r.vectorStores !== undefined ? [`vector_stores: ${r.vectorStores}`] : []),
      ].join("\n") + "\n",
  );

const RUNS = { numRuns: 300, seed: SEED };

describe(`hostile data as properties (seed ${SEED})`, () => {
  it("parsePostgresDsn never throws and never echoes a password it rejects", () => {
    fc.assert(
      fc.property(aDsn, (dsn) => {
        const parsed = parsePostgresDsn(dsn);
        if (!parsed.ok) expect(parsed.reason).not.toContain(dsn);
      }),
      RUNS,
    );
  });

  it("a sync with a hostile DSN Secret never throws: it generates, or fails naming the connection string", () => {
    fc.assert(
      fc.property(aDsn, (dsn) => {
        const { again } = rerun(postgresSpec, [aSecret("pg", { dsn })]);
        // A part the server would misread (all digits, "~", "true") is refused by its own reason.
        if (again.status.phase === "Failed")
          expect(["InvalidConnectionString", "SecretValueMisread"]).toContain(failedWith(again)?.reason);
        expect(again.children.length).toBeGreaterThan(0);
      }),
      RUNS,
    );
  });

  it("a sync on a hostile base config never throws: it generates, or fails naming a baseConfig field", () => {
    fc.assert(
      fc.property(aBaseText, fc.boolean(), (text, withStorage) => {
        const spec = withStorage
          ? { ...generatedSpec, storage: { kv: { type: "sqlite" } }, resources: { models: ["m"], shields: ["g"] } }
          : generatedSpec;
        const { first, again } = rerun(spec, [], labelled(text));
        if (again.status.phase === "Failed") {
          expect(failedWith(again)).toMatchObject({
            type: "ConfigGenerated",
            message: expect.stringMatching(/^(baseConfig|spec\.)/),
          });
          expect(again.children.length).toBe(first.children.length);
        }
      }),
      RUNS,
    );
  });

  it("a hostile override config is accepted or refused with OverrideConfigInvalid, never throws", () => {
    fc.assert(
      fc.property(aBaseText, (text) => {
        const { again } = rerun(overrideSpec, [aConfigMap("cm", { "config.yaml": text })]);
        if (again.status.phase === "Failed")
          expect(failedWith(again)?.reason).toMatch(/^(OverrideConfigInvalid|UnsupportedConfigVersion)$/);
      }),
      RUNS,
    );
  });

  it("parseYaml only ever returns JSON data", () => {
    fc.assert(
      fc.property(aBaseText, (text) => {
        const parsed = parseYaml(text);
        if (parsed.ok) expect(containsOnlyJson(parsed.value)).toBe(true);
      }),
      RUNS,
    );
  });
});

function containsOnlyJson(value: unknown): boolean {
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(containsOnlyJson);
  return (
    typeof value === "object" &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.values(value).every(containsOnlyJson)
  );
}
