/**
 * The server-config checker itself: it accepts upstream's own configs (each tag's starter
 * distribution), reproduces the substitution table of env-substitution.md, and refuses the
 * configs the real server refuses — so a generated config that passes it is worth something.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { SCHEMA_TAGS, type SchemaTag } from "../../lib/distributions/releases";
import { isMapping, list, mapping, type Mapping } from "../lib/distributions/config-shape";
import { checkServerConfig, checkServerConfigs } from "./check";
import { convertLikeServer, EnvVarError, replaceEnvVars, resourceIdFields, SCHEMAS_DIR } from "./substitution";

function upstream(tag: SchemaTag, distro: string): Mapping {
  const path = join(SCHEMAS_DIR, tag, "distributions", distro, "config.yaml");
  const doc = mapping(parse(readFileSync(path, "utf8")), path);
  // Declared by no StackConfig at 0.7.3/0.8.0 (the server ignores it; the schema flags it).
  if (isMapping(doc.registered_resources)) delete doc.registered_resources.vector_dbs;
  return doc;
}

/** The map at a dotted path of the config (throws naming the key that is not a map). */
const at = (doc: Mapping, path: string): Mapping => path.split(".").reduce((m, key) => mapping(m[key], key), doc);

const vllm = (doc: Mapping): Mapping =>
  mapping(
    list(at(doc, "providers").inference, "providers.inference").find(
      (p) => mapping(p, "provider").provider_type === "remote::vllm",
    ),
    "the remote::vllm provider",
  );
const vllmConfig = (doc: Mapping): Mapping => mapping(vllm(doc).config, "the remote::vllm config");

describe.each(SCHEMA_TAGS)("the server-config checker at %s", (tag) => {
  it("accepts upstream's own starter config with an empty environment", () => {
    expect(checkServerConfig(stringify(upstream(tag, "starter")), {}, tag)).toEqual([]);
  });

  it("accepts the starter with vLLM switched on and a plausible token", () => {
    expect(
      checkServerConfig(
        stringify(upstream(tag, "starter")),
        { VLLM_URL: "http://vllm:8000/v1", VLLM_API_TOKEN: "tok-1" },
        tag,
      ),
    ).toEqual([]);
  });

  it("finds the startup failures of upstream's postgres-demo: INFERENCE_MODEL unset, then no files provider", () => {
    const text = stringify(upstream(tag, "postgres-demo"));
    expect(checkServerConfig(text, {}, tag)).toEqual([
      expect.stringMatching(/INFERENCE_MODEL is not set .*EnvVarError/),
    ]);
    expect(checkServerConfig(text, { INFERENCE_MODEL: "m" }, tag)).toEqual([
      "providers.responses builtin: required dependency 'files' is not available",
      "providers.tool_runtime file-search: required dependency 'files' is not available",
    ]);
  });

  type Mutation = [string, (doc: Mapping) => void, Record<string, string>, RegExp];
  const on = { VLLM_URL: "http://vllm:8000/v1" };
  const mutations: Mutation[] = [
    [
      "server.port 80",
      (d) => {
        at(d, "server").port = 80;
      },
      {},
      /\/server\/port: must be >= 1024/,
    ],
    [
      "an unknown server key",
      (d) => {
        at(d, "server").listen_all = true;
      },
      {},
      /unknown key "listen_all"/,
    ],
    [
      "an int api_token on vLLM",
      (d) => {
        vllmConfig(d).api_token = 12345;
      },
      on,
      /vllm\)\.config\/api_token: must be string/,
    ],
    [
      "vLLM url instead of base_url",
      (d) => {
        vllmConfig(d).url = vllmConfig(d).base_url;
        delete vllmConfig(d).base_url;
      },
      on,
      /unknown key "url"/,
    ],
    [
      "a bare ${env.X} the container does not set",
      (d) => {
        vllmConfig(d).api_token = "${env.NOT_SET_ANYWHERE}";
      },
      on,
      /NOT_SET_ANYWHERE is not set/,
    ],
    [
      "an all-digit value in a string field",
      (d) => {
        vllmConfig(d).api_token = "${env.DIGITS}";
      },
      { ...on, DIGITS: "12345678" },
      /api_token: must be string/,
    ],
    [
      "a provider type the release does not have",
      (d) => {
        vllm(d).provider_type = "remote::nonesuch";
      },
      on,
      /remote::nonesuch does not exist/,
    ],
    [
      "a model on a provider that is switched off",
      (d) => {
        at(d, "registered_resources").models = [{ model_id: "m", provider_id: "vllm", model_type: "llm" }];
      },
      {},
      /Provider vllm not found/,
    ],
    [
      "a store on an undeclared backend",
      (d) => {
        at(d, "storage.stores.metadata").backend = "kv_missing";
      },
      {},
      /backend "kv_missing" is not declared/,
    ],
    [
      "a top-level key StackConfig does not declare",
      (d) => {
        d.models = [];
      },
      {},
      /unknown key "models"/,
    ],
  ];

  it.each(mutations)("refuses %s", (_what, mutate, env, problem) => {
    const doc = upstream(tag, "starter");
    mutate(doc);
    const problems = checkServerConfig(stringify(doc), env, tag);
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
  });

  it("reads the tag's resource id fields from its env-substitution.md", () => {
    expect(resourceIdFields(tag)).toEqual(expect.arrayContaining(["model_id", "vector_store_id"]));
  });
});

