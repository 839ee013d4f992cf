/**
 * Every sample: parses, passes the schema and validate(), and renders to its golden
 * config.yaml + env (tests/golden/render/<sample>.yaml). The generated config must itself be a
 * well-formed Llama Stack config: version 2, every store on an existing backend, every
 * registered resource on an existing provider, no tool_groups, no Secret values.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { validate } from "../lib/api/validate";
import { render } from "../lib/config/render";
import { effectiveId, type ConfigDoc } from "../lib/config/doc";
import { expectGolden } from "./golden";
import { llsd } from "./cli-helpers";
import { pyyamlLoadAll } from "./pyyaml";
import { sampleConfigMaps, sampleCr, SAMPLES_DIR, type SampleCr } from "./sample-files";

const samples = readdirSync(SAMPLES_DIR)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

function crOf(file: string): SampleCr {
  const cr = sampleCr(file);
  if (!cr) throw new Error(`${file} has no LlamaStackDistribution`);
  return cr;
}

const v1alpha2 = samples.filter((f) => crOf(f).apiVersion === "llamastack.io/v1alpha2");

describe("samples", () => {
  it("cover every scenario the docs show", () => {
    expect(samples).toEqual(
      expect.arrayContaining([
        "v1alpha1-migration.yaml",
        "v1alpha2-migration.yaml",
        "complete.yaml",
        "minimal.yaml",
        "vllm-api-key.yaml",
        "multi-provider.yaml",
        "postgres-redis.yaml",
        "networking-tls.yaml",
        "network-policy.yaml",
        "override-config.yaml",
        "base-config.yaml",
        "autoscaling-full.yaml",
      ]),
    );
  });

  it.each(samples)("%s starts with a comment that explains it", (file) => {
    expect(readFileSync(join(SAMPLES_DIR, file), "utf8")).toMatch(/^#/);
  });

  it.each(v1alpha2)("%s passes validate()", (file) => {
    expect(validate(crOf(file).spec).errors).toEqual([]);
  });

  it.each(v1alpha2)("%s renders to its golden output", (file) => {
    const run = llsd(["render", join(SAMPLES_DIR, file)]);
    expect(run.code).toBe(0);
    expectGolden(`render/${file}`, `${run.stdout}# stderr:\n${run.stderr.replace(/^/gm, "# ")}\n`);
  });

  it.each(v1alpha2)("%s, when generated, is a self-consistent server config", (file) => {
    const result = render(crOf(file).spec, { name: crOf(file).metadata.name, configMaps: sampleConfigMaps(file) });
    if (!result.ok || result.source !== "generated") return expect(result.ok).toBe(true);
    const config = parse(result.generated.configYaml) as ConfigDoc;
    expect(config.version).toBe(2);
    const storage = config.storage as {
      backends: Record<string, unknown>;
      stores: Record<string, { backend: string }>;
    };
    for (const store of Object.values(storage.stores)) expect(Object.keys(storage.backends)).toContain(store.backend);
    const ids = new Set(
      Object.values(config.providers)
        .flat()
        .map((p) => effectiveId(p.provider_id)),
    );
    for (const kind of ["models", "shields"]) {
      for (const r of config.registered_resources?.[kind] ?? []) {
        if (r.provider_id !== "all") expect(ids).toContain(effectiveId(r.provider_id));
      }
    }
    expect(result.generated.configYaml).not.toMatch(/tool_groups|REPLACE-ME|secretKeyRef/);
  });

  it("every generated config reads the same with PyYAML safe_load, as the server reads it", () => {
    const configs = v1alpha2.flatMap((file) => {
      const result = render(crOf(file).spec, { name: crOf(file).metadata.name, configMaps: sampleConfigMaps(file) });
      return result.ok && result.source === "generated" ? [result.generated.configYaml] : [];
    });
    expect(configs.length).toBeGreaterThan(5);
    expect(pyyamlLoadAll(configs)).toEqual(configs.map((c): unknown => parse(c)));
  });
});
