/**
 * Where the two operators' defaults or rules differ, the conversion writes the value that keeps
 * the behaviour and warns, naming the field (issue 39's list). Each row: a spec fragment, the
 * value the converted spec must hold at a path, and the warning path it must give.
 */
import { fromOgxServer, toOgxServer } from "../../lib/ogx/convert";
import type { JsonMap } from "../../lib/json";
import { anLlsd, anOgxServer, ok } from "./helpers";

type Converted = { spec: JsonMap; warnings: string[] };

function converted(result: ReturnType<typeof toOgxServer>): Converted {
  const object = ok(result);
  return { spec: object.spec as JsonMap, warnings: result.ok ? result.warnings.map((w) => w.path) : [] };
}

const at = (value: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);

const vllm = { provider: "vllm", endpoint: "http://vllm:8000" };

describe("LLSD → OGXServer writes out what the peer's defaults would change", () => {
  it.each([
    [
      "the mount path",
      { workload: { storage: {} } },
      "workload.storage.mountPath",
      "/.llama",
      "spec.workload.storage.mountPath",
    ],
    [
      "the vLLM URL with /v1",
      { providers: { inference: [vllm] } },
      "providers.inference.remote.vllm.0.endpoint",
      "http://vllm:8000/v1",
      "spec.providers.inference[0].endpoint",
    ],
    [
      "the provider id",
      { providers: { inference: [vllm] } },
      "providers.inference.remote.vllm.0.id",
      "vllm",
      "spec.providers.inference",
    ],
    [
      "the model's provider",
      {
        providers: {
          inference: [
            { ...vllm, id: "b" },
            { provider: "openai", id: "a", apiKey: { name: "o", key: "k" } },
          ],
        },
        resources: { models: ["m"] },
      },
      "resources.models.0.provider",
      "b",
      "spec.resources.models[0].provider",
    ],
    ["monitoring off", {}, "monitoring", { enabled: false }, "spec.monitoring"],
    [
      "the PDB {}",
      { workload: { podDisruptionBudget: {} } },
      "workload.podDisruptionBudget",
      { maxUnavailable: 1 },
      "spec.workload.podDisruptionBudget",
    ],
    [
      "the CA bundle's default key",
      { networking: { tls: { caBundle: { configMapName: "ca" } } } },
      "tls.trust.caCertificates",
      [{ name: "ca", key: "ca-bundle.crt" }],
      "spec.monitoring",
    ],
    [
      "the Redis password",
      { storage: { kv: { type: "redis", endpoint: "r:6379", password: { name: "r", key: "p" } } } },
      "storage.kv.password",
      { name: "r", key: "p" },
      "spec.storage.kv.password",
    ],
    [
      "a Postgres key-value store (the peer has none: it rides the annotation)",
      { storage: { kv: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } } },
      "storage.kv",
      undefined,
      "spec.storage.kv",
    ],
    [
      "the Postgres DSN",
      { storage: { sql: { type: "postgres", connectionString: { secretKeyRef: { name: "pg", key: "dsn" } } } } },
      "storage.sql.connectionString",
      { name: "pg", key: "dsn" },
      "spec.storage.sql.connectionString",
    ],
    [
      "NetworkPolicy rules",
      { networking: { policy: { ingress: [{}] } } },
      "network.policy.ingress",
      [{}],
      "spec.networking.policy.ingress",
    ],
    [
      "TLS serving",
      { networking: { tls: { enabled: true, secretName: "tls" } } },
      "network.tls.secretName",
      "tls",
      "spec.networking.tls.enabled",
    ],
    [
      "a hostname",
      { networking: { expose: { hostname: "ai.example.com" } } },
      "network.externalAccess",
      { enabled: true, hostname: "ai.example.com" },
      "spec.networking.expose.hostname",
    ],
    ["a Route", { networking: { expose: true } }, "network.externalAccess.enabled", true, "spec.networking.expose"],
    [
      "TLS at the edge",
      { networking: { expose: { hostname: "ai.example.com", tls: { issuer: { name: "ca" } } } } },
      "network.externalAccess",
      { enabled: true, hostname: "ai.example.com" },
      "spec.networking.expose.tls",
    ],
    [
      "a Gateway",
      { networking: { expose: { parentRefs: [{ name: "edge" }] } } },
      "network.externalAccess",
      { enabled: true },
      "spec.networking.expose.parentRefs",
    ],
    [
      "external providers",
      { externalProviders: { inference: [{ providerId: "x", image: "x:1" }] } },
      "externalProviders",
      undefined,
      "spec.externalProviders",
    ],
    ["shields", { resources: { shields: ["guard"] } }, "resources", undefined, "spec.resources.shields"],
  ])("%s", (...[, spec, path, value, warning]) => {
    const { spec: out, warnings } = converted(toOgxServer(anLlsd(spec)));
    expect(at(out, path)).toEqual(value);
    expect(warnings).toContain(warning);
  });
});