describe("the substitution, as env-substitution.md tabulates it", () => {
  const ids = resourceIdFields("v0.8.0");
  it.each<[string, Record<string, string>, unknown]>([
    ["${env.UNSET:=8321}", {}, 8321],
    ["${env.UNSET:=}", {}, null],
    ["${env.SET:+123}", { SET: "x" }, 123],
    ["${env.UNSET:+on}", {}, null],
    ["prefix-${env.UNSET:+x}", {}, "prefix-"],
    ["http://${env.H}:${env.P}/v1", { H: "h", P: "8321" }, "http://h:8321/v1"],
    ["${env.A}${env.B}", { A: "8321", B: "8321" }, 83218321],
    ["${env.X:=d}", { X: "" }, "d"],
    ["${env.T}", { T: "True" }, true],
    ["${env.T}", { T: "yes" }, "yes"],
    ["${env.T}", { T: " 42 " }, 42],
    ["${env.T}", { T: "1_000" }, 1000],
    ["${env.T}", { T: "1e3" }, 1000],
    ["${env.T}", { T: "0x10" }, "0x10"],
    ["${env.lower}", {}, "${env.lower}"],
    ["${env.X:-d}", {}, "${env.X:-d}"],
    ["8321", {}, "8321"],
    ["${env.D:=~/x}", {}, "/home/server/x"],
  ])("%s with %j → %j", (text, env, expected) => {
    expect(replaceEnvVars(text, env, ids)).toEqual(expected);
  });

  it("raises for a bare reference that is unset or empty", () => {
    expect(() => replaceEnvVars({ a: "${env.NOPE}" }, {}, ids)).toThrow(EnvVarError);
    expect(() => replaceEnvVars({ a: "${env.EMPTY}" }, { EMPTY: "" }, ids)).toThrow(EnvVarError);
  });

  it("drops disabled providers unexpanded, and resources whose id resolves to nothing", () => {
    const config = {
      providers: [
        { provider_id: "${env.OFF:=__disabled__}", config: { key: "${env.NOPE}" } },
        { provider_id: "${env.OFF:+x}", config: {} },
      ],
      models: [{ model_id: "${env.OFF:+m}", provider_model_id: "${env.NOPE}" }, { model_id: "kept" }],
    };
    expect(replaceEnvVars(config, {}, ids)).toEqual({
      providers: [{ provider_id: null, config: {} }],
      models: [{ model_id: "kept" }],
    });
  });

  it("converts like Python: floats, infinities and signs", () => {
    expect(convertLikeServer("1.5")).toBe(1.5);
    expect(convertLikeServer("-7")).toBe(-7);
    expect(convertLikeServer("inf")).toBe(Infinity);
    expect(convertLikeServer("FALSE")).toBe(false);
    expect(convertLikeServer("12ab")).toBe("12ab");
  });

  it("checks many configs with one PyYAML process, each with its own problems", () => {
    const good = stringify(upstream("v0.8.0", "starter"));
    const bad = good.replace("port: 8321", "port: 80");
    const [a, b] = checkServerConfigs([
      { configYaml: good, env: {}, tag: "v0.8.0" },
      { configYaml: bad, env: {}, tag: "v0.8.0" },
    ]);
    expect(a).toEqual([]);
    expect(b).toEqual([expect.stringContaining("must be >= 1024")]);
  });
});
