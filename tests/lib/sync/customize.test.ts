import { customize } from "../../../lib/sync/customize";
import { aParent, NS } from "../../sync-builders";

describe("customize()", () => {
  it("asks for every referenced Secret and ConfigMap by name, in the parent's namespace", () => {
    const parent = aParent({
      distribution: { name: "starter" },
      providers: {
        inference: [
          { id: "a", provider: "vllm", endpoint: "http://v:8000", apiKey: { name: "vllm-creds", key: "token" } },
        ],
        vectorIo: { provider: "pgvector", secretRefs: { host: { secretKeyRef: { name: "pg-creds", key: "host" } } } },
      },
      storage: {
        kv: { type: "redis", endpoint: "redis:6379", password: { name: "redis", key: "pw" } },
        sql: { type: "postgres", connectionString: { name: "pg-creds", key: "url" } },
      },
      networking: { tls: { enabled: true, secretName: "tls-cert", caBundle: { configMapName: "corp-ca" } } },
    });
    expect(customize({ parent })).toEqual({
      relatedResources: [
        { apiVersion: "v1", resource: "configmaps", namespace: NS, names: ["corp-ca", "odh-trusted-ca-bundle"] },
        {
          apiVersion: "v1",
          resource: "secrets",
          namespace: NS,
          names: ["pg-creds", "redis", "tls-cert", "vllm-creds"],
        },
        {
          apiVersion: "v1",
          resource: "secrets",
          namespace: NS,
          labelSelector: { matchLabels: { "llamastack.io/registry-credentials": "true" } },
        },
      ],
    });
  });

  it("asks for the override ConfigMap", () => {
    const parent = aParent({ distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } });
    expect(customize({ parent }).relatedResources).toEqual([
      { apiVersion: "v1", resource: "configmaps", namespace: NS, names: ["mine", "odh-trusted-ca-bundle"] },
    ]);
  });

  it("given a spec that references nothing, asks only for the namespace's ODH trusted-CA ConfigMap", () => {
    expect(customize({ parent: aParent({ distribution: { name: "starter" } }) })).toEqual({
      relatedResources: [{ apiVersion: "v1", resource: "configmaps", namespace: NS, names: ["odh-trusted-ca-bundle"] }],
    });
  });

  it("names the ODH ConfigMap once, even when the spec references it as its CA bundle", () => {
    const parent = aParent({
      distribution: { name: "starter" },
      networking: { tls: { caBundle: { configMapName: "odh-trusted-ca-bundle" } } },
    });
    expect(customize({ parent }).relatedResources).toEqual([
      { apiVersion: "v1", resource: "configmaps", namespace: NS, names: ["odh-trusted-ca-bundle"] },
    ]);
  });

  it("given an invalid spec, asks for nothing (never an empty names list, which would mean every object)", () => {
    expect(customize({ parent: aParent({ distribution: { name: "starter" }, providers: "nope" }) })).toEqual({
      relatedResources: [],
    });
  });
});