describe("OGXServer → LLSD writes out what our defaults would change", () => {
  const openai = (id: string) => ({ id, apiKey: { name: "o", key: "k" } });
  it.each([
    [
      "the mount path",
      { workload: { storage: {} } },
      "workload.storage.mountPath",
      "/.ogx",
      "spec.workload.storage.mountPath",
    ],
    [
      "the vLLM URL verbatim",
      { providers: { inference: { remote: { vllm: [{ endpoint: "http://vllm:8000" }] } } } },
      "providers.inference.0.settings.base_url",
      "http://vllm:8000",
      "spec.providers.inference.remote.vllm[0].endpoint",
    ],
    [
      "the model's provider, alphabetically first",
      {
        providers: { inference: { remote: { openai: [openai("b"), openai("a")] } } },
        resources: { models: [{ name: "m" }] },
      },
      "resources.models.0.provider",
      "a",
      "spec.resources.models[0].provider",
    ],
    ["monitoring on", {}, "monitoring", { enabled: true }, "spec.monitoring"],
    ["no TLS serving", { network: { tls: { secretName: "tls" } } }, "networking", undefined, "spec.network.tls"],
    [
      "no hostname",
      { network: { externalAccess: { enabled: true, hostname: "h" } } },
      "networking.expose",
      true,
      "spec.network.externalAccess.hostname",
    ],
    [
      "the Redis password, left out (the peer's server has no such field: it never used it)",
      { storage: { kv: { type: "redis", endpoint: "r:6379", password: { name: "r", key: "p" } } } },
      "storage.kv",
      { type: "redis", endpoint: "r:6379" },
      "spec.storage.kv.password",
    ],
    [
      "NetworkPolicy rules",
      { network: { policy: { ingress: [{}] } } },
      "networking.policy.ingress",
      [{}],
      "spec.network.policy.ingress",
    ],
  ])("%s", (...[, spec, path, value, warning]) => {
    const { spec: out, warnings } = converted(fromOgxServer(anOgxServer(spec)));
    expect(at(out, path)).toEqual(value);
    expect(warnings).toContain(warning);
  });
});

describe("the peer's replace semantics are kept, not warned about (issue 47)", () => {
  const vllm = { remote: { vllm: [{ endpoint: "http://v" }] } };
  it.each([
    ["a provider block", { providers: { inference: vllm } }, ["inference"]],
    [
      "blocks and models",
      {
        providers: { inference: vllm, files: { remote: { s3: { bucketName: "b" } } } },
        resources: { models: [{ name: "m" }] },
      },
      ["inference", "files", "models"],
    ],
    ["nothing given", {}, undefined],
  ])("OGXServer → LLSD: %s → spec.replace, and no per-field warning", (...[, spec, replace]) => {
    const { spec: out, warnings } = converted(fromOgxServer(anOgxServer(spec)));
    expect(at(out, "replace")).toEqual(replace);
    expect(at(out, "providers.inference.0.id")).toEqual(replace ? "remote-vllm" : undefined);
    expect(warnings.filter((w) => /^spec\.(providers\.[a-zA-Z]+|resources\.models)$/.test(w))).toEqual([]);
  });

  const ours = { provider: "vllm", endpoint: "http://vllm:8000" };
  it.each([
    ["without replace, warned per section", { providers: { inference: [ours] } }, ["spec.providers.inference"]],
    ["with replace, not warned", { replace: ["inference"], providers: { inference: [ours] } }, []],
    [
      "models without replace, warned",
      { providers: { inference: [ours] }, replace: ["inference"], resources: { models: ["m"] } },
      ["spec.resources.models"],
    ],
    [
      "models with replace, not warned",
      { providers: { inference: [ours] }, replace: ["inference", "models"], resources: { models: ["m"] } },
      [],
    ],
    [
      "a replaced kind the peer cannot replace",
      { providers: { inference: [ours] }, replace: ["inference", "shields"] },
      ["spec.replace[1]"],
    ],
  ])("LLSD → OGXServer: %s", (...[, spec, expected]) => {
    const { warnings } = converted(toOgxServer(anLlsd(spec)));
    expect(warnings.filter((w) => /^spec\.(providers\.[a-zA-Z]+|resources\.models|replace\[\d+\])$/.test(w))).toEqual(
      expected,
    );
  });
});
