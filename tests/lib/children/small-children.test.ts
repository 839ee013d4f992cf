/** Service, ConfigMap, PVC and the derived postgres Secret: small builders, one table each. */
import { buildConfigMap } from "../../../lib/children/config-map";
import { buildPostgresSecret } from "../../../lib/children/postgres-secret";
import { buildPvc } from "../../../lib/children/pvc";
import { buildService } from "../../../lib/children/service";
import { CONFIG_HASH_ANNOTATION, names, selectorLabels } from "../../../lib/names";
import { aContext, aFullContext, aGeneratedConfig, HASH, NAME, POSTGRES_PARTS } from "./context-builder";

describe("buildService()", () => {
  it.each([
    [undefined, 8321],
    [9000, 9000],
  ])("given port %s, exposes %s as http → targetPort http on the pod labels", (port, expected) => {
    const service = buildService(aContext({ spec: { networking: port === undefined ? {} : { port } } }));
    expect(service.metadata?.name).toBe(names.service(NAME));
    expect(service.spec).toEqual({
      type: "ClusterIP",
      selector: selectorLabels(NAME),
      ports: [{ name: "http", port: expected, targetPort: "http", protocol: "TCP" }],
    });
  });
});

describe("buildConfigMap()", () => {
  it("given a generated config, builds the immutable hash-named ConfigMap with config.yaml", () => {
    const config = aGeneratedConfig();
    const cm = buildConfigMap(aContext({ config }));
    expect(cm?.metadata?.name).toBe(config.configMapName);
    expect(cm?.metadata?.annotations).toEqual({ [CONFIG_HASH_ANNOTATION]: HASH });
    expect(cm?.immutable).toBe(true);
    expect(cm?.data).toEqual({ "config.yaml": config.configYaml });
  });

  it.each([
    ["no config (the image's own)", aContext()],
    [
      "an override ConfigMap (the user's, mounted as is)",
      aContext({ config: { source: "override", configMapName: "mine", hash: "h" } }),
    ],
  ])("given %s, builds nothing", (_title, ctx) => {
    expect(buildConfigMap(ctx)).toBeUndefined();
  });
});

describe("buildPvc()", () => {
  it.each([
    [{}, "10Gi"],
    [{ size: "50Gi" }, "50Gi"],
  ])("given storage %j, claims %s ReadWriteOnce", (storage, size) => {
    const pvc = buildPvc(aContext({ spec: { workload: { storage } } }));
    expect(pvc?.metadata?.name).toBe(names.pvc(NAME));
    expect(pvc?.spec).toEqual({ accessModes: ["ReadWriteOnce"], resources: { requests: { storage: size } } });
  });

  it("given no storage, builds nothing", () => {
    expect(buildPvc(aContext())).toBeUndefined();
  });
});

describe("buildPostgresSecret()", () => {
  it("given postgres parts, stores each base64-encoded in data (never stringData)", () => {
    const secret = buildPostgresSecret(aFullContext());
    expect(secret?.metadata?.name).toBe(`${NAME}-postgres`);
    expect(secret?.type).toBe("Opaque");
    expect(secret).not.toHaveProperty("stringData");
    const decoded = Object.fromEntries(
      Object.entries(secret?.data ?? {}).map(([k, v]) => [k, Buffer.from(v, "base64").toString("utf8")]),
    );
    expect(decoded).toEqual(POSTGRES_PARTS);
    expect(Object.keys(secret?.data ?? {})).toEqual(["host", "port", "db", "user", "password"]);
  });

  it("names the Secret the Deployment's secretKeyRefs point at", () => {
    const ctx = aFullContext();
    const refs = ctx.secretEnv.filter((e) => e.name.startsWith("LLSD_STORAGE_SQL_"));
    const secret = buildPostgresSecret(ctx);
    for (const ref of refs) {
      expect(ref.secretName).toBe(secret?.metadata?.name);
      expect(Object.keys(secret?.data ?? {})).toContain(ref.secretKey);
    }
  });

  it("given no postgres, builds nothing", () => {
    expect(buildPostgresSecret(aContext())).toBeUndefined();
  });
});
