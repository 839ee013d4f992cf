/** Same input → same bytes; reordered maps → same bytes; base keys the spec does not touch survive. */
import { parse, stringify } from "yaml";
import { aSecretRef, aSpec, aVllm } from "../../builders";
import { base, baseDoc, doc, ok, run } from "../../config-helpers";
import type { ConfigDoc } from "../../../lib/config/doc";

/** Reverse the key order of every map, recursively; lists keep their order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .reverse()
      .map((k) => [k, reverseKeys((value as Record<string, unknown>)[k])]),
  );
}

const rich = aSpec({
  providers: {
    inference: [
      aVllm({
        id: "a",
        apiKey: aSecretRef(),
        settings: { max_tokens: 1, network: { timeout: 3, headers: { x: "1", a: "2" } } },
      }),
      aVllm({ id: "b" }),
    ],
    vectorIo: {
      provider: "pgvector",
      secretRefs: { password: aSecretRef("pg", "pw"), host: aSecretRef("pg", "host") },
    },
  },
  resources: {
    models: ["m1", { name: "m2", provider: "b", contextLength: 8192 }],
    shields: ["s"],
    tools: ["websearch"],
  },
  storage: {
    kv: { type: "redis", endpoint: "redis:6379" },
    sql: { type: "postgres", connectionString: aSecretRef("pg", "dsn") },
  },
  disabled: ["eval"],
});

describe("determinism", () => {
  it("given the same input twice, produces the same bytes and hash", () => {
    const a = ok(run(rich));
    const b = ok(run(structuredClone(rich)));
    expect(b.configYaml).toBe(a.configYaml);
    expect(b.hash).toBe(a.hash);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("given the spec's maps in another order, produces the same bytes", () => {
    const a = ok(run(rich));
    const b = ok(run(reverseKeys(rich) as typeof rich));
    expect(b.configYaml).toBe(a.configYaml);
    expect(b.secretEnv).toEqual(a.secretEnv);
  });

  it("given the base config's maps in another order, produces the same bytes", () => {
    const reordered = stringify(reverseKeys(parse(base())));
    expect(ok(run(rich, "0.7", reordered)).configYaml).toBe(ok(run(rich)).configYaml);
  });

  it("given a different spec, produces a different hash", () => {
    const other = aSpec({ ...rich, resources: { models: ["m1"] } });
    expect(ok(run(other)).hash).not.toBe(ok(run(rich)).hash);
  });

  it("does not change the spec or the base it was given", () => {
    const spec = structuredClone(rich);
    const baseObject = baseDoc();
    const before = structuredClone(baseObject);
    run(spec, "0.7", baseObject);
    expect(spec).toEqual(rich);
    expect(baseObject).toEqual(before);
  });
});

describe("base keys the spec does not touch", () => {
  it("survive generation unchanged", () => {
    const config = doc(run(aSpec({ providers: { inference: aVllm({ id: "extra" }) }, resources: { models: ["m"] } })));
    const original = baseDoc();
    const untouched: (keyof ConfigDoc)[] = ["distro_name", "apis", "storage", "vector_stores", "safety", "connectors"];
    for (const key of untouched) expect(config[key]).toEqual(original[key]);
    for (const api of Object.keys(original.providers).filter((a) => a !== "inference")) {
      expect(config.providers[api]).toEqual(original.providers[api]);
    }
    expect(config.providers.inference?.slice(0, -1)).toEqual(original.providers.inference);
    expect(config.registered_resources?.shields).toEqual(original.registered_resources?.shields);
  });
});
