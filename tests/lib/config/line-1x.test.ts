/**
 * The 1.x line (1.3) against the OGX 1.3.0 server's own configuration models: bundled bases,
 * every sample, TLS and plain HTTP, and base configs written for older lines.
 */
import { FIPS_APPROVED_CIPHERS } from "../../../lib/distributions/releases";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { render } from "../../../lib/config/render";
import type { ConfigDoc } from "../../../lib/config/doc";
import { bundledBaseConfig } from "../../../lib/distributions/bundled";
import { serverErrors, substitute } from "../../server-schema";
import { doc, ok, run } from "../../config-helpers";
import { v1alpha2SampleSpecs } from "../../sample-files";

const UPSTREAM = join(__dirname, "..", "..", "fixtures", "server-schemas", "v1.3.0", "distributions");
/** What the demo's container provides beyond the generated env (postgres-demo names its model by env). */
const POD_ENV = { INFERENCE_MODEL: "llama3" };

function accepted(configYaml: string, env: Readonly<Record<string, string>> = {}): string[] {
  return serverErrors(substitute(parse(configYaml), { ...POD_ENV, ...env }));
}

/** The env the Deployment gives the container: every Secret-backed and plain variable, with a value. */
function podEnv(g: {
  secretEnv: readonly { name: string }[];
  plainEnv: readonly { name: string; value: string }[];
}): Record<string, string> {
  return Object.fromEntries([
    ...g.secretEnv.map((e): [string, string] => [e.name, `value-of-${e.name.toLowerCase()}`]),
    ...g.plainEnv.map((e): [string, string] => [e.name, e.value]),
  ]);
}

const samples = v1alpha2SampleSpecs();

describe("bundled 1.3 bases", () => {
  it.each(["starter", "postgres-demo"])("%s is accepted by the 1.3.0 server's models", (name) => {
    const text = bundledBaseConfig(name, "1.3");
    expect(text).toBeDefined();
    expect(accepted(text!)).toEqual([]);
  });

  it.each(["starter", "postgres-demo"])("%s: upstream's own config, with what the base says it changed", (name) => {
    const ours = parse(bundledBaseConfig(name, "1.3")!) as ConfigDoc;
    const upstream = parse(readFileSync(join(UPSTREAM, name, "config.yaml"), "utf8")) as ConfigDoc;
    expect(ours.apis?.filter((a) => a !== "files")).toEqual(upstream.apis?.filter((a) => a !== "files"));
    for (const [api, list] of Object.entries(upstream.providers)) expect(ours.providers[api]).toEqual(list);
    expect(ours.providers.files?.length).toBeGreaterThan(0);
    expect(ours.registered_resources).toEqual(upstream.registered_resources);
  });
});

describe("samples rendered for 1.3", () => {
  it.each(samples)(
    "%s: generated configs are accepted by the 1.3.0 server's models (or the Safety API is refused)",
    (_file, spec, configMaps) => {
      const result = render(spec, { release: "1.3", name: "demo", configMaps });
      if (!result.ok) {
        expect(result.errors.map((e) => e.message).every((m) => m.includes("has no Safety API"))).toBe(true);
        return;
      }
      if (result.source !== "generated") return;
      expect(accepted(result.generated.configYaml, podEnv(result.generated))).toEqual([]);
    },
  );
});

describe("plain HTTP and TLS on 1.3", () => {
  const spec = {
    distribution: { name: "starter" },
    providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" } },
  };

  it("without TLS, tells the server to serve plain HTTP (it refuses to otherwise)", () => {
    const server = doc(run(spec, "1.3")).server;
    expect(server).toEqual({ port: 8321, insecure: true });
  });

  it("with TLS, serves the mounted certificate with the FIPS suites (the entrypoint's --insecure skips the server's defaults) and keeps TLS enforced", () => {
    const tls = { ...spec, networking: { tls: { enabled: true, secretName: "cert" } } };
    const g = ok(run(tls, "1.3"));
    expect((parse(g.configYaml) as ConfigDoc).server).toEqual({
      port: 8321,
      tls_certfile: "/etc/llama-stack/tls/tls.crt",
      tls_keyfile: "/etc/llama-stack/tls/tls.key",
      tls_config: { ciphers: [...FIPS_APPROVED_CIPHERS] },
    });
    expect(accepted(g.configYaml)).toEqual([]);
  });

  it.each(["0.7", "0.8"] as const)("leaves server.insecure out on %s, which has no such key", (release) => {
    expect(doc(run(spec, release)).server).toEqual({ port: 8321 });
  });
});

