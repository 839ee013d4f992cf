import { customize } from "../../lib/customize";
import { aParent, NS } from "../sync-builders";

describe("customize()", () => {
  it("asks for every referenced Secret and ConfigMap by name, in the parent's namespace", () => {
    const parent = aParent({
      distribution: { name: "starter" },
      providers: {
        inference: [{ id: "a", provider: "vllm", endpoint: "http://v:8000", apiKey: { name: "vllm-creds", key: "token" } }],
        vectorIo: { provider: "pgvector", secretRefs: { host: { secretKeyRef: { name: "pg-creds", key: "host" } } } },
      },
      storage: { kv: { type: "redis", endpoint: "redis:6379", password: { name: "redis", key: "pw" } }, sql: { type: "postgres", connectionString: { name: "pg-creds", key: "url" } } },
      networking: { tls: { enabled: true, secretName: "tls-cert", caBundle: { configMapName: "corp-ca" } } },
    });
    expect(customize({ parent })).toEqual({ relatedResources: [
      { apiVersion: "v1", resource: "configmaps", namespace: NS, names: ["corp-ca"] },
      { apiVersion: "v1", resource: "secrets", namespace: NS, names: ["pg-creds", "redis", "tls-cert", "vllm-creds"] },
      { apiVersion: "v1", resource: "secrets", namespace: NS, labelSelector: { matchLabels: { "llamastack.io/registry-credentials": "true" } } },
    ] });
  });

  it("asks for the override ConfigMap", () => {
    const parent = aParent({ distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } });
    expect(customize({ parent }).relatedResources).toEqual([{ apiVersion: "v1", resource: "configmaps", namespace: NS, names: ["mine"] }]);
  });

  it.each([
    ["references nothing", { distribution: { name: "starter" } }],
    ["is invalid", { distribution: { name: "starter" }, providers: "nope" }],
  ])("given a spec that %s, asks for nothing (never an empty names list, which would mean every object)", (_title, spec) => {
    expect(customize({ parent: aParent(spec) })).toEqual({ relatedResources: [] });
  });
});