describe("1.x dialect", () => {
  it.each([
    ["transformers", "inline::transformers", {}],
    ["passthrough", "remote::passthrough", { endpoint: "http://x:1" }],
    ["inline::transformers", "inline::transformers", {}],
  ])("refuses provider %s (removed in 1.x) and accepts it on 0.8", (provider, type, extra) => {
    const spec = { distribution: { name: "starter" }, providers: { inference: { id: "x", provider, ...extra } } };
    const result = run(spec, "1.3");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.message).toContain(`${type} does not exist on 1.3.x servers`);
    expect(run(spec, "0.8").ok).toBe(true);
  });

  it.each([
    [["skills"], "skills"],
    [["container_runtime", "containerRuntime", "containers"], undefined],
  ] as const)("disables %j by name", (disabled, removedApi) => {
    const result = ok(run({ distribution: { name: "starter" }, disabled }, "1.3"));
    const config = parse(result.configYaml) as ConfigDoc;
    if (removedApi) {
      expect(config.apis).not.toContain(removedApi);
      expect(config.providers[removedApi]).toBeUndefined();
    } else {
      expect(result.notes.every((n) => n.includes("the base config has no"))).toBe(true);
    }
    expect(accepted(result.configYaml)).toEqual([]);
  });

  it("notes disabling safety on 1.3 as a no-op", () => {
    expect(ok(run({ distribution: { name: "starter" }, disabled: ["safety"] }, "1.3")).notes).toContain(
      'spec.disabled[0]: 1.3.x servers have no "safety" API; nothing to disable',
    );
  });
});

describe("a base config written for an older line, generated for 1.3", () => {
  const spec = {
    distribution: { name: "starter" },
    providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" } },
  };

  // 0.7's starter also has APIs 1.x lacks entirely (eval, datasetio, scoring): refused (base-line.test.ts).
  it.each(["0.8"] as const)("the %s starter becomes one the 1.3.0 server accepts, each change noted", (line) => {
    const g = ok(run(spec, "1.3", bundledBaseConfig("starter", line)));
    const config = parse(g.configYaml) as ConfigDoc;
    expect([config.providers.safety, config.safety, config.registered_resources?.shields]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(g.notes).toContain(
      "baseConfig: the Safety API (safety providers, shields, safety:) was removed for this server line, which has none",
    );
    expect(g.notes).toContain(
      "baseConfig.providers.responses: responses have no persistence.agent_state on the 1.3 line; adapted",
    );
    expect(g.notes).toContain(
      "baseConfig.providers.inference: inline::transformers (transformers) was left out: the 1.3 line does not have it",
    );
    expect(g.notes).toContain(
      "baseConfig.storage.stores: prompts and connectors are SQL tables on the 1.3 line; pointed at sql_default",
    );
    expect(accepted(g.configYaml, podEnv(g))).toEqual([]);
  });

  it.each(["0.8"] as const)(
    "the %s starter adapted again (from the kept adaptation) gives the same config and the same notes",
    (line) => {
      const base = bundledBaseConfig("starter", line);
      const first = ok(run(spec, "1.3", base));
      const more = {
        inference: [spec.providers.inference, { id: "local", provider: "ollama", endpoint: "http://o:11434" }],
      };
      const other = ok(run({ ...spec, providers: more }, "1.3", base)); // edits its copy of the base
      const again = ok(run(spec, "1.3", base));
      expect(again.configYaml).toBe(first.configYaml);
      expect(again.notes).toEqual(first.notes);
      expect(other.configYaml).not.toBe(first.configYaml);
      expect(first.notes.filter((n) => n.startsWith("baseConfig")).length).toBeGreaterThan(3);
    },
  );

  it("upstream's postgres-demo, which lacks the files provider its responses provider needs, gets one", () => {
    const upstream = readFileSync(join(UPSTREAM, "postgres-demo", "config.yaml"), "utf8");
    const g = ok(
      run(
        {
          distribution: { name: "postgres-demo" },
          providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" } },
        },
        "1.3",
        upstream,
      ),
    );
    const config = parse(g.configYaml) as ConfigDoc;
    expect(config.providers.files).toEqual([
      {
        provider_id: "builtin-files",
        provider_type: "inline::localfs",
        config: {
          storage_dir: "/.llama/files",
          metadata_store: { table_name: "files_metadata", backend: "sql_default" },
        },
      },
    ]);
    expect(config.apis).toContain("files");
    expect(
      g.notes.some((n) =>
        n.startsWith(
          "baseConfig.providers.files: the base config has none and the responses provider builtin (inline::builtin) needs one",
        ),
      ),
    ).toBe(true);
    expect(accepted(g.configYaml, podEnv(g))).toEqual([]);
  });
});
